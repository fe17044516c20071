/**
 * `cdp serve`: a static file server for the built site, bound to 127.0.0.1 only. It answers only
 * requests addressed to it (the Host header names the address it listens on), so a page elsewhere
 * cannot read the results through a DNS name rebound to 127.0.0.1; and a file that goes between
 * the lookup and the read (a rebuild of the site) is a 404, not the end of the server.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
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

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The Host headers a server listening on host:port answers: that address, and for a loopback
 * bind its other loopback names; without a port only when the port is HTTP's default.
 */
export function allowedHosts(host: string, port: number): Set<string> {
  const name = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const names = LOOPBACK.includes(name) || name === '[::ffff:127.0.0.1]' ? LOOPBACK : [name];
  const out = new Set<string>();
  for (const n of names) {
    out.add(`${n}:${port}`);
    if (port === 80) out.add(n);
  }
  return out;
}

function notFound(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${req.url}\n`);
}

/** Sends a file opened first: gone by then is a 404; failing midway ends the response, never the server. */
export async function sendFile(file: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    notFound(req, res);
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
  // pipeline() closes the file and the response together, whichever fails or ends first.
  pipeline(handle.createReadStream(), res, () => {});
}

export async function serveSite(dir: string, port = 3000, host = '127.0.0.1'): Promise<{ server: Server; url: string }> {
  let hosts = new Set<string>();
  const server = createServer((req, res) => {
    const asked = req.headers.host?.toLowerCase();
    if (!asked || !hosts.has(asked)) {
      const expected = [...hosts][0];
      res
        .writeHead(421, { 'content-type': 'text/plain' })
        .end(`this server answers only requests for http://${expected}/ (Host: ${asked ?? 'none'}); open that address\n`);
      return;
    }
    const file = resolveRequest(dir, req.url ?? '/');
    if (!file) notFound(req, res);
    else void sendFile(file, req, res);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  const { port: actual } = server.address() as AddressInfo;
  hosts = allowedHosts(host, actual);
  return { server, url: `http://${host}:${actual}/` };
}
