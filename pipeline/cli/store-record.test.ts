// What a store remembers (store.json): written by a run only when it changes, paths inside the
// project kept relative to it, imports recorded and dropped once their file is gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordImport, rememberStore, storeRecord } from './store-record.ts';

test('a run records the configuration, corpus and models file; the same again rewrites nothing; imports come and go with their files', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-record-'));
  const store = join(root, 'data', 'store');
  const given = {
    root,
    store,
    config: join(root, 'dag.config.ts'),
    corpus: join(root, 'data', 'sample'),
    models: '/elsewhere/models.json',
  };
  assert.equal(storeRecord(store), null, 'a new store remembers nothing');
  rememberStore(given);
  assert.deepEqual(storeRecord(store), {
    version: 1,
    config: 'dag.config.ts',
    corpus: 'data/sample',
    models: '/elsewhere/models.json',
    imports: [],
  });
  const file = join(store, 'store.json');
  const before = statSync(file).mtimeMs;
  await new Promise((r) => setTimeout(r, 20));
  rememberStore(given);
  assert.equal(statSync(file).mtimeMs, before, 'an unchanged record is not rewritten (the no-op fingerprint stats it)');

  mkdirSync(join(store, 'imports'));
  writeFileSync(join(store, 'imports', 'a.jsonl'), '{}\n');
  recordImport(store, { file: 'imports/a.jsonl', from: '/tmp/a.jsonl', at: '2026-01-01T00:00:00.000Z', rows: 1 });
  recordImport(store, { file: 'imports/a.jsonl', from: '/tmp/a2.jsonl', at: '2026-01-02T00:00:00.000Z', rows: 3 });
  assert.deepEqual(storeRecord(store)!.imports, [
    { file: 'imports/a.jsonl', from: '/tmp/a2.jsonl', at: '2026-01-02T00:00:00.000Z', rows: 3 },
  ]);
  rememberStore({ ...given, corpus: '/data/other' });
  assert.deepEqual(
    [storeRecord(store)!.corpus, storeRecord(store)!.imports.length],
    ['/data/other', 1],
    'a corpus outside the project is kept absolute; the import stays',
  );
  rmSync(join(store, 'imports', 'a.jsonl'));
  rememberStore({ ...given, corpus: '/data/other' });
  assert.deepEqual(storeRecord(store)!.imports, [], 'a deleted import is out of the record');
  writeFileSync(file, '{not json');
  assert.equal(storeRecord(store), null, 'an unreadable record is no record');
});
