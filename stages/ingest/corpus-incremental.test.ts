// Changes cost what they touch: adding one guideline to a corpus computes only that guideline's
// units in every row-mapped stage downstream (counted from the run's own figures and checked
// against the artifacts' rows), writes new segments for few rows beyond its own (segments cut at
// 2 rows here, so that a small corpus has many), and a no-op rerun afterwards runs nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, mkdirSync, writeFileSync, appendFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';

interface StageFigures {
  stage: string;
  status: string;
  rowsComputed: number;
  rowsReused: number;
  rowsFailed: number;
  partitions?: { computed: number; reused: number };
}

const cdp = (args: string[], env: NodeJS.ProcessEnv) => runCdp(args, env);

/** A small guideline on its own topic with a three-leaf tree quoting it. */
function guideline(dir: string, id: string, topic: string): void {
  const s = [
    `Adults with ${topic} and a fever above 38.5 degrees should be tested for the common cause of ${topic}.`,
    `A positive rapid test for ${topic} should be treated with the first-line drug for ten days.`,
    `A negative test for ${topic} needs symptomatic care only.`,
  ];
  writeFileSync(join(dir, 'guidelines', `${id}.md`), `# ${topic} in adults\n\n${s.join('\n\n')}\n`);
  const tree = {
    primary_clinical_focus: 'management',
    decision_tree: {
      index: 1,
      description: `Does the adult with ${topic} have a fever above 38.5 degrees?`,
      yes: {
        index: 2,
        description: `Is the rapid test for ${topic} positive?`,
        yes: { index: 3, leaf: true, conclusion: 'Treat with the first-line drug for ten days.' },
        no: { index: 4, leaf: true, conclusion: 'Give symptomatic care only.' },
      },
      no: { index: 5, leaf: true, conclusion: 'Give symptomatic care only.' },
    },
    node_guideline_mapping: { '1': [s[0]], '2': [s[1]], '3': [s[1]], '4': [s[2]], '5': [s[2]] },
  };
  writeFileSync(join(dir, 'trees', `${id}.json`), JSON.stringify(tree));
}

