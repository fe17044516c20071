/**
 * A local OpenAI-compatible server for tests and benchmarks: real HTTP on 127.0.0.1, port 0.
 * It answers POST /v1/chat/completions from a function of the request, implements the Batch
 * API (POST /v1/files, GET /v1/files/:id/content, POST /v1/batches, GET /v1/batches/:id),
 * injects faults on chosen requests, adds latency, and counts what it receives.
 * GET /__stats returns the counters as JSON, for tests whose client runs in another process.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  | { kind: 'delay'; ms: number }
  | { kind: 'reset' }
  | { kind: 'truncate' }
  | { kind: 'malformed' };

export interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  [k: string]: unknown;
}

/** `finishReason` (default 'stop') lets a test answer as a cut-off ('length') or filtered reply. */
export type Answer = string | { content: string; promptTokens?: number; completionTokens?: number; finishReason?: string };

export interface FakeServerOptions {
  /** The answer to a chat request (default: a deterministic echo of the last message). */
  answer?: (body: ChatBody) => Answer | Promise<Answer>;
  /** Added to every chat request before answering. */
  latencyMs?: number;
  /** A fault for the n-th chat request (1-based), after any queued with `injectFaults`. */
  faultFor?: (n: number, body: ChatBody) => Fault | undefined;
  /** Retrieves of a batch that report `in_progress` before it completes (default 1). */
  batchPollsBeforeComplete?: number;
  /** Keep request bodies and auth headers in `requests` / `authHeaders` (default true; benchmarks turn it off). */
  keepRequests?: boolean;
}

export interface FakeServerCounters {
  /** Chat-completion requests received, faulted or not. */
  chat: number;
  /** Chat requests answered with 200 and a valid body. */
  answered: number;
  faults: number;
  /** Most chat requests being handled at once. */
  maxInFlight: number;
  fileUploads: number;
  fileDownloads: number;
  batchCreates: number;
  batchRetrieves: number;
  /** Chat requests received per model id. */
  byModel: Record<string, number>;
  /** Embedding requests received, and the texts they carried. */
  embeddings: number;
  embeddedTexts: number;
}

export interface FakeOpenAIServer {
  /** Base URL including `/v1`, as the openai client wants it. */
  url: string;
  port: number;
  counters: FakeServerCounters;
  /** Bodies of the chat requests received, in order. */
  requests: ChatBody[];
  /** Authorization headers seen (tests check keys are sent but never stored). */
  authHeaders: string[];
  /** Queues faults for the next chat requests, one each. */
  injectFaults(...faults: Fault[]): void;
  setLatency(ms: number): void;
  /** Changes how many retrieves a batch reports in_progress (0: the next one completes it). */
  setBatchPollsBeforeComplete(n: number): void;
  resetCounters(): void;
  close(): Promise<void>;
}

function zero(): FakeServerCounters {
  return {
    chat: 0,
    answered: 0,
    faults: 0,
    maxInFlight: 0,
    fileUploads: 0,
    fileDownloads: 0,
    batchCreates: 0,
    batchRetrieves: 0,
    byModel: {},
    embeddings: 0,
    embeddedTexts: 0,
  };
}

/** Rough usage counts: about four characters per token. */
function roughTokens(s: string): number {
  return Math.ceil(s.length / 4);
}

export function defaultAnswer(body: ChatBody): string {
  const last = body.messages[body.messages.length - 1];
  return `echo(${body.model}): ${typeof last?.content === 'string' ? last.content.slice(0, 200) : ''}`;
}

