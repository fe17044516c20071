import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportCommand } from './export-command.ts';
import { parseNoticeLicences } from './licences.ts';
import { fixtureRows } from '../../notebooks/testing/fixture-warehouse.ts';
import excludedCases from '../tasks/excluded-cases.stage.ts';
import { runTable } from '../evaluate/testing/stage-harness.ts';
import { collectSettings } from '../report/run-settings.ts';
import { collectFacts } from '../report/run-facts.ts';

type Row = Record<string, unknown>;

const NOTICE = [
  '# Sources',
  '',
  '| file | source | licence |',
  '|---|---|---|',
  '| `en/g1.pdf` | Body One, Guideline One | CC BY 4.0 |',
  '| `zh/g2.pdf` | Body Two | Public domain |',
  '',
].join('\n');

/**
 * A hand-made build: two guidelines (one failed), three CDPs (one failed), their vignettes,
 * narratives and QC: the test case g1-1 passes every check but the LLM inspection finds it
 * inconsistent (so the task settings leave it out); the non-test case g2-1 fails a check.
 */
async function benchmarkTables(): Promise<Record<string, Row[]>> {
  const step = (i: number) => ({ node_index: i, condition: `condition ${i}`, decision_outcome: 'yes', evidence: [`quote ${i}`] });
  return {
    guidelines: [
      {
        guideline_id: 'g1',
        language: 'en',
        title: 'Guideline One',
        source_path: 'data/sample/guidelines/en/g1.pdf',
        sha256: 'a1',
        pages: 3,
        markdown: '# One\n\nText.',
        error: null,
      },
      {
        guideline_id: 'g2',
        language: 'zh',
        title: '指南二',
        source_path: 'data/sample/guidelines/zh/g2.pdf',
        sha256: 'b2',
        pages: 1,
        markdown: '# 二',
        error: null,
      },
      {
        guideline_id: 'g3',
        language: 'en',
        title: null,
        source_path: 'data/sample/guidelines/en/g3.pdf',
        sha256: 'c3',
        pages: null,
        markdown: null,
        error: 'no text layer',
      },
    ],
    cdps: [
      {
        cdp_id: 'g1-1',
        guideline_id: 'g1',
        language: 'en',
        focus: 'Diagnosis',
        split: 'test',
        length: 2,
        steps: [step(0), step(1)],
        conclusion: 'Treat.',
        conclusion_evidence: ['q'],
        leaf_index: 3,
        reference_questions: ['Q0?', 'Q1?'],
        error: null,
      },
      {
        cdp_id: 'g2-1',
        guideline_id: 'g2',
        language: 'zh',
        focus: 'Treatment',
        split: 'train',
        length: 1,
        steps: [step(0)],
        conclusion: '治疗。',
        conclusion_evidence: [],
        leaf_index: 1,
        reference_questions: ['问题？'],
        error: null,
      },
      {
        cdp_id: 'g2-2',
        guideline_id: 'g2',
        language: 'zh',
        focus: null,
        split: null,
        length: null,
        steps: null,
        conclusion: null,
        conclusion_evidence: null,
        leaf_index: null,
        reference_questions: null,
        error: 'tree invalid',
      },
    ],
    vignettes: [
      { cdp_id: 'g1-1', vignette: 'A 40-year-old…', generator: 'builder-x', template: 'case-vignette-synthesis@abc', error: null },
      { cdp_id: 'g2-1', vignette: '一位患者…', generator: 'builder-x', template: 'case-vignette-synthesis@abc', error: null },
    ],
    narratives: [
      {
        cdp_id: 'g1-1',
        steps: ['I have a fever.', 'I cough.'],
        generator: 'builder-x',
        template: 'reasoning-narrative-conversion@def',
        error: null,
      },
      { cdp_id: 'g2-1', steps: ['我失眠。'], generator: 'builder-x', template: 'reasoning-narrative-conversion@def', error: null },
    ],
    qc: [
      { cdp_id: 'g1-1', guideline_id: 'g1', cdp_ok: true, vignette_ok: true, narrative_ok: true, problems: [], error: null },
      {
        cdp_id: 'g2-1',
        guideline_id: 'g2',
        cdp_ok: true,
        vignette_ok: false,
        narrative_ok: true,
        problems: [{ kind: 'preamble', scope: 'vignette', step: null, message: 'starts with "Here is"' }],
        error: null,
      },
    ],
    trees: [{ guideline_id: 'g1', builder: 'builder-x', valid: true, template: 'en/1-reasoning-tree-extraction.md' }],
    qc_inspection: [
      {
        cdp_id: 'g1-1',
        inspector: 'builder-x',
        consistent: false,
        problems: ['the vignette states the fever the CDP rules out'],
        prompt: 'qc-inspection@1',
        error: null,
      },
    ],
  };
}

