import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowedHosts, resolveRequest, sendFile, serveSite } from './serve-site.ts';

const dir = mkdtempSync(join(tmpdir(), 'cdp-serve-'));
const site = join(dir, 'site');
mkdirSync(join(site, 'assets'), { recursive: true });
writeFileSync(join(site, 'index.html'), '<p>index</p>');
writeFileSync(join(site, 'assets', 'a b.js'), 'export {}');
writeFileSync(join(dir, 'secret.txt'), 'outside the site');
after(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveRequest', () => {
  test('maps URL paths to files inside the site, folders to their index.html', () => {
    assert.equal(resolveRequest(site, '/'), join(site, 'index.html'));
    assert.equal(resolveRequest(site, '/assets/a%20b.js?v=1'), join(site, 'assets', 'a b.js'));
    assert.equal(resolveRequest(site, '/missing.html'), null);
    assert.equal(resolveRequest(site, '/assets'), null, 'a folder without index.html is not found');
  });

  test('never leaves the site folder', () => {
    assert.equal(resolveRequest(site, '/../secret.txt'), null);
    assert.equal(resolveRequest(site, '/%2e%2e/secret.txt'), null);
    assert.equal(resolveRequest(site, '/assets/..%2f..%2fsecret.txt'), null);
    assert.equal(resolveRequest(site, '/%E0%A4%A'), null, 'malformed escapes are not found');
  });
});

describe('serveSite', () => {
  test('serves files with their content type on 127.0.0.1 and 404s the rest', async () => {
    const { server, url } = await serveSite(site, 0);
    try {
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      const index = await fetch(url);
      assert.equal(index.status, 200);
      assert.equal(index.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(await index.text(), '<p>index</p>');
      const js = await fetch(url + 'assets/a%20b.js');
      assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
      assert.equal(await js.text(), 'export {}');
      const outside = await fetch(url + '%2e%2e/secret.txt');
      assert.equal(outside.status, 404);
    } finally {
      server.close();
    }
  });
});

/** One GET with the Host header as given (fetch sets its own), answered as status and body. */
function get(url: string, path: string, host: string | null): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((ok, fail) => {
    const headers: Record<string, string> = host === null ? {} : { host };
    const req = request({ host: u.hostname, port: u.port, path, headers, setHost: host !== null }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('serveSite answers only requests addressed to it (DNS rebinding)', () => {
  test('the loopback names with its port are answered; another name, port or none gets 421 naming the address', async () => {
    const { server, url } = await serveSite(site, 0);
    const port = new URL(url).port;
    try {
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
        assert.deepEqual(await get(url, '/', host), { status: 200, body: '<p>index</p>' }, host);
      }
      for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1:1`, `127.0.0.1`, `localhost.evil.example:${port}`]) {
        const r = await get(url, '/', host);
        assert.equal(r.status, 421, host);
        assert.equal(
          r.body,
          `this server answers only requests for http://127.0.0.1:${port}/ (Host: ${host.toLowerCase()}); open that address\n`,
        );
      }
      // An HTTP/1.1 request without a Host header is refused by Node's server itself.
      assert.equal((await get(url, '/', null)).status, 400, 'no Host header');
    } finally {
      server.close();
    }
  });

  test('allowedHosts: loopback binds accept each loopback name, another bind only its own; a bare name only on port 80', () => {
    assert.deepEqual([...allowedHosts('127.0.0.1', 3000)], ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000']);
    assert.deepEqual([...allowedHosts('::1', 8080)], ['127.0.0.1:8080', 'localhost:8080', '[::1]:8080']);
    assert.deepEqual([...allowedHosts('192.168.1.5', 3000)], ['192.168.1.5:3000']);
    assert.deepEqual([...allowedHosts('localhost', 80)], ['127.0.0.1:80', '127.0.0.1', 'localhost:80', 'localhost', '[::1]:80', '[::1]']);
  });
});

describe('a file that goes between lookup and read', () => {
  test('is answered 404, and the server goes on answering', async () => {
    const doomed = join(site, 'doomed.html');
    writeFileSync(doomed, '<p>soon gone</p>');
    const file = resolveRequest(site, '/doomed.html');
    assert.equal(file, doomed);
    // The site is rebuilt between the lookup and the read.
    rmSync(doomed);
    const server = createServer((req, res) => void sendFile(file!, req, res));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const gone = await fetch(`${url}/doomed.html`);
      assert.equal(gone.status, 404);
      assert.equal(await gone.text(), 'not found: /doomed.html\n');
      writeFileSync(doomed, '<p>back</p>');
      assert.equal(await (await fetch(`${url}/doomed.html`)).text(), '<p>back</p>');
    } finally {
      server.close();
    }
  });
});
