/**
 * The fake server's Batch API (fake-openai-server.ts): POST /v1/files, GET /v1/files/:id/content,
 * POST /v1/batches, GET /v1/batches/:id. A batch answers every line as a chat request would be
 * answered, and reports `in_progress` for the first retrieves.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatBody, FakeServerCounters } from './fake-openai-server.ts';

export interface BatchApiDeps {
  answerOf(body: ChatBody): Promise<unknown>;
  counters(): FakeServerCounters;
  pollsBeforeComplete(): number;
  nextId(): number;
  send(res: ServerResponse, status: number, obj: unknown): void;
}

export function fakeBatchApi(o: BatchApiDeps) {
  const files = new Map<string, { name: string; content: string }>();
  const batches = new Map<
    string,
    { id: string; input_file_id: string; output_file_id?: string; polls: number; created_at: number; status: string }
  >();
  const uploadFile = async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    // undici's Request parses multipart bodies, so the server needs no parser of its own.
    const form = await new Request('http://local/upload', {
      method: 'POST',
      headers: req.headers as Record<string, string>,
      body: new Uint8Array(raw),
    }).formData();
    const file = form.get('file');
    if (!file || typeof file === 'string') return o.send(res, 400, { error: { message: 'file field missing' } });
    const id = `file-${o.nextId()}`;
    files.set(id, { name: (file as File).name, content: await (file as File).text() });
    o.counters().fileUploads++;
    o.send(res, 200, {
      id,
      object: 'file',
      bytes: raw.length,
      created_at: Math.floor(Date.now() / 1000),
      filename: (file as File).name,
      purpose: form.get('purpose'),
    });
  };

  const batchObject = (b: { id: string; input_file_id: string; output_file_id?: string; created_at: number; status: string }) => ({
    id: b.id,
    object: 'batch',
    endpoint: '/v1/chat/completions',
    input_file_id: b.input_file_id,
    completion_window: '24h',
    status: b.status,
    output_file_id: b.status === 'completed' ? b.output_file_id : null,
    error_file_id: null,
    created_at: b.created_at,
  });

  const createBatch = async (res: ServerResponse, raw: Buffer) => {
    const body = JSON.parse(raw.toString('utf8')) as { input_file_id: string };
    const input = files.get(body.input_file_id);
    if (!input) return o.send(res, 404, { error: { message: `no file ${body.input_file_id}` } });
    const lines: string[] = [];
    for (const line of input.content.split('\n')) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { custom_id: string; body: ChatBody };
      lines.push(
        JSON.stringify({
          id: `req-${o.nextId()}`,
          custom_id: r.custom_id,
          response: { status_code: 200, request_id: `r${o.nextId()}`, body: await o.answerOf(r.body) },
          error: null,
        }),
      );
    }
    const outId = `file-${o.nextId()}`;
    files.set(outId, { name: 'output.jsonl', content: lines.join('\n') + '\n' });
    const b = {
      id: `batch_${o.nextId()}`,
      input_file_id: body.input_file_id,
      output_file_id: outId,
      polls: 0,
      created_at: Math.floor(Date.now() / 1000),
      status: 'validating',
    };
    batches.set(b.id, b);
    o.counters().batchCreates++;
    o.send(res, 200, batchObject(b));
  };

  /** Answers a Batch API request; false when the route is not one. */
  const route = async (req: IncomingMessage, res: ServerResponse, raw: Buffer, url: string): Promise<boolean> => {
    if (req.method === 'POST' && url === '/v1/files') return (await uploadFile(req, res, raw), true);
    if (req.method === 'POST' && url === '/v1/batches') return (await createBatch(res, raw), true);
    let m = url.match(/^\/v1\/files\/([^/]+)\/content$/);
    if (req.method === 'GET' && m) {
      const f = files.get(m[1]);
      if (!f) return (o.send(res, 404, { error: { message: `no file ${m[1]}` } }), true);
      o.counters().fileDownloads++;
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(f.content);
      return true;
    }
    m = url.match(/^\/v1\/batches\/([^/]+)$/);
    if (req.method === 'GET' && m) {
      const b = batches.get(m[1]);
      if (!b) return (o.send(res, 404, { error: { message: `no batch ${m[1]}` } }), true);
      o.counters().batchRetrieves++;
      b.polls++;
      b.status = b.polls > o.pollsBeforeComplete() ? 'completed' : 'in_progress';
      o.send(res, 200, batchObject(b));
      return true;
    }
    return false;
  };
  return { route };
}
