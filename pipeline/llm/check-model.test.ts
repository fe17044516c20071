// `cdp models --check`: one tiny request reaches the model; the server's own context window is read
// from /models (vLLM's max_model_len); failures say what happened, with the key redacted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkModel } from './check-model.ts';
import type { ModelSpec } from './types.ts';

async function server(
  handler: (req: IncomingMessage, body: string, res: ServerResponse) => void,
): Promise<{ url: string; seen: { path: string; auth?: string; body: string }[]; close: () => Promise<void> }> {
  const seen: { path: string; auth?: string; body: string }[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`, seen, close: () => new Promise((r) => s.close(() => r())) };
}

const spec = (url: string, over: Partial<ModelSpec> = {}): ModelSpec => ({
  name: 'mine',
  roles: ['evaluated'],
  provider: 'openai-compatible',
  baseURLs: [url],
  modelId: 'org/mine',
  apiKeyEnv: 'CHECK_KEY',
  ...over,
});

test('a model that answers: ok, its answer, and the window vLLM reports for that model id', async () => {
  const srv = await server((req, _body, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/v1/models')
      res.end(
        JSON.stringify({
          data: [
            { id: 'other', max_model_len: 8192 },
            { id: 'org/mine', max_model_len: 40960 },
          ],
        }),
      );
    else res.end(JSON.stringify({ choices: [{ message: { content: ' OK ' }, finish_reason: 'stop' }] }));
  });
  try {
    const r = await checkModel(spec(srv.url, { params: { temperature: 0.2 } }), { CHECK_KEY: 'sk-check-123456' });
    assert.deepEqual({ ok: r.ok, detail: r.detail, window: r.serverContextWindow }, { ok: true, detail: 'answered "OK"', window: 40960 });
    const chat = srv.seen.find((x) => x.path === '/v1/chat/completions')!;
    assert.deepEqual(JSON.parse(chat.body), {
      temperature: 0.2,
      max_tokens: 16,
      model: 'org/mine',
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
    });
    assert.equal(chat.auth, 'Bearer sk-check-123456');
  } finally {
    await srv.close();
  }
});

test("a model that fails: the status and the server's words, never the key; no /models listing is not an error", async () => {
  const srv = await server((req, _body, res) => {
    res.statusCode = req.url === '/v1/models' ? 404 : 401;
    res.end(`{"error": "bad key sk-check-123456"}`);
  });
  try {
    const r = await checkModel(spec(srv.url), { CHECK_KEY: 'sk-check-123456' });
    assert.equal(r.ok, false);
    assert.match(r.detail, /^HTTP 401 from http:\/\/127\.0\.0\.1:\d+\/v1: bad key \[redacted\]$/);
    assert.equal(r.serverContextWindow, null);
  } finally {
    await srv.close();
  }
  const down = await checkModel(spec('http://127.0.0.1:9/v1'), {});
  assert.equal(down.ok, false);
  assert.match(down.detail, /^http:\/\/127\.0\.0\.1:9\/v1: /);
});
