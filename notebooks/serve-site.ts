/** `cdp serve`: a static file server for the built site, bound to 127.0.0.1 only. */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.parquet': 'application/vnd.apache.parquet',
};

/** The file a URL path names inside dir, or null when it escapes dir or does not exist. */
export function resolveRequest(dir: string, urlPath: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  const base = resolve(dir);
  let file = normalize(join(base, path));
  if (file !== base && !file.startsWith(base + sep)) return null;
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

export async function serveSite(dir: string, port = 3000, host = '127.0.0.1'): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const file = resolveRequest(dir, req.url ?? '/');
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${req.url}\n`);
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  const { port: actual } = server.address() as AddressInfo;
  return { server, url: `http://${host}:${actual}/` };
}