export async function startFakeOpenAIServer(opts: FakeServerOptions = {}): Promise<FakeOpenAIServer> {
  let latency = opts.latencyMs ?? 0;
  let pollsBeforeComplete = opts.batchPollsBeforeComplete ?? 1;
  const queue: Fault[] = [];
  const files = new Map<string, { name: string; content: string }>();
  const batches = new Map<
    string,
    { id: string; input_file_id: string; output_file_id?: string; polls: number; created_at: number; status: string }
  >();
  const sockets = new Set<Socket>();
  let seq = 0;
  const state = { counters: zero(), requests: [] as ChatBody[], authHeaders: [] as string[] };

  const answerOf = async (body: ChatBody) => {
    const a = await (opts.answer ?? defaultAnswer)(body);
    const content = typeof a === 'string' ? a : a.content;
    const prompt = body.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
    return {
      id: `chatcmpl-${++seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        { index: 0, message: { role: 'assistant', content }, finish_reason: typeof a === 'string' ? 'stop' : (a.finishReason ?? 'stop') },
      ],
      usage: {
        prompt_tokens: typeof a === 'string' || a.promptTokens === undefined ? roughTokens(prompt) : a.promptTokens,
        completion_tokens: typeof a === 'string' || a.completionTokens === undefined ? roughTokens(content) : a.completionTokens,
        total_tokens: 0,
      },
    };
  };

  const send = (res: ServerResponse, status: number, obj: unknown, headers: Record<string, string> = {}) => {
    const s = JSON.stringify(obj);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(s), ...headers });
    res.end(s);
  };

  const readBody = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });

  let inFlight = 0;
  const chat = async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    inFlight++;
    state.counters.maxInFlight = Math.max(state.counters.maxInFlight, inFlight);
    try {
      await chatInner(req, res, raw);
    } finally {
      inFlight--;
    }
  };
  const chatInner = async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const body = JSON.parse(raw.toString('utf8')) as ChatBody;
    const c = state.counters;
    const n = ++c.chat;
    c.byModel[body.model] = (c.byModel[body.model] ?? 0) + 1;
    if (opts.keepRequests !== false) {
      state.requests.push(body);
      const auth = req.headers.authorization;
      if (auth) state.authHeaders.push(auth);
    }
    const fault = queue.shift() ?? opts.faultFor?.(n, body);
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));
    if (fault) {
      c.faults++;
      switch (fault.kind) {
        case 'status':
          return send(
            res,
            fault.status,
            { error: { message: fault.message ?? `injected ${fault.status}`, type: 'injected' } },
            fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {},
          );
        case 'delay':
          await new Promise((r) => setTimeout(r, fault.ms));
          if (res.destroyed) return;
          break;
        case 'reset':
          req.socket.destroy();
          return;
        case 'truncate': {
          const s = JSON.stringify(await answerOf(body));
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(s) });
          res.write(s.slice(0, Math.floor(s.length / 2)));
          setTimeout(() => req.socket.destroy(), 5);
          return;
        }
        case 'malformed': {
          const s = '{"id": "chatcmpl-broken", "choices": [ {"message": ';
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(s) });
          res.end(s);
          return;
        }
      }
    }
    const out = await answerOf(body);
    c.answered++;
    send(res, 200, out);
  };

  const uploadFile = async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    // undici's Request parses multipart bodies, so the server needs no parser of its own.
    const form = await new Request('http://local/upload', {
      method: 'POST',
      headers: req.headers as Record<string, string>,
      body: new Uint8Array(raw),
    }).formData();
    const file = form.get('file');
    if (!file || typeof file === 'string') return send(res, 400, { error: { message: 'file field missing' } });
    const id = `file-${++seq}`;
    files.set(id, { name: (file as File).name, content: await (file as File).text() });
    state.counters.fileUploads++;
    send(res, 200, {
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
    if (!input) return send(res, 404, { error: { message: `no file ${body.input_file_id}` } });
    const lines: string[] = [];
    for (const line of input.content.split('\n')) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { custom_id: string; body: ChatBody };
      lines.push(
        JSON.stringify({
          id: `req-${++seq}`,
          custom_id: r.custom_id,
          response: { status_code: 200, request_id: `r${seq}`, body: await answerOf(r.body) },
          error: null,
        }),
      );
    }
    const outId = `file-${++seq}`;
    files.set(outId, { name: 'output.jsonl', content: lines.join('\n') + '\n' });
    const b = {
      id: `batch_${++seq}`,
      input_file_id: body.input_file_id,
      output_file_id: outId,
      polls: 0,
      created_at: Math.floor(Date.now() / 1000),
      status: 'validating',
    };
    batches.set(b.id, b);
    state.counters.batchCreates++;
    send(res, 200, batchObject(b));
  };

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const url = (req.url ?? '').split('?')[0];
      try {
        if (req.method === 'POST' && url === '/v1/chat/completions') return await chat(req, res, raw);
        if (req.method === 'POST' && url === '/v1/embeddings') {
          const body = JSON.parse(raw.toString('utf8')) as { input: string | string[] };
          const input = Array.isArray(body.input) ? body.input : [body.input];
          state.counters.embeddings++;
          state.counters.embeddedTexts += input.length;
          const data = input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) }));
          return send(res, 200, {
            object: 'list',
            data,
            model: 'fake-embedding',
            usage: { prompt_tokens: input.length * 8, total_tokens: input.length * 8 },
          });
        }
        if (req.method === 'POST' && url === '/v1/files') return await uploadFile(req, res, raw);
        if (req.method === 'POST' && url === '/v1/batches') return await createBatch(res, raw);
        let m = url.match(/^\/v1\/files\/([^/]+)\/content$/);
        if (req.method === 'GET' && m) {
          const f = files.get(m[1]);
          if (!f) return send(res, 404, { error: { message: `no file ${m[1]}` } });
          state.counters.fileDownloads++;
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          return res.end(f.content);
        }
        m = url.match(/^\/v1\/batches\/([^/]+)$/);
        if (req.method === 'GET' && m) {
          const b = batches.get(m[1]);
          if (!b) return send(res, 404, { error: { message: `no batch ${m[1]}` } });
          state.counters.batchRetrieves++;
          b.polls++;
          b.status = b.polls > pollsBeforeComplete ? 'completed' : 'in_progress';
          return send(res, 200, batchObject(b));
        }
        if (req.method === 'GET' && url === '/__stats') return send(res, 200, state.counters);
        send(res, 404, { error: { message: `fake server: no route ${req.method} ${url}` } });
      } catch (err) {
        if (!res.headersSent) send(res, 500, { error: { message: `fake server: ${(err as Error).message}` } });
      }
    })();
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    get counters() {
      return state.counters;
    },
    get requests() {
      return state.requests;
    },
    get authHeaders() {
      return state.authHeaders;
    },
    injectFaults: (...f: Fault[]) => void queue.push(...f),
    setLatency: (ms: number) => void (latency = ms),
    setBatchPollsBeforeComplete: (n: number) => void (pollsBeforeComplete = n),
    resetCounters: () => {
      state.counters = zero();
      state.requests = [];
      state.authHeaders = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A deterministic embedding: lower-cased word counts hashed into 64 dimensions, unit length.
 * Texts sharing words point the same way, so cosine similarity behaves like token overlap.
 */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(64).fill(0);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619) >>> 0;
    v[h % 64] += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}