test(
  'adding one guideline computes only its units downstream; the rest is reused, and a no-op runs nothing',
  { timeout: 600_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdp-grow-'));
    mkdirSync(join(dir, 'guidelines'));
    mkdirSync(join(dir, 'trees'));
    const topics = ['sore throat', 'otitis', 'sinusitis'];
    topics.forEach((t, i) => guideline(dir, `g${i}`, t));
    // Every guideline is test, so the new one reaches every task and judge stage.
    writeFileSync(join(dir, 'guidelines.csv'), 'guideline_id,language,split\n' + topics.map((_, i) => `g${i},en,test\n`).join(''));
    // The store's own reports (<store>/reports), and the corpus given once: the store remembers it.
    const env = { CDP_STORE: mkdtempSync(join(tmpdir(), 'cdp-grow-store-')), CDP_SEGMENT_ROWS: '2' };
    type Ledger = { entries: Record<string, { segments: { hash: string; rows: number }[] }> };
    const ledger = () => JSON.parse(readFileSync(join(env.CDP_STORE, 'ledger.json'), 'utf8')) as Ledger;
    let corpusFlag = ['--corpus', dir];
    const run = async () => {
      const r = await cdp(['run', '--json', ...corpusFlag], env);
      corpusFlag = [];
      assert.equal(r.code, 0, r.stderr.slice(-2000));
      return Object.fromEntries((JSON.parse(r.stdout) as { stages: StageFigures[] }).stages.map((s) => [s.stage, s]));
    };
    const first = await run();
    const sql = async (q: string) => JSON.parse((await cdp(['sql', q, '--json'], env)).stdout) as Record<string, unknown>[];
    const countsBefore = await sql('select (select count(*) from cdps)::int as cdps, (select count(*) from step_scores)::int as scores');
    const before = ledger();

    guideline(dir, 'g3', 'bronchitis');
    appendFileSync(join(dir, 'guidelines.csv'), 'g3,en,test\n');
    const second = await run();

    // Row-mapped stages: each unit of the first run is reused, and only the new guideline's are computed.
    const perGuideline = ['guidelines', 'trees', 'tree_nodes'];
    const perCase = [
      'vignettes',
      'narratives',
      'qc',
      'qc_inspection',
      'predictions_single',
      'dialogues_multi',
      'agent_plans',
      'predicted_pathways',
      'simulated_preferences',
      'step_scores',
      'threshold_labels',
      'true_deviations',
      'outcome_scores',
      'pathway_metrics',
    ];
    for (const s of [...perGuideline, ...perCase]) {
      assert.equal(second[s].status, 'ran', s);
      assert.equal(second[s].rowsReused, first[s].rowsComputed, `${s}: every unit of the first run reused`);
    }
    for (const s of perGuideline) assert.equal(second[s].rowsComputed, 1, `${s}: one guideline computed`);
    // The new guideline's own rows, read from the artifacts, are exactly the units computed.
    const [g3] = await sql(`select
      (select count(*) from cdps where guideline_id = 'g3')::int as cdps,
      (select count(*) from predictions_single where cdp_id in (select cdp_id from cdps where guideline_id = 'g3'))::int as predictions,
      (select count(*) from step_scores where cdp_id in (select cdp_id from cdps where guideline_id = 'g3'))::int as scores,
      (select count(*) from cdps)::int as all_cdps, (select count(*) from step_scores)::int as all_scores`);
    assert.equal(g3.cdps, 3);
    assert.equal(g3.all_cdps, (countsBefore[0].cdps as number) + 3);
    assert.equal(second.vignettes.rowsComputed, 3);
    assert.equal(second.predictions_single.rowsComputed, g3.predictions);
    // One unit per new test case (both settings, every model), and per new case × simulated agent.
    assert.equal(second.predicted_pathways.rowsComputed, 3);
    assert.equal(second.agent_plans.rowsComputed, 3 * (first.agent_plans.rowsComputed / 9));
    assert.equal(second.step_scores.rowsComputed, g3.scores);
    assert.equal(g3.all_scores, (countsBefore[0].scores as number) + (g3.scores as number));

    // Rows written: those of the segments the second run added. The new guideline's rows, and the
    // few of the segment they were added to; never the stage's whole table again.
    const after = ledger();
    for (const s of perCase) {
      const old = new Set(before.entries[s].segments.map((x) => x.hash));
      const segs = after.entries[s].segments;
      const total = segs.reduce((n, x) => n + x.rows, 0);
      const written = segs.filter((x) => !old.has(x.hash)).reduce((n, x) => n + x.rows, 0);
      const [own] = await sql(`select count(*)::int as n from ${s} where cdp_id in (select cdp_id from cdps where guideline_id = 'g3')`);
      assert.ok(written >= (own.n as number), `${s}: its ${own.n as number} rows of the new guideline are written (${written} written)`);
      if (total) assert.ok(segs.length >= 3, `${s}: cut into ${segs.length} segments`);
      assert.ok(written <= total / 2, `${s}: ${written} of ${total} rows written`);
    }

    // The whole-table statistics, partitioned: every partition holds the new cases (every model
    // and judge evaluates them), so each is computed once, and each is counted.
    const partitions = { model_summary: 'setting × model', correlations: 'setting and the pool', preference_agreement: 'judge' };
    for (const s of Object.keys(partitions)) {
      const f = second[s].partitions!;
      assert.ok(f && f.computed > 0, `${s}: partitioned by ${partitions[s as keyof typeof partitions]}`);
      assert.deepEqual(f, { computed: first[s].partitions!.computed, reused: 0 }, `${s}: each partition has new rows`);
    }
    const [cells] = await sql(`select count(distinct (setting, model))::int as n from model_summary`);
    assert.equal(second.model_summary.partitions!.computed, cells.n, 'model_summary: one partition per setting × model');
    assert.equal(second.correlations.partitions!.computed, 3, "correlations: 'all', multi, single");

    const third = await run();
    assert.ok(
      Object.values(third).every((s) => s.status === 'reused' && s.rowsComputed === 0),
      'a no-op reruns nothing',
    );

    // Removing the guideline again: no unit is computed anywhere, and every partition is the first
    // run's again, so each comes from the memo.
    rmSync(join(dir, 'guidelines', 'g3.md'));
    rmSync(join(dir, 'trees', 'g3.json'));
    writeFileSync(join(dir, 'guidelines.csv'), 'guideline_id,language,split\n' + topics.map((_, i) => `g${i},en,test\n`).join(''));
    const fourth = await run();
    for (const s of [...perGuideline, ...perCase]) assert.equal(fourth[s].rowsComputed, 0, `${s}: nothing computed on removal`);
    for (const s of Object.keys(partitions)) {
      assert.deepEqual(fourth[s].partitions, { computed: 0, reused: first[s].partitions!.computed }, `${s}: every partition from the memo`);
    }
    assert.deepEqual(
      await sql('select (select count(*) from cdps)::int as cdps, (select count(*) from step_scores)::int as scores'),
      countsBefore,
    );
  },
);

