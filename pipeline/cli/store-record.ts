/**
 * What a store is: `<store>/store.json` records the configuration that owns it, the corpus and
 * the models file it was built with, and the files imported into it. A later command on the
 * store uses the remembered corpus and models file when none is given (pipeline/cli/invocation.mjs
 * reads the record, this module writes it); one given explicitly is used and named ("corpus
 * changed: A → B"), and the run records it.
 *
 *   { "version": 1, "config": "dag.config.ts", "corpus": "data/sample", "models": null,
 *     "imports": [{ "file": "imports/x.jsonl", "from": "/home/me/x.jsonl", "at": "…", "rows": 12 }] }
 *
 * Paths inside the project are kept relative to it, so a copied project keeps working.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic.ts';
import { projectPath, readStoreRecord, STORE_RECORD } from './invocation.mjs';

export interface ImportRecord {
  /** The imported file, relative to the store. */
  file: string;
  /** Where it was imported from, as given. */
  from: string;
  at: string;
  rows: number;
}

export interface StoreRecord {
  version: 1;
  config: string;
  corpus: string | null;
  models: string | null;
  imports: ImportRecord[];
}

export function storeRecord(store: string): StoreRecord | null {
  const r = readStoreRecord(store) as Partial<StoreRecord> | null;
  if (!r) return null;
  return {
    version: 1,
    config: String(r.config ?? ''),
    corpus: typeof r.corpus === 'string' ? r.corpus : null,
    models: typeof r.models === 'string' ? r.models : null,
    imports: Array.isArray(r.imports) ? r.imports : [],
  };
}

/** Records what a run builds the store from; writes nothing when the record already says so. */
export function rememberStore(o: { root: string; store: string; config: string; corpus: string | null; models: string | null }): void {
  const before = storeRecord(o.store);
  const next: StoreRecord = {
    version: 1,
    config: projectPath(o.root, o.config),
    corpus: o.corpus === null ? null : projectPath(o.root, o.corpus),
    models: o.models === null ? null : projectPath(o.root, o.models),
    // An import deleted from <store>/imports/ is out of the run: the record says so too.
    imports: (before?.imports ?? []).filter((i) => existsSync(join(o.store, i.file))),
  };
  if (before && JSON.stringify(before) === JSON.stringify(next)) return;
  writeFileAtomic(join(o.store, STORE_RECORD), JSON.stringify(next, null, 2) + '\n');
}

/** Adds (or replaces, by file) an import to a store's record; the next run fills in what a store of an older cdp lacks. */
export function recordImport(store: string, entry: ImportRecord): void {
  const r = storeRecord(store) ?? { version: 1, config: '', corpus: null, models: null, imports: [] };
  const imports = [...r.imports.filter((i) => i.file !== entry.file), entry];
  writeFileAtomic(join(store, STORE_RECORD), JSON.stringify({ ...r, imports }, null, 2) + '\n');
}
