// The bundled sample, offline, through `cdp run` in a fresh process: the offline numbers must
// carry information. The oracle, whose steps are the reference reasoning itself, scores the
// lowest pathway cost in both settings under every simulated judge (0 under DTW), and every
// perturbation agent scores above it, the mixed one (all four deviations and wrong outcomes)
// above every single-kind one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cdpBin = join(repo, 'bin', 'cdp.mjs');
const ORACLE = 'simulated-oracle';
const SINGLE_KIND = ['simulated-omission-0.3', 'simulated-redundancy-0.3', 'simulated-reversal-0.3', 'simulated-skipping-0.3'];
const MIXED = 'simulated-mixed-0.15-wrong-0.2';

interface Cell {
  setting: string;
  judge: string;
  metric: string;
  model: string;
  mean: number;
}

test('on the sample the oracle has the lowest PCC in both settings and each perturbation ranks above it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-sample-'));
  try {
    // Offline whatever the caller's environment says: no models file, no server.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CDP_STORE: join(dir, 'store'),
      CDP_WAREHOUSE: join(dir, 'warehouse.duckdb'),
      FORCE_COLOR: '0',
    };
    for (const k of Object.keys(env)) if (/^CDP_(MODELS|LLM_|EMBED_|LIMIT|SIMULATED)/.test(k)) delete env[k];
    const cdp = (...args: string[]) =>
      spawnSync(process.execPath, [cdpBin, ...args], { cwd: repo, env, encoding: 'utf8', maxBuffer: 64 << 20 });
    const run = cdp('run', 'model_summary');
    assert.equal(run.status, 0, run.stderr.slice(-2000));
    const q = cdp(
      'sql',
      '--json',
      "select setting, judge, metric, model, mean from model_summary where metric in ('dtw_pcc', 'ot_pcc', 'acc')",
    );
    assert.equal(q.status, 0, q.stderr);
    const cells = JSON.parse(q.stdout) as Cell[];
    const at = (setting: string, judge: string, metric: string, model: string) => {
      const c = cells.find((r) => r.setting === setting && r.judge === judge && r.metric === metric && r.model === model);
      assert.ok(c, `no ${metric} for ${model} (${setting}, ${judge})`);
      return c.mean;
    };
    const judges = [...new Set(cells.map((c) => c.judge))].sort();
    assert.deepEqual(judges, ['simulated-char-ngram', 'simulated-tfidf', 'simulated-token-f1']);
    for (const setting of ['single', 'multi']) {
      for (const judge of judges) {
        for (const metric of ['dtw_pcc', 'ot_pcc']) {
          const oracle = at(setting, judge, metric, ORACLE);
          const others = [...new Set(cells.map((c) => c.model))].filter((m) => m !== ORACLE);
          for (const m of others)
            assert.ok(
              at(setting, judge, metric, m) > oracle,
              `${setting} ${judge} ${metric}: ${m} ${at(setting, judge, metric, m)} ≤ oracle ${oracle}`,
            );
        }
      }
      // Under the default judge: the oracle's DTW cost is 0, a 0.3 rate of any deviation costs
      // at least 5 points, and the mixed agent costs more than any single kind.
      const pcc = (m: string) => at(setting, 'simulated-token-f1', 'dtw_pcc', m);
      assert.equal(pcc(ORACLE), 0);
      for (const m of SINGLE_KIND) assert.ok(pcc(m) >= 0.05 && pcc(m) < pcc(MIXED), `${setting}: ${m} ${pcc(m)} vs mixed ${pcc(MIXED)}`);
      // Only the mixed agent draws wrong outcomes.
      assert.equal(at(setting, 'simulated-token-f1', 'acc', ORACLE), 1);
      assert.ok(at(setting, 'simulated-token-f1', 'acc', MIXED) < 1);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