test(
  'the same corpus at another absolute place, against the same store: no guideline ingested again, only run_facts and the reports that name the corpus rerun',
  { timeout: 600_000 },
  async () => {
    // Two corpora outside the project with the same bytes, as /data/corpusA and /mnt/corpusB.
    const first = join(mkdtempSync(join(tmpdir(), 'cdp-at-')), 'corpusA');
    mkdirSync(join(first, 'guidelines'), { recursive: true });
    mkdirSync(join(first, 'trees'));
    const topics = ['sore throat', 'otitis'];
    topics.forEach((t, i) => guideline(first, `g${i}`, t));
    writeFileSync(join(first, 'guidelines.csv'), 'guideline_id,language,split\n' + topics.map((_, i) => `g${i},en,test\n`).join(''));
    const moved = join(mkdtempSync(join(tmpdir(), 'cdp-moved-')), 'corpusB');
    cpSync(first, moved, { recursive: true });
    const env = { CDP_STORE: mkdtempSync(join(tmpdir(), 'cdp-moved-store-')) };
    const run = async (corpus: string) => {
      const r = await cdp(['run', '--json', '--corpus', corpus], env);
      assert.equal(r.code, 0, r.stderr.slice(-2000));
      return (JSON.parse(r.stdout) as { stages: StageFigures[] }).stages;
    };
    const before = await run(first);
    const guidelines = (stages: StageFigures[]) => stages.find((s) => s.stage === 'guidelines')!;
    assert.equal(guidelines(before).rowsComputed, 2);

    const after = await run(moved);
    assert.equal(after.length, before.length);
    // The files key the same: only the fact naming where the corpus was read, and the reports that print it, run again.
    const ran = after.filter((s) => s.status !== 'reused').map((s) => s.stage);
    assert.ok(ran.includes('run_facts'), ran.join(', '));
    assert.deepEqual(
      ran.filter((s) => s !== 'run_facts' && !s.startsWith('report_')),
      [],
      'nothing but run_facts and the reports',
    );
    assert.equal(guidelines(after).rowsComputed, 0);
    assert.equal(guidelines(after).rowsReused, 2);
    const [paths] = JSON.parse(
      (await cdp(['sql', "select string_agg(source_path, ',' order by 1) as p from guidelines", '--json'], env)).stdout,
    );
    assert.equal(paths.p, 'guidelines/g0.md,guidelines/g1.md', 'source_path is relative to the corpus');
    const [named] = JSON.parse((await cdp(['sql', "select name from run_facts where fact = 'corpus'", '--json'], env)).stdout);
    assert.equal(named.name, moved, 'the reports name the corpus where this run read it');
  },
);