/** The build's tables with the stages' own record of the exclusions and settings, as a run writes them. */
async function builtTables(): Promise<Record<string, Row[]>> {
  const t = await benchmarkTables();
  const excluded_cases = await runTable(
    excludedCases,
    { cdps: t.cdps!, qc: t.qc!, qc_inspection: t.qc_inspection!, vignettes: t.vignettes!, narratives: t.narratives! },
    {},
  );
  const run_settings = collectSettings({ cdps: [{ split_by: 'fraction', test_fraction: 0.25, split_seed: 7 }] });
  return { ...t, excluded_cases, run_settings };
}

function resultTables(): Record<string, Row[]> {
  const t = fixtureRows();
  const single = t.predicted_pathways!.filter((r) => r.setting === 'single');
  return {
    ...t,
    excluded_cases: [{ cdp_id: 'cdp-x', guideline_id: 'g9', flagged_by: ['checks'], reasons: ['preamble'], excluded: true }],
    run_facts: collectFacts(
      { predicted_pathways: t.predicted_pathways, predictions_single: t.predictions_single, step_scores: t.step_scores },
      { dir: '/corpora/mine', bundled: false },
    ),
    predictions_single: single.map((r) => ({
      model: r.model,
      cdp_id: r.cdp_id,
      guideline_id: r.guideline_id,
      steps: r.candidate,
      outcome: r.candidate_outcome,
      template: 'en/4-single-turn-inference.md',
      error: null,
    })),
    outcome_scores: single.map((r) => ({
      setting: r.setting,
      model: r.model,
      cdp_id: r.cdp_id,
      judge: 'judge-llm',
      score: 4,
      correct: true,
      cutoff: 3,
      template: 'en/9-outcome-accuracy-scoring.md',
      error: null,
    })),
  };
}

async function warehouse(path: string, dir: string, tables: Record<string, Row[]>): Promise<void> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(path);
  const con = await db.connect();
  try {
    for (const [name, rows] of Object.entries(tables)) {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(rows));
      await con.run(`create table ${name} as select * from read_json('${file}', format = 'array', sample_size = -1)`);
    }
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

/** python3's json module: a reader that is not this project's code. */
function pythonJsonl(file: string): { count: number; rows: Row[] } {
  const script =
    'import json,sys\nrows=[json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]\nprint(json.dumps({"count": len(rows), "rows": rows}))';
  return JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8' })) as { count: number; rows: Row[] };
}

/** Parquet read back by DuckDB itself: no independent Parquet reader is installed (no pyarrow, no DuckDB CLI). */
async function parquetRows(file: string): Promise<Row[]> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    return (await con.runAndReadAll(`select * from read_parquet('${file}')`)).getRowObjectsJson() as Row[];
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

