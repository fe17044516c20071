/**
 * A lean `fetch` for the openai SDK over node:http(s) keep-alive agents. WHATWG fetch (undici)
 * costs several times more CPU per request than node:http, which caps throughput at high
 * concurrency on small machines. Bodies are buffered whole (the client never streams), so a
 * body cut off mid-way fails the request instead of surfacing later as a parse error.
 * Anything but a string or byte body (multipart uploads for batches) goes to the global fetch.
 */
import http from 'node:http';
import https from 'node:https';

const httpAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity, scheduling: 'lifo' });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: Infinity, scheduling: 'lifo' });

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

export const nodeFetch: typeof fetch = (input, init = {}) => {
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
        headers: headerRecord(init.headers),
        agent: secure ? httpsAgent : httpAgent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (!res.complete) return fail(Object.assign(new Error('response body truncated: connection closed mid-body'), { code: 'ERR_TRUNCATED_BODY' }));
          const headers = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
          const status = res.statusCode ?? 0;
          const buf = Buffer.concat(chunks);
          cleanup();
          resolve(new Response(status === 204 || status === 304 ? null : buf, { status, statusText: res.statusMessage, headers }));
        });
        res.on('aborted', () => fail(Object.assign(new Error('response body truncated: connection closed mid-body'), { code: 'ERR_TRUNCATED_BODY' })));
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
