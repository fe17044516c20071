// One worker and two give the same bytes: the whole DAG run by `cdp run` in fresh processes, once
// with --workers 1 (everything on the main thread) and once with --workers 2 and no threshold (the
// pure stages' units and the simulated models' answers on worker threads), on the bundled sample
// and on a small synthetic corpus. Every artifact's segments, every report file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeScaleCorpus } from '../bench/scale-corpus.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cdpBin = join(repo, 'bin', 'cdp.mjs');

interface Ran {
  store: string;
  threads: { workers: number; started: number; inline: number; threaded: number };
}

function cdpRun(dir: string, args: string[]): Promise<Ran> {
  const store = join(dir, 'store');
  const env: NodeJS.ProcessEnv = { ...process.env, CDP_STORE: store, CDP_WAREHOUSE: join(dir, 'warehouse.duckdb'), FORCE_COLOR: '0' };
  for (const k of Object.keys(env)) if (/^CDP_(MODELS|LLM_|EMBED_|LIMIT|SIMULATED|CORPUS|REPORTS)/.test(k)) delete env[k];
  return new Promise((res, rej) => {
    const c = spawn(process.execPath, [cdpBin, 'run', '--json', ...args], { cwd: repo, env });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    c.on('error', rej);
    c.on('close', (code) => {
      if (code !== 0) return rej(new Error(`cdp run ${args.join(' ')} exited ${code}:\n${err}`));
      res({ store, threads: (JSON.parse(out) as { threads: Ran['threads'] }).threads });
    });
  });
}

/** Every file under `dir`, relative, with its bytes; a report stage's rows name files under the store, made relative here. */
function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** Each stage's rows, segment by segment as the ledger lists them, with the store's path replaced by a placeholder. */
function artifacts(store: string): Map<string, string> {
  const ledger = JSON.parse(readFileSync(join(store, 'ledger.json'), 'utf8')) as {
    entries: Record<string, { segments?: { hash: string }[] }>;
  };
  const out = new Map<string, string>();
  const storeRel = relative(repo, store);
  for (const [stage, e] of Object.entries(ledger.entries)) {
    const text = (e.segments ?? []).map((s) => readFileSync(join(store, 'artifacts', stage, `${s.hash}.ndjson`), 'utf8')).join('');
    out.set(stage, text.split(storeRel).join('<store>').split(store).join('<store>'));
  }
  return out;
}

async function assertSameBytes(args: string[], what: string): Promise<void> {
  const one = mkdtempSync(join(tmpdir(), 'cdp-workers1-'));
  const two = mkdtempSync(join(tmpdir(), 'cdp-workers2-'));
  try {
    const [a, b] = await Promise.all([
      cdpRun(one, [...args, '--workers', '1']),
      cdpRun(two, [...args, '--workers', '2', '--workers-threshold', '0']),
    ]);
    assert.equal(a.threads.started, 0, 'one worker: no thread started');
    assert.equal(a.threads.threaded, 0);
    assert.equal(b.threads.started >= 2, true, `two workers started (${JSON.stringify(b.threads)})`);
    assert.ok(b.threads.threaded > 1000, `most work went to the workers (${JSON.stringify(b.threads)})`);
    const [ra, rb] = [artifacts(a.store), artifacts(b.store)];
    assert.deepEqual([...rb.keys()].sort(), [...ra.keys()].sort());
    for (const [stage, rows] of ra) assert.ok(rows === rb.get(stage), `${what}: stage ${stage} differs between 1 and 2 workers`);
    const [fa, fb] = [files(join(a.store, 'reports')), files(join(b.store, 'reports'))];
    assert.ok(fa.size > 5, `${what}: reports were written (${fa.size})`);
    assert.deepEqual([...fb.keys()].sort(), [...fa.keys()].sort());
    for (const [f, bytes] of fa) assert.ok(bytes.equals(fb.get(f)!), `${what}: report ${f} differs between 1 and 2 workers`);
  } finally {
    rmSync(one, { recursive: true, force: true });
    rmSync(two, { recursive: true, force: true });
  }
}

test('the bundled sample: one worker and two give byte-identical artifacts and reports', async () => {
  await assertSameBytes([], 'sample');
});

test('a small synthetic corpus: one worker and two give byte-identical artifacts and reports', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-threads-corpus-'));
  try {
    const corpus = writeScaleCorpus(dir, 0.004);
    assert.ok(corpus.cdps > 50, `the corpus has CDPs to evaluate (${corpus.cdps})`);
    await assertSameBytes(['--corpus', corpus.dir], 'synthetic corpus');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
