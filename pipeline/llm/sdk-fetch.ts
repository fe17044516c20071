/**
 * A lean `fetch` for the openai SDK (embeddings, files and batches; chat calls go through
 * http-post.ts without the SDK) over node:http(s) keep-alive agents, the same as http-post's. WHATWG fetch (undici)
 * costs several times more CPU per request than node:http, which caps throughput at high
 * concurrency on small machines. Bodies are buffered whole (the client never streams), so a
 * body cut off mid-way fails the request instead of surfacing later as a parse error.
 * Anything but a string or byte body (multipart uploads for batches) goes to the global fetch.
 *
 * The answer is a small Response look-alike rather than a WHATWG Response: building the real
 * one (a body stream, a validated Headers) costs ~100 µs, a tenth of a call's whole CPU budget.
 * It offers what the SDK reads — ok, status, statusText, url, headers (get/has/entries/forEach),
 * json(), text(), arrayBuffer() — and `body: null`, since nothing here streams.
 */
import http from 'node:http';
import https from 'node:https';
import { httpAgent, httpsAgent } from './http-post.ts';

function abortError(): Error {
  const e = new Error('This operation was aborted');
  e.name = 'AbortError';
  return e;
}

function headerRecord(h: HeadersInit | undefined): Record<string, string> {
  if (!h) return {};
  if (h instanceof Headers) {
    const o: Record<string, string> = {};
    h.forEach((v, k) => (o[k] = v));
    return o;
  }
  if (Array.isArray(h)) return Object.fromEntries(h);
  return h as Record<string, string>;
}

/**
 * The headers with the body's length, so node:http sends the request in one write instead of
 * chunked transfer encoding (a writev of header, chunk frames and body per request).
 */
function withLength(h: Record<string, string>, body: string | Uint8Array | null | undefined): Record<string, string> {
  if (body == null) return h;
  for (const k in h) if (k.toLowerCase() === 'content-length') return h;
  return { ...h, 'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength) };
}

class LightHeaders {
  private readonly m = new Map<string, string>();
  constructor(raw: string[]) {
    for (let i = 0; i < raw.length; i += 2) {
      const k = raw[i].toLowerCase();
      const prev = this.m.get(k);
      this.m.set(k, prev === undefined ? raw[i + 1] : `${prev}, ${raw[i + 1]}`);
    }
  }
  get(name: string): string | null {
    return this.m.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.m.has(name.toLowerCase());
  }
  forEach(cb: (value: string, key: string, parent: LightHeaders) => void): void {
    this.m.forEach((v, k) => cb(v, k, this));
  }
  entries(): IterableIterator<[string, string]> {
    return this.m.entries();
  }
  keys(): IterableIterator<string> {
    return this.m.keys();
  }
  values(): IterableIterator<string> {
    return this.m.values();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.m.entries();
  }
}

class LightResponse {
  readonly ok: boolean;
  readonly body = null;
  readonly redirected = false;
  readonly type = 'basic';
  bodyUsed = false;
  constructor(
    private readonly buf: Buffer,
    readonly status: number,
    readonly statusText: string,
    readonly headers: LightHeaders,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
  }
  async text(): Promise<string> {
    this.bodyUsed = true;
    return this.buf.toString('utf8');
  }
  async json(): Promise<unknown> {
    this.bodyUsed = true;
    return JSON.parse(this.buf.toString('utf8'));
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    this.bodyUsed = true;
    return new Uint8Array(this.buf).buffer;
  }
  async blob(): Promise<Blob> {
    return new Blob([new Uint8Array(this.buf)]);
  }
  clone(): LightResponse {
    return new LightResponse(this.buf, this.status, this.statusText, this.headers, this.url);
  }
}

export const sdkFetch: typeof fetch = (input, init = {}) => {
  const body = init.body;
  if (body != null && typeof body !== 'string' && !(body instanceof Uint8Array)) return fetch(input, init);
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const url = new URL(href);
  const secure = url.protocol === 'https:';
  return new Promise<Response>((resolve, reject) => {
    const signal = init.signal;
    if (signal?.aborted) return reject(abortError());
    const req = (secure ? https : http).request(
      {
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port || (secure ? 443 : 80),
        path: url.pathname + url.search,
        method: init.method ?? 'GET',
        headers: withLength(headerRecord(init.headers), body),
        agent: secure ? httpsAgent : httpAgent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (!res.complete)
            return fail(Object.assign(new Error('response body truncated: connection closed mid-body'), { code: 'ERR_TRUNCATED_BODY' }));
          const buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
          cleanup();
          resolve(
            new LightResponse(
              buf,
              res.statusCode ?? 0,
              res.statusMessage ?? '',
              new LightHeaders(res.rawHeaders),
              href,
            ) as unknown as Response,
          );
        });
        res.on('aborted', () =>
          fail(Object.assign(new Error('response body truncated: connection closed mid-body'), { code: 'ERR_TRUNCATED_BODY' })),
        );
        res.on('error', (e) => fail(e));
      },
    );
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(e);
    };
    const onAbort = () => {
      req.destroy();
      fail(abortError());
    };
    const cleanup = () => {
      settled = true;
      signal?.removeEventListener('abort', onAbort);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => fail(e));
    if (body != null) req.end(body);
    else req.end();
  });
};