test('parseNoticeLicences reads the file and licence columns of the notice table', () => {
  assert.deepEqual(
    [...parseNoticeLicences(NOTICE)],
    [
      ['en/g1.pdf', 'CC BY 4.0'],
      ['zh/g2.pdf', 'Public domain'],
    ],
  );
  const real = parseNoticeLicences(readFileSync(new URL('../../data/sample/NOTICE.md', import.meta.url), 'utf8'));
  assert.equal(real.size, 6);
  assert.equal(real.get('guidelines/en/cdc-2022-opioid-prescribing.pdf')?.startsWith('Public domain'), true);
});

test('export benchmark → python json and Parquet give the same counts and values; the card states counts, builders, QC, licences', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-export-'));
  try {
    mkdirSync(join(root, 'data/sample/guidelines'), { recursive: true });
    writeFileSync(join(root, 'data/sample/guidelines/NOTICE.md'), NOTICE);
    const store = join(root, 'store');
    mkdirSync(store);
    await warehouse(join(root, 'w.duckdb'), store, await builtTables());
    const out = join(root, 'export');
    const r = await exportCommand('benchmark', out, { root, warehouse: join(root, 'w.duckdb'), store });
    // Failed guidelines and CDPs are not part of the benchmark.
    assert.deepEqual(r.counts, { guidelines: 2, cases: 2 });
    const g = pythonJsonl(join(out, 'guidelines.jsonl'));
    assert.equal(g.count, 2);
    assert.deepEqual(
      g.rows.map((x) => [x.guideline_id, x.title, x.licence, x.markdown]),
      [
        ['g1', 'Guideline One', 'CC BY 4.0', '# One\n\nText.'],
        ['g2', '指南二', 'Public domain', '# 二'],
      ],
    );
    const c = pythonJsonl(join(out, 'cases.jsonl'));
    assert.equal(c.count, 2);
    const g21 = c.rows.find((x) => x.cdp_id === 'g2-1')!;
    assert.deepEqual(
      [g21.split, g21.vignette, g21.narratives, g21.reference_questions, g21.qc_vignette_ok, g21.excluded],
      ['train', '一位患者…', ['我失眠。'], ['问题？'], false, false],
    );
    // Every verdict rides along: the case the inspection found inconsistent passed every check, and was left out.
    const g11 = c.rows.find((x) => x.cdp_id === 'g1-1')!;
    assert.deepEqual(
      [g11.qc_cdp_ok, g11.qc_vignette_ok, g11.qc_narrative_ok, g11.qc_inspector, g11.qc_inspection_consistent, g11.qc_inspection_problems],
      [true, true, true, 'builder-x', false, ['the vignette states the fever the CDP rules out']],
    );
    assert.deepEqual([g11.excluded, g11.exclusion_reasons], [true, ['inspection: the vignette states the fever the CDP rules out']]);
    assert.deepEqual(
      (c.rows[0]!.reference_steps as Row[]).map((s) => s.evidence),
      [['quote 0'], ['quote 1']],
    );
    const pq = await parquetRows(join(out, 'cases.parquet'));
    assert.deepEqual(
      pq.map((x) => [x.cdp_id, x.vignette, x.qc_vignette_ok]),
      c.rows.map((x) => [x.cdp_id, x.vignette, x.qc_vignette_ok]),
    );
    assert.equal((await parquetRows(join(out, 'guidelines.parquet'))).length, 2);
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    assert.match(card, /^\| guidelines \| 2 \|/m);
    assert.match(card, /^\| cases \| 2 \|/m);
    assert.match(card, /^- vignette writer: `builder-x`$/m);
    assert.match(card, /`case-vignette-synthesis@abc`/);
    // The card's counts are the rows': 1 flagged by a check (g2-1), 1 by the inspection (g1-1), 1 excluded.
    assert.match(
      card,
      /^- QC: of the 2 cases, 2 checked by the deterministic checks: 1 passed, 1 flagged \(.*\); 1 inspected by an LLM \(`qc_inspector`\): 1 found inconsistent \(`qc_inspection_problems`\); 1 test case excluded from the task settings \(`excluded`, `exclusion_reasons`\)\.$/m,
    );
    assert.equal(c.rows.filter((x) => x.excluded === true).length, 1);
    assert.match(
      card,
      /^- prompts: `case-vignette-synthesis@abc`, `en\/1-reasoning-tree-extraction\.md`, `qc-inspection@1`, `reasoning-narrative-conversion@def` /m,
    );
    assert.match(card, /^- Test split: each guideline held out with probability 0\.25 \(split seed 7\)\.$/m);
    assert.match(card, /^\| g1 \| data\/sample\/guidelines\/en\/g1\.pdf \| CC BY 4\.0 \|$/m);
    assert.match(card, /^\| reference_steps \| STRUCT\(/m);
    assert.ok(existsSync(join(out, 'notices/data/sample/guidelines/NOTICE.md')), 'the notice travels with the data');
    // Re-exporting into an export is allowed; into a folder holding something else is not.
    await exportCommand('benchmark', out, { root, warehouse: join(root, 'w.duckdb'), store });
    mkdirSync(join(root, 'other'));
    writeFileSync(join(root, 'other/keep.txt'), 'x');
    await assert.rejects(
      exportCommand('benchmark', join(root, 'other'), { root, warehouse: join(root, 'w.duckdb'), store }),
      /is not empty and holds no earlier export/,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('export results: every results table with the same rows in JSONL and Parquet, failures kept; a missing view says to run', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-export-'));
  try {
    const store = join(root, 'store');
    mkdirSync(store);
    const plain = resultTables();
    const tables: Record<string, Row[]> = { ...plain, run_settings: collectSettings(plain) };
    await warehouse(join(root, 'w.duckdb'), store, tables);
    const out = join(root, 'results');
    const r = await exportCommand('results', out, { root, warehouse: join(root, 'w.duckdb'), store });
    for (const name of [
      'predictions_single',
      'dialogues_multi',
      'predicted_pathways',
      'step_scores',
      'outcome_scores',
      'pathway_metrics',
      'model_summary',
      'excluded_cases',
      'run_settings',
      'run_facts',
    ]) {
      const j = pythonJsonl(join(out, `${name}.jsonl`));
      assert.equal(j.count, tables[name]!.length, name);
      assert.equal(r.counts[name], tables[name]!.length, name);
      assert.equal((await parquetRows(join(out, `${name}.parquet`))).length, tables[name]!.length, name);
    }
    const pm = pythonJsonl(join(out, 'pathway_metrics.jsonl')).rows;
    assert.equal(pm.filter((x) => x.error === 'upstream step_scores failed').length, 1, 'the failed judging is exported with its error');
    assert.deepEqual([...new Set(pm.filter((x) => x.error == null).map((x) => `${x.model}:${x.dtw_pcc}`))].sort(), [
      'gpt-test:0.5',
      'simulated-oracle:0.1',
    ]);
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    assert.match(card, /models evaluated: `gpt-test`, `simulated-oracle`/);
    // The prompts the rows record, never "none recorded"; who produced it and the settings, from their rows.
    assert.match(card, /^- prompts: `en\/4-single-turn-inference\.md`, `en\/9-outcome-accuracy-scoring\.md` \(templates/m);
    assert.doesNotMatch(card, /none recorded/);
    assert.match(
      card,
      /^- produced by: the corpus \/corpora\/mine \(0 guidelines\); .*evaluated: real models: gpt-test; simulated reference agents: simulated-oracle$/m,
    );
    assert.match(card, /^- Outcome accuracy counts a judge score ≥ 3 \(of 1–5\) as correct/m);
    assert.match(card, /^- Means: 95% case-bootstrap CI, 10,000 resamples, seed 42 /m);
    const partial = join(root, 'partial.duckdb');
    await warehouse(partial, store, { model_summary: tables.model_summary! });
    await assert.rejects(
      exportCommand('results', join(root, 'r2'), { root, warehouse: partial, store }),
      /table predictions_single could not be read from the warehouse .*run `cdp run`/,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
