// The chat path's transport: one POST with its length, the whole answer, and errors by code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { post, postTarget } from './http-post.ts';

test('a POST carries its length (one write, no chunked encoding) and resolves with status, headers and the whole body', async () => {
  const seen: { length?: string; chunked?: string; body: string }[] = [];
  const srv = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ length: req.headers['content-length'], chunked: req.headers['transfer-encoding'], body });
      if (req.url === '/cut') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('{"partial":');
        setTimeout(() => req.socket.destroy(), 10);
        return;
      }
      res.writeHead(req.url === '/slow' ? 200 : 201, { 'retry-after': '3', 'content-type': 'application/json' });
      if (req.url === '/slow') setTimeout(() => res.end('{}'), 300);
      else res.end('{"ok":true,"text":"é"}');
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  try {
    const a = await post(postTarget(`${base}/v1/chat/completions`), { 'content-type': 'application/json' }, '{"q":"ü"}', 5000);
    assert.deepEqual(
      [a.status, a.header('retry-after'), a.header('x-none'), a.body.toString('utf8')],
      [201, '3', null, '{"ok":true,"text":"é"}'],
    );
    assert.deepEqual(seen[0], { length: String(Buffer.byteLength('{"q":"ü"}')), chunked: undefined, body: '{"q":"ü"}' });
    await assert.rejects(post(postTarget(`${base}/slow`), {}, '{}', 50), { code: 'ETIMEDOUT', message: 'no answer within 50 ms' });
    await assert.rejects(post(postTarget(`${base}/cut`), {}, '{}', 5000), { code: 'ERR_TRUNCATED_BODY' });
  } finally {
    await new Promise<void>((r) => srv.close(() => r()));
  }
  await assert.rejects(post(postTarget(`${base}/v1`), {}, '{}', 5000), { code: 'ECONNREFUSED' });
  assert.deepEqual(postTarget('https://api.example.org:8443/v1/chat/completions?x=1'), {
    secure: true,
    hostname: 'api.example.org',
    port: 8443,
    path: '/v1/chat/completions?x=1',
  });
  assert.equal(postTarget('http://h/v1').port, 80);
});
