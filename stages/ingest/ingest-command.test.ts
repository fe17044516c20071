import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestCommand, languageFromPath } from './ingest-command.ts';
import { SAMPLE_DIR } from './testing/sample-corpus.ts';

function sink() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  return { stream, text: () => chunks.join('') };
}

test('prints the Markdown of a PDF and exits 0', async () => {
  const out = sink(),
    err = sink();
  const code = await ingestCommand(join(SAMPLE_DIR, 'zh/nhc-2020-insomnia.pdf'), out.stream, { err: err.stream });
  assert.equal(code, 0);
  assert.match(out.text(), /^## 一、概述$/m);
  assert.equal(err.text(), '');
});

test('a bad file exits 1 with the error on stderr, nothing on stdout', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cdp-ingest-'));
  try {
    const path = join(dir, 'notes.pdf');
    await writeFile(path, 'just some notes\n');
    const out = sink(),
      err = sink();
    assert.equal(await ingestCommand(path, out.stream, { err: err.stream }), 1);
    assert.equal(out.text(), '');
    assert.match(err.text(), /^cdp ingest: notes\.pdf: not a PDF/);
    assert.equal(await ingestCommand(join(dir, 'missing.pdf'), out.stream, { err: err.stream }), 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the language hint comes from an en/ or zh/ folder', () => {
  assert.equal(languageFromPath('data/sample/guidelines/zh/nhc-2020-delirium.pdf'), 'zh');
  assert.equal(languageFromPath('/x/en/a.pdf'), 'en');
  assert.equal(languageFromPath('/x/a.pdf'), undefined);
});
