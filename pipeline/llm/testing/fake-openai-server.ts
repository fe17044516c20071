/**
 * A local OpenAI-compatible server for tests and benchmarks: real HTTP on 127.0.0.1, port 0.
 * It answers POST /v1/chat/completions from a function of the request, implements the Batch
 * API (POST /v1/files, GET /v1/files/:id/content, POST /v1/batches, GET /v1/batches/:id),
 * injects faults on chosen requests, adds latency, and counts what it receives. Faults are those
 * of real servers: error bodies in each server's format (testing/server-errors.ts), a context
 * window it enforces with a chosen server's overflow message, 200s that are empty, have no
 * choices or were aborted, bodies cut off, resets, and a warm-up during which it refuses
 * connections or answers 502/503 (`warmUp`).
 * GET /__stats returns the counters as JSON, for tests whose client runs in another process.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fakeBatchApi } from './fake-batch-api.ts';
import { overflowResponse, roughRequestTokens, sendNoAnswer, sendRaw } from './fake-server-faults.ts';

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  /** An error response sent as given (a body of testing/server-errors.ts). */
  | { kind: 'body'; status: number; body: string; contentType: string; retryAfter?: string }
  | { kind: 'delay'; ms: number }
  | { kind: 'reset' }
  | { kind: 'truncate' }
  | { kind: 'malformed' }
  /** A 200 whose content is empty, with this finish_reason (default null: none). */
  | { kind: 'empty'; finishReason?: string | null }
  /** A 200 with `choices: []`. */
  | { kind: 'no-choices' }
  /** A 200 vLLM sends for a request it aborted: finish_reason 'abort'. */
  | { kind: 'aborted' };

/** Whose overflow message the server's context window is enforced with. */
export type OverflowStyle = 'vllm' | 'openai' | 'sglang' | 'llamacpp';

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
  /**
   * A context window the server enforces (rough tokens: 4 characters each, plus max_tokens):
   * a larger request gets a 400 with `overflowStyle`'s message (default vLLM's flat one).
   */
  contextWindow?: number;
  overflowStyle?: OverflowStyle;
}

export interface FakeServerCounters {
  /** Chat-completion requests received, faulted or not. */
  chat: number;
  /** Chat requests answered with 200 and a valid body. */
  answered: number;
  faults: number;
  /** Most chat requests being handled at once. */
  maxInFlight: number;
  /** Chat requests refused as over the context window (`contextWindow`). */
  overflows: number;
  /** Chat requests answered 502/503 during a warm-up. */
  warmingUp: number;
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
  /**
   * A server starting up for `ms`: refusing connections (its port closed, as vLLM's is until the
   * model is loaded), or answering every chat request with `status` (502 from a proxy with no
   * upstream yet, 503 while loading) and an optional body. Resolves once the warm-up has begun.
   */
  warmUp(ms: number, as: 'refuse' | { status: number; body?: { body: string; contentType: string } }): Promise<void>;
  /** Resolves when the current warm-up is over (the port listens again). */
  warm(): Promise<void>;
  resetCounters(): void;
  close(): Promise<void>;
}

function zero(): FakeServerCounters {
  return {
    chat: 0,
    answered: 0,
    faults: 0,
    maxInFlight: 0,
    overflows: 0,
    warmingUp: 0,
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
  const sockets = new Set<Socket>();
  let seq = 0;
  let warming: { until: number; as: 'refuse' | { status: number; body?: { body: string; contentType: string } } } | null = null;
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
    if (warming && Date.now() < warming.until && warming.as !== 'refuse') {
      c.warmingUp++;
      const w = warming.as;
      return sendRaw(res, w.status, w.body?.contentType ?? 'text/plain', w.body?.body ?? '');
    }
    if (opts.contextWindow) {
      const t = roughRequestTokens(body);
      if (t.prompt + t.completion > opts.contextWindow) {
        c.overflows++;
        const o = overflowResponse(opts.overflowStyle ?? 'vllm', opts.contextWindow, t.prompt, t.completion);
        return sendRaw(res, o.status, 'application/json', o.body);
      }
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
        case 'body':
          return sendRaw(
            res,
            fault.status,
            fault.contentType,
            fault.body,
            fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {},
          );
        case 'empty':
          return sendNoAnswer(res, body.model, [
            { index: 0, message: { role: 'assistant', content: '' }, finish_reason: fault.finishReason ?? null },
          ]);
        case 'no-choices':
          return sendNoAnswer(res, body.model, []);
        case 'aborted':
          return sendNoAnswer(res, body.model, [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'abort' }]);
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

  const batchApi = fakeBatchApi({
    answerOf,
    counters: () => state.counters,
    pollsBeforeComplete: () => pollsBeforeComplete,
    nextId: () => ++seq,
    send,
  });

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
        if (await batchApi.route(req, res, raw, url)) return;
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
  let warmed: Promise<void> = Promise.resolve();
  let closed = false;
  const warmUp = async (ms: number, as: 'refuse' | { status: number; body?: { body: string; contentType: string } }) => {
    warming = { until: Date.now() + ms, as };
    if (as !== 'refuse') {
      warmed = new Promise((r) => setTimeout(r, ms));
      return;
    }
    // Down as a server that is not yet listening: connections are refused until it is.
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
    warmed = new Promise((resolve, reject) =>
      setTimeout(() => {
        if (closed) return resolve();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      }, ms),
    );
  };
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
    warmUp,
    warm: () => warmed,
    resetCounters: () => {
      state.counters = zero();
      state.requests = [];
      state.authHeaders = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
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
