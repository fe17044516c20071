import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveRequest, serveSite } from './serve-site.ts';

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
