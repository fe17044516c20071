/**
 * After a successful `cdp run`, a fingerprint of everything the run's outcome depended on: the
 * configuration and every code file it and its stages import (by size and mtime), the package
 * lock, the source files and the directories their globs walk, the environment variables the
 * configuration read (their values hashed, never stored), the `--set` param overrides, the
 * ledger, each stage's artifact (NDJSON and Parquet) and the warehouse. When nothing of it changed, `cdp run` answers from the
 * fingerprint without loading the DAG (pipeline/cli/fast-noop.mjs): make's trick, applied to a
 * content-addressed runner.
 */
import { statSync, readdirSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import type { Project } from './load.ts';
import type { RunSummary } from '../exec/executor.ts';
import { readLedger } from '../store/ledger.ts';
import { iterRows, segmentPaths } from '../store/artifacts.ts';
import { CodeHasher } from '../hash/code-identity.ts';
import { StatCache } from '../hash/stat-cache.ts';
import { writeFileAtomic } from '../store/atomic.ts';
import { configInputs } from '../dag/config-inputs.ts';
import { outstandingKinds, runReport } from './run-report.ts';
import { runExitCode } from './exit-code.ts';

export const FINGERPRINT_VERSION = 1;

export function fingerprintPath(root: string, env: NodeJS.ProcessEnv): string {
  const scope = createHash('sha256')
    .update(env.CDP_STORE ?? '')
    .digest('hex')
    .slice(0, 12);
  return join(root, '.cdp', `noop-${scope}.json`);
}

export function envHash(keys: readonly string[], env: NodeJS.ProcessEnv): string {
  return createHash('sha256')
    .update(JSON.stringify(keys.map((k) => [k, env[k] ?? null])))
    .digest('hex');
}

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

export function writeNoopFingerprint(
  p: Project,
  configFile: string,
  summary: RunSummary,
  o: { targets: string[]; envKeys: string[] | null; startedAt: number; sets?: readonly string[] },
): void {
  if (!summary.ok || !o.envKeys) return;
  const { dag, ws } = p;
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
  const dirs: Record<string, number> = {};
  for (const src of Object.values(dag.config.sources)) {
    for (const pattern of src.patterns) {
      const base = resolve(dag.root, patternRoot(pattern));
      // A plain file's directory only (not the tree below it, which may hold the store itself).
      if (/[*?{]/.test(pattern)) walkDirs(base, dirs);
      else dirs[base] = statSync(base).mtimeMs;
    }
  }
  // Source files by their own stats; additions and removals show in their directories' mtimes.
  for (const name of dag.sources) {
    for (const r of iterRows(ws.store, name, ledger.entries[name].segments ?? [])) add(String(r.path));
  }
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
  const path = fingerprintPath(dag.root, process.env);
  mkdirSync(join(dag.root, '.cdp'), { recursive: true });
  writeFileAtomic(
    path,
    JSON.stringify({
      version: FINGERPRINT_VERSION,
      config: resolve(configFile),
      targets: [...o.targets].sort(),
      // The run's `--set` overrides, in order (a later one wins): another list is another run.
      sets: [...(o.sets ?? [])],
      envKeys: o.envKeys,
      envHash: envHash(o.envKeys, process.env),
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
