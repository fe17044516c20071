/**
 * After a successful `cdp run`, a fingerprint of everything the run's outcome depended on: the
 * options (hashed: flags, their fallbacks and what the store remembers, `--set`s included), the
 * environment variables the configuration read through `options.env` (values hashed, keys by
 * presence only), the configuration and every code file it and its stages import (by size and
 * mtime), the package lock, the files the configuration read, the source files and the
 * directories their globs walk, the ledger, the store's record, each stage's artifact (NDJSON and
 * Parquet) and the warehouse. When nothing of it changed, `cdp run` answers from the fingerprint
 * without loading the DAG (pipeline/cli/fast-noop.mjs): make's trick, applied to a
 * content-addressed runner.
 */
import { statSync, readdirSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Project } from './load.ts';
import type { RunSummary } from '../exec/executor.ts';
import { readLedger, type Ledger } from '../store/ledger.ts';
import { iterRows, segmentPaths } from '../store/artifacts.ts';
import { CodeHasher } from '../hash/code-identity.ts';
import { StatCache } from '../hash/stat-cache.ts';
import { writeFileAtomic } from '../store/atomic.ts';
import { configInputs } from '../dag/config-inputs.ts';
import { sourceDir } from '../exec/sources.ts';
import { envReadsHash, fingerprintPath, optionsHash, resolveInvocation, STORE_RECORD } from './invocation.mjs';
import { outstandingKinds, runReport } from './run-report.ts';
import { runExitCode } from './exit-code.ts';

export const FINGERPRINT_VERSION = 2;

function stat(path: string): [number, number] | null {
  try {
    const s = statSync(path);
    return [s.size, s.mtimeMs];
  } catch {
    return null;
  }
}

/** The mtimes of a directory and all directories below it (a missing one is recorded as -1). */
function walkDirs(dir: string, out: Record<string, number>): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
    out[dir] = statSync(dir).mtimeMs;
  } catch {
    out[dir] = -1;
    return;
  }
  for (const e of entries) if (e.isDirectory()) walkDirs(join(dir, e.name), out);
}

/** The directory a pattern's files can appear in: its static prefix, or a plain path's parent. */
function patternRoot(pattern: string): string {
  const parts = pattern.split('/');
  const firstGlob = parts.findIndex((x) => /[*?{]/.test(x));
  return firstGlob < 0 ? parts.slice(0, -1).join('/') || '.' : parts.slice(0, firstGlob).join('/') || '.';
}

/**
 * The directories a run's sources list their files from, by mtime (additions and removals show
 * there), and each source file through `add` (by its own stat). A row's path is relative to its
 * source's base when it has one, not to the project.
 */
function sourceInputs(dag: Project['dag'], store: string, ledger: Ledger, add: (file: string) => void): Record<string, number> {
  const dirs: Record<string, number> = {};
  for (const src of Object.values(dag.config.sources)) {
    for (const pattern of src.patterns) {
      const base = resolve(sourceDir(dag.root, src), patternRoot(pattern));
      // A plain file's directory only (not the tree below it, which may hold the store itself).
      if (/[*?{]/.test(pattern)) walkDirs(base, dirs);
      else dirs[base] = stat(base)?.[1] ?? -1;
    }
  }
  for (const name of dag.sources) {
    const dir = sourceDir(dag.root, dag.config.sources[name]!);
    for (const r of iterRows(store, name, ledger.entries[name]!.segments ?? [])) add(resolve(dir, String(r.path)));
  }
  return dirs;
}

export function writeNoopFingerprint(p: Project, summary: RunSummary, o: { targets: string[]; startedAt: number }): void {
  if (!summary.ok) return;
  const { dag, ws, configFile } = p;
  // The options as the next command line will resolve them, now that the store has recorded its corpus.
  const next = resolveInvocation(p.invocation.flags, process.env, p.invocation.cwd);
  if (next.problems.length || next.notices.length) return;
  const ledger = readLedger(ws.ledger);
  // Inputs (code, packages, sources) must predate the run; outputs (artifacts) were written by it.
  const files: Record<string, [number, number] | null> = {};
  const outputs: Record<string, [number, number] | null> = {};
  const add = (f: string) => (files[resolve(dag.root, f)] = stat(resolve(dag.root, f)));
  const addOutput = (f: string) => (outputs[resolve(dag.root, f)] = stat(resolve(dag.root, f)));
  add(configFile);
  // The store's stat cache remembers what each file imports, so listing the config's modules parses none that did not change.
  const statCache = new StatCache(ws.statCache);
  for (const f of Object.keys(new CodeHasher(dag.root, statCache).identity(configFile).files)) add(f);
  statCache.save();
  for (const f of ['package.json', 'package-lock.json', 'node_modules/.package-lock.json']) add(f);
  // Files the configuration read (a models file), recorded absent too: creating one must count.
  for (const f of configInputs()) add(f);
  const records: Record<string, unknown>[] = [];
  for (const name of dag.order) {
    const e = ledger.entries[name];
    if (!e) return; // a stage outside the targets never ran: no complete picture to fingerprint
    for (const f of Object.keys(e.components?.code.files ?? {})) add(f);
    if (!e.segments) return; // an entry of an older cdp: the full runner rebuilds it
    // As the ledger recorded them: the run has just written or verified every one. A file changed
    // since no longer matches, and the fast path then leaves the decision to the full runner.
    for (const seg of e.segments) {
      const a = segmentPaths(ws.store, name, seg.hash);
      outputs[resolve(dag.root, a.ndjson)] = [seg.files.ndjson.size, seg.files.ndjson.mtimeMs];
      outputs[resolve(dag.root, a.parquet)] = [seg.files.parquet.size, seg.files.parquet.mtimeMs];
    }
  }
  // The warehouse as this run left it: deleted or rebuilt by anything else, the full runner decides.
  addOutput(ws.warehouse);
  addOutput(join(ws.store, STORE_RECORD));
  const dirs = sourceInputs(dag, ws.store, ledger, add);
  // Files changed while the run was running may not be reflected in its artifacts: no fingerprint.
  if (Object.values(files).some((s) => s && s[1] >= o.startedAt) || Object.values(dirs).some((m) => m >= o.startedAt)) return;
  for (const s of summary.stages) {
    const e = ledger.entries[s.stage];
    const kinds = e?.facts?.failureKinds;
    records.push({
      stage: s.stage,
      key: e?.key ?? null,
      rows: e?.rows ?? 0,
      failed: e?.failed ?? 0,
      ...(kinds ? { failureKinds: kinds } : {}),
    });
  }
  const path = fingerprintPath(p.options);
  mkdirSync(dirname(path), { recursive: true });
  const env = p.envReads();
  writeFileAtomic(
    path,
    JSON.stringify({
      version: FINGERPRINT_VERSION,
      config: resolve(configFile),
      targets: [...o.targets].sort(),
      options: optionsHash(next.options),
      env,
      envHash: envReadsHash(env, process.env),
      ledger: [ws.ledger, stat(ws.ledger)],
      runsLog: ws.runsLog,
      files: { ...files, ...outputs },
      dirs,
      stages: records,
      // What the run's summary ended with (covered, failure rows, outstanding failures and the
      // retry command) and its exit code: a no-op says where the run stands, as the run did.
      report: runReport(summary),
      outstanding: outstandingKinds(summary.stages),
      exitCode: runExitCode(summary),
    }),
  );
}
