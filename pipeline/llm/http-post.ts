/**
 * One POST of a JSON body over node:http(s) keep-alive agents, with a total timeout: the chat
 * call path's transport (openai-transport.ts). No WHATWG Request/Response, Headers, URL or
 * AbortSignal per request: a call costs about what a plain node:http client costs (measured in
 * bench/llm-client.bench.ts). The body goes in one write with its length; the answer is the
 * status, the headers and the whole body, or an error whose `code` says what happened:
 * ECONNREFUSED / ECONNRESET (the socket's), ERR_TRUNCATED_BODY (closed mid-body), ETIMEDOUT
 * (no complete answer within the timeout).
 */
import http from 'node:http';
import https from 'node:https';

export const httpAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity, scheduling: 'lifo' });
export const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: Infinity, scheduling: 'lifo' });

/** Where a POST goes, parsed once per server: the request options without headers. */
export interface PostTarget {
  secure: boolean;
  hostname: string;
  port: number;
  path: string;
}

export function postTarget(url: string): PostTarget {
  const u = new URL(url);
  const secure = u.protocol === 'https:';
  return { secure, hostname: u.hostname, port: Number(u.port) || (secure ? 443 : 80), path: u.pathname + u.search };
}

export interface PostAnswer {
  status: number;
  /** A response header by lower-case name, or null. */
  header(name: string): string | null;
  body: Buffer;
}

function failure(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** POSTs `body` with `headers` (content-length is added) and resolves with the whole answer. */
export function post(t: PostTarget, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostAnswer> {
  return new Promise<PostAnswer>((resolve, reject) => {
    let settled = false;
    const settle = (e: Error | null, a?: PostAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (e) reject(e);
      else resolve(a!);
    };
    const req = (t.secure ? https : http).request(
      {
        hostname: t.hostname,
        port: t.port,
        path: t.path,
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        agent: t.secure ? httpsAgent : httpAgent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (!res.complete) return settle(failure('response body truncated: connection closed mid-body', 'ERR_TRUNCATED_BODY'));
          const raw = res.headers;
          settle(null, {
            status: res.statusCode ?? 0,
            header: (name) => {
              const v = raw[name];
              return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
            },
            body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks),
          });
        });
        res.on('aborted', () => settle(failure('response body truncated: connection closed mid-body', 'ERR_TRUNCATED_BODY')));
        res.on('error', (e) => settle(e));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      settle(failure(`no answer within ${timeoutMs} ms`, 'ETIMEDOUT'));
    }, timeoutMs);
    req.on('error', (e) => settle(e));
    req.end(body);
  });
}
