// Settings are data: a run of the bundled DAG through `cdp` with a non-default value of every
// setting (`--set`), then both exports. Every report and export that states a setting states the
// value the run used, as the stages recorded it in their rows; none prints a default. Table-driven:
// one row per setting, with the value set and where it must be stated. A judge's calibration (γ, β)
// is no stage param but the models file's (its judge spec): truthful-sentences.test.ts sets it there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';

interface SettingCase {
  /** What the issue calls it. */
  setting: string;
  /** The --set overrides. */
  set: string[];
  /** The stage and column that record it, and the value they must hold. */
  recorded: { sql: string; want: Record<string, unknown>[] };
  /** Where it is stated (report files under the store's reports/, or the export cards), and how. */
  stated: [Where, RegExp][];
  /** What a report would print from a default (must appear nowhere it is stated). */
  notDefault?: RegExp;
}

type Where = keyof typeof REPORTS | 'benchmark' | 'results';

/** The same statement in several files. */
const everywhere = (where: Where[], pattern: RegExp): [Where, RegExp][] => where.map((w) => [w, pattern]);

const REPORTS = {
  t1: 'tables/table1_main_results.md',
  t5: 'tables/table5_dtw_pcc_ci.md',
  t6: 'tables/table6_ot_pcc_ci.md',
  t7: 'tables/table7_lnds_pcs_ci.md',
  board: 'tables/leaderboard.md',
  card: 'scorecard.md',
  index: 'index.md',
};

const CASES: SettingCase[] = [
  {
    setting: 'OT λ, τa, τb (pathway_metrics)',
    set: ['pathway_metrics.lambda=0.5', 'pathway_metrics.tauA=0.7', 'pathway_metrics.tauB=2'],
    recorded: {
      sql: 'select distinct ot_lambda, ot_tau_a, ot_tau_b from pathway_metrics where error is null',
      want: [{ ot_lambda: 0.5, ot_tau_a: 0.7, ot_tau_b: 2 }],
    },
    stated: everywhere(['t6', 'card', 'index', 'results'], /OT-PCC here: λ = 0\.5, τa = 0\.7, τb = 2 \(/),
    notDefault: /λ = 0\.1|τa = τb = 1\b/,
  },
  {
    setting: 'outcome cut-off (outcome_scores)',
    set: ['outcome_scores.cutoff=3'],
    recorded: { sql: 'select distinct cutoff from outcome_scores', want: [{ cutoff: 3 }] },
    stated: everywhere(['t1', 'card', 'index', 'results'], /counts a judge score ≥ 3 \(of 1–5\)/),
    notDefault: /score ≥ 4/,
  },
  {
    setting: 'turn cap and its factors (dialogues_multi)',
    set: ['dialogues_multi.capFactor=3', 'dialogues_multi.capExtra=2'],
    recorded: {
      // Each dialogue's own cap is the rule's: ceil(3 × its reference length + 2).
      sql: `select distinct d.cap_factor, d.cap_extra, d.cap = ceil(3 * c.length + 2) as cap_ok
        from dialogues_multi d join cdps c using (cdp_id) where d.error is null`,
      want: [{ cap_factor: 3, cap_extra: 2, cap_ok: true }],
    },
    stated: everywhere(['t1', 't6', 'card', 'index', 'results'], /after ceil\(3 × length \+ 2\) doctor turns/),
    notDefault: /ceil\(2 × length \+ 4\)/,
  },
  {
    setting: 'judge runs (step_scores)',
    set: ['step_scores.runs=3'],
    recorded: { sql: 'select distinct runs from step_scores where error is null', want: [{ runs: 3 }] },
    stated: everywhere(['t5', 't6', 't7', 'card', 'index', 'results'], /3 judge runs per pathway \(every judge\)/),
    notDefault: /5 judge runs/,
  },
  {
    setting: 'failure policy and common cases (model_summary)',
    set: ['model_summary.failurePolicy=exclude', 'model_summary.commonCases=true'],
    recorded: { sql: 'select distinct policy from model_summary', want: [{ policy: 'exclude+common' }] },
    stated: [
      ...everywhere(
        ['t1', 't5', 't6', 't7', 'board'],
        /Failure policy exclude\+common: answer failures and missing cases are left out of the mean/,
      ),
      ...everywhere(['card', 'index', 'results'], /failure policy `exclude\+common`/),
    ],
    notDefault: /failure policy `worst`|Failure policy worst/,
  },
  {
    setting: 'resamples, seed and CI level (model_summary, the leaderboard)',
    set: ['model_summary.resamples=2000', 'model_summary.seed=7', 'model_summary.level=0.9'],
    recorded: { sql: 'select distinct resamples, seed, level from model_summary', want: [{ resamples: 2000, seed: 7, level: 0.9 }] },
    stated: [
      ...everywhere(['t1', 't5', 't6', 't7', 'card', 'index', 'results'], /90% case-bootstrap CI, 2,000 resamples, seed 7/),
      ['board', /mean in % \(90% bootstrap CI resampling cases, 2,000 resamples, seed 7\)/],
      ['board', /a 90% paired-bootstrap CI resampling cases \(2,000 resamples, seed 7\)/],
      ['t5', /^# Table 5: DTW-PCC \(%\) ↓ with 90% bootstrap CIs/],
    ],
    notDefault: /95%|10,000/,
  },
  {
    setting: 'test fraction and split seed (cdps)',
    set: ['cdps.testFraction=0.6', 'cdps.seed=11'],
    recorded: {
      sql: 'select distinct split_by, test_fraction, split_seed from cdps',
      want: [{ split_by: 'fraction', test_fraction: 0.6, split_seed: 11 }],
    },
    stated: everywhere(['index', 'benchmark', 'results'], /Test split: each guideline held out with probability 0\.6 \(split seed 11\)/),
    notDefault: /probability 0\.5|split seed 156/,
  },
];

/** The file a key names: a report under the store's reports/, or an export's dataset card. */
const fileOf = (store: string, exports: string, w: Where) =>
  w === 'results' || w === 'benchmark' ? join(exports, w, 'README.md') : join(store, 'reports', REPORTS[w]);

test('every setting set to a non-default value is stated, as used, by every report and export that states it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-settings-'));
  const store = join(dir, 'store');
  const exports = join(dir, 'exports');
  const env = { CDP_STORE: store, CDP_NO_FAST_PATH: '' };
  try {
    const sets = CASES.flatMap((c) => c.set.flatMap((s) => ['--set', s]));
    const run = await runCdp(['run', ...sets], env);
    assert.equal(run.code, 0, run.stderr);
    for (const kind of ['benchmark', 'results']) {
      const e = await runCdp(['export', kind, join(exports, kind)], env);
      assert.equal(e.code, 0, e.stderr);
    }
    const sql = async (q: string) => {
      const r = await runCdp(['sql', q, '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as Record<string, unknown>[];
    };
    for (const c of CASES) {
      // The stages used the value, and recorded it in their rows.
      assert.deepEqual(await sql(c.recorded.sql), c.recorded.want, `${c.setting}: recorded`);
      for (const [key, pattern] of c.stated) {
        const file = fileOf(store, exports, key);
        assert.ok(existsSync(file), `${c.setting}: ${file} was written`);
        const text = readFileSync(file, 'utf8');
        assert.match(text, pattern, `${c.setting}: ${key} (${file}) states the value used`);
        if (c.notDefault) assert.doesNotMatch(text, c.notDefault, `${c.setting}: ${key} (${file}) prints a value the run did not use`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
