// The no-op fast path of `cdp run`, in plain JavaScript so that it runs before the TypeScript
// loader is even registered. It answers only when the fingerprint written after the last
// successful run (pipeline/cli/noop-fingerprint.ts) still matches the options (resolved by
// invocation.mjs, exactly as the full CLI resolves them) and every file, directory and
// environment variable it lists; on any doubt it returns false and the full runner decides.
import { statSync, readFileSync, openSync, fstatSync, readSync, writeSync, ftruncateSync, closeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { envReadsHash, fingerprintPath, optionsHash, parseArgv, resolveInvocation } from './invocation.mjs';

function sameStat(path, expected) {
  let s;
  try {
    s = statSync(path);
  } catch {
    return expected === null;
  }
  return expected !== null && s.size === expected[0] && s.mtimeMs === expected[1];
}

/**
 * Appends whole lines to the run log, or nothing: a failed write (a full disk) is cut off again
 * and reported as false, and so is a log whose last line is torn. The full runner then decides,
 * and says what is wrong (pipeline/store/disk-full.ts; its test seam is honoured here too).
 */
function appendWhole(file, text) {
  const data = Buffer.from(text, 'utf8');
  let fd;
  try {
    fd = openSync(file, 'a+');
  } catch {
    return false;
  }
  let size = 0;
  try {
    size = fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) return false;
    }
    const fits = Math.min(data.length, globalThis[Symbol.for('cdp.writeFault')]?.(file, data.length) ?? data.length);
    for (let done = 0; done < fits;) done += writeSync(fd, data, done, fits - done);
    if (fits < data.length) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return true;
  } catch {
    try {
      ftruncateSync(fd, size);
    } catch {
      // Nothing more can be done here; the full runner reports the disk.
    }
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * Handles `cdp [options] run [--json] [stage…]` when nothing changed, the options (any of
 * invocation.mjs's, in any order) included; false when the full runner must decide.
 */
export function tryFastNoop(argv, cwd = process.cwd(), env = process.env) {
  if (env.CDP_NO_FAST_PATH) return false;
  const parsed = parseArgv(argv);
  if (!parsed || parsed.rest[0] !== 'run') return false;
  const rest = parsed.rest.slice(1);
  const json = rest.includes('--json');
  const targets = rest.filter((a) => a !== '--json');
  if (targets.some((a) => a.startsWith('-'))) return false;
  let inv;
  try {
    inv = resolveInvocation(parsed.flags, env, cwd);
  } catch {
    return false;
  }
  // A problem to report or a remembered corpus replaced: the full CLI says so.
  if (inv.problems.length || inv.notices.length) return false;
  let fp;
  try {
    fp = JSON.parse(readFileSync(fingerprintPath(inv.options), 'utf8'));
  } catch {
    return false;
  }
  if (fp.version !== 2 || fp.config !== inv.options.config) return false;
  if (JSON.stringify([...targets].sort()) !== JSON.stringify(fp.targets)) return false;
  // Every option's value as the last run had it: another --limit, --set or corpus is another run.
  if (optionsHash(inv.options) !== fp.options) return false;
  if (envReadsHash(fp.env, env) !== fp.envHash) return false;
  // Inputs and outputs alike: both files of every artifact and the warehouse are among them, so a
  // changed Parquet file or a deleted warehouse sends the run to the full runner, which rebuilds it.
  for (const [path, st] of Object.entries(fp.files)) if (!sameStat(path, st)) return false;
  for (const [dir, mtime] of Object.entries(fp.dirs)) {
    let m;
    try {
      m = statSync(dir).mtimeMs;
    } catch {
      m = -1;
    }
    if (m !== mtime) return false;
  }
  if (!sameStat(fp.ledger[0], fp.ledger[1])) return false;

  const now = new Date().toISOString();
  const runId = now.replace(/[-:.TZ]/g, '') + '-' + randomBytes(3).toString('hex');
  const stages = fp.stages.map((s) => ({
    stage: s.stage,
    status: 'reused',
    rowsComputed: 0,
    rowsReused: s.rows,
    rowsFailed: s.failed,
    ...(s.failureKinds ? { failureKinds: s.failureKinds } : {}),
    llmCalls: 0,
    llmCached: 0,
    counters: {},
    seconds: 0,
  }));
  const records = fp.stages.map((s) =>
    JSON.stringify({
      run_id: runId,
      stage: s.stage,
      status: 'reused',
      key: s.key,
      inputs: {},
      params: null,
      started_at: now,
      ended_at: now,
      seconds: 0,
      rows_computed: 0,
      rows_reused: s.rows,
      rows_failed: s.failed,
      llm_calls: 0,
      llm_cached: 0,
      counters: {},
      tokens_in: 0,
      tokens_out: 0,
      error: null,
    }),
  );
  if (!appendWhole(fp.runsLog, records.join('\n') + '\n')) return false;
  // The last run's exit code and the end of its summary: the failures it left are still there.
  const exitCode = fp.exitCode ?? 0;
  if (json) process.stdout.write(JSON.stringify({ stages, ok: true, outstanding: fp.outstanding, exitCode }) + '\n');
  else process.stderr.write(`ok: ${stages.length} reused (nothing changed since the last run)\n${fp.report ?? ''}`);
  process.exitCode = exitCode;
  return true;
}
