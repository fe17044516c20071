// Every sentence from facts, in the run where each used to be false: a researcher's own corpus (three
// guidelines, no trees), built by their builder model, one evaluated model, two judges and a patient, all on
// a local OpenAI-compatible server, as a smoke run (`--limit 5`) without the simulated agents. The
// builder's QC inspection objects to every case it inspects. Then both exports.
//
// Before: the index said "bundled sample with simulated agents" and "Test cases: <the test split>", the
// scorecard "no evaluated model (model_summary is empty)" and "matched by name (… paper-roster.ts …)",
// Table 5 promised a similarity judge, Table 2 "W once per group of three", Figure 4 and the deviation
// profile were linked as blank pictures, the results card said "prompts: none recorded", and the
// benchmark export carried the inspected-out cases with every qc_* column true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer, type ChatBody } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';
import type { ChatRequest } from '../../pipeline/llm/types.ts';
import { createCuratedBuilderHandler } from '../agents/curated-builder.ts';
import { offlineNarrativeWriter, offlineVignetteWriter } from '../agents/writers/offline-writers.ts';
import { plainAnswer } from '../models/testing/plain-model.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OBJECTION = 'the vignette names a finding the pathway does not';

/** Three of the sample's guidelines, without their trees; guidelines.csv pins two to the test split. */
function corpus(dir: string): string {
  const files = [
    ['en', 'who-2021-hypertension-pharmacological-treatment-retypeset', 'test'],
    ['en', 'casp-2021-chronic-postsurgical-pain-consensus', 'non-test'],
    ['zh', 'nhc-2020-insomnia', 'test'],
  ];
  for (const [lang, id] of files) {
    mkdirSync(join(dir, 'guidelines', lang!), { recursive: true });
    copyFileSync(join(repo, 'data/sample/guidelines', lang!, `${id}.pdf`), join(dir, 'guidelines', lang!, `${id}.pdf`));
  }
  writeFileSync(
    join(dir, 'guidelines.csv'),
    ['guideline_id,language,split', ...files.map(([l, id, s]) => `${id},${l},${s}`)].join('\n') + '\n',
  );
  return dir;
}

function answer(body: ChatBody) {
  const prompt = body.messages[0]!.content;
  const req = { model: body.model, messages: body.messages } as ChatRequest;
  if (prompt.includes('convert it into a decision tree represented as a JSON object')) return builder(req);
  if (prompt.includes('convert this clinical decision path into a single, coherent')) return offlineVignetteWriter(req);
  if (prompt.includes('produce a single JSON array of strings')) return offlineNarrativeWriter(req);
  if (prompt.includes('You are a medical expert reviewing a benchmark case'))
    return JSON.stringify({ consistent: false, problems: [OBJECTION] });
  return plainAnswer(body);
}
const builder = createCuratedBuilderHandler();

test('own corpus, own builder, real models, a smoke run: every generated sentence says what this run did', async () => {
  const server = await startFakeOpenAIServer({ answer });
  const dir = mkdtempSync(join(tmpdir(), 'cdp-truthful-'));
  try {
    const corpusDir = corpus(join(dir, 'corpus'));
    const store = join(dir, 'store');
    const modelsFile = join(dir, 'models.json');
    const model = (name: string, roles: string[]) => ({ name, baseURL: server.url, model: `org/${name}`, roles, contextWindow: 1_000_000 });
    writeFileSync(
      modelsFile,
      JSON.stringify({
        models: [
          model('builder-x', ['builder']),
          model('my-llm', ['evaluated']),
          // A calibration of its own: the reports state γ and β as its rows recorded them.
          { ...model('judge-a', ['judge']), judge: { gamma: 0.45, beta: 0.35 } },
          model('judge-b', ['judge']),
          model('patient-x', ['patient']),
        ],
      }),
    );
    // The store remembers the corpus and the models file given to its first run.
    const env = { CDP_STORE: store, CDP_NO_FAST_PATH: '' };
    const run = await runCdp(
      ['run', '--corpus', corpusDir, '--models', modelsFile, '--limit', '5', '--set', 'qc.inspectFraction=0.5'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    for (const kind of ['benchmark', 'results']) {
      const e = await runCdp(['export', kind, join(dir, kind), '--models', modelsFile], env);
      assert.equal(e.code, 0, e.stderr);
    }
    const sql = async (q: string) => {
      const r = await runCdp(['sql', q, '--json', '--models', modelsFile], env);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as Record<string, unknown>[];
    };
    const qc = Object.fromEntries((await sql('select measure, value from qc_summary')).map((r) => [r.measure, Number(r.value)]));
    const excluded = qc['test cases excluded from the task settings']!;
    assert.ok(excluded > 0, 'the inspection left test cases out');
    assert.ok(qc['test cases']! - excluded > 5, 'more test cases than the smoke run evaluates');
    assert.ok(((await sql('select count(*)::int as n from model_summary'))[0]!.n as number) > 0);
    const report = (f: string) => readFileSync(join(store, 'reports', f), 'utf8');

    // Who produced it: this corpus, this builder, these models (never "bundled sample with simulated agents").
    const idx = report('index.md');
    const producedBy = `Produced by: the corpus ${corpusDir} (3 guidelines); trees, vignettes and narratives by builder-x; evaluated: real models: my-llm.`;
    assert.match(idx, new RegExp(`^${producedBy.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'm'));
    assert.doesNotMatch(idx, /bundled sample|simulated agents/);
    assert.match(idx, /^- QC inspection: builder-x$/m);
    assert.match(idx, /^- Patient \(multi-turn\): patient-x$/m);
    assert.match(idx, /^- Judges: judge-a \[llm\], judge-b \[llm\]$/m);
    // This run's cases: the smoke run's 5, not the test split's count.
    assert.match(
      idx,
      new RegExp(
        `^- Test cases evaluated in this run: 5 of the ${qc['test cases']! - excluded} left after the exclusions \\(a smoke run`,
        'm',
      ),
    );
    assert.match(idx, new RegExp(`^- Test cases flagged by the LLM inspection: ${qc['test cases flagged by the LLM inspection']}$`, 'm'));
    assert.match(
      idx,
      new RegExp(
        `^- Test split: each guideline held out with probability ${String(440 / 2274).replace('.', '\\.')} \\(split seed 156\\); some guidelines pinned`,
        'm',
      ),
    );
    // No ground truth without the simulated agents: nothing drawn, the index says why, no file is there.
    for (const [title, file] of [
      ['Figure 4', 'figures/figure4_threshold_f1'],
      ['Deviation profile per model', 'figures/figure_deviation_profile'],
    ]) {
      assert.match(idx, new RegExp(`^- ${title}[^\\n]*: not written — no ground truth in this run`, 'm'));
      for (const ext of ['svg', 'png']) assert.equal(existsSync(join(store, 'reports', `${file}.${ext}`)), false, `${file}.${ext}`);
    }

    // The scorecard names the models that produced it and how they meet the paper (no `paper` field: not at all).
    const card = report('scorecard.md');
    assert.match(card, new RegExp(`^${producedBy.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'm'));
    assert.doesNotMatch(card, /model_summary is empty|matched by name|paper-roster/);
    assert.match(
      card,
      /No model or judge of this run names the paper model it stands for \(`"paper"` in the models file\), so no cell is compared\./,
    );

    // Tables 5–7 show the judges there are; Table 2's W groups are the run's two judges and three metrics.
    for (const t of ['table5_dtw_pcc_ci', 'table6_ot_pcc_ci', 'table7_lnds_pcs_ci']) {
      const md = report(`tables/${t}.md`);
      assert.match(md, /Judges: the run's LLM judges \(judge-a, judge-b\) and no similarity judge\./, t);
      assert.doesNotMatch(md, /one similarity judge/, t);
    }
    // The judges' calibration, as their pathway_metrics rows recorded it (judge-a's from the models file).
    assert.deepEqual(await sql('select distinct judge, gamma, beta from pathway_metrics where error is null order by judge'), [
      { judge: 'judge-a', gamma: 0.45, beta: 0.35 },
      { judge: 'judge-b', gamma: 0.7, beta: 0.2 },
    ]);
    for (const text of [report('tables/table6_ot_pcc_ci.md'), report('tables/table7_lnds_pcs_ci.md'), card, idx])
      assert.match(text, /judge-a: γ = 0\.45, β = 0\.35; judge-b: γ = 0\.7, β = 0\.2 \(γ not calibrated for this judge\)/);
    const t2 = report('tables/table2_correlations.md');
    assert.match(
      t2,
      /Kendall's W once per group of raters, on its first row: the 2 judges when a metric is fixed, the 3 metrics when a judge is fixed/,
    );
    assert.doesNotMatch(t2, /group of three/);

    // The results card lists the prompt templates the rows record, and who produced the run.
    const results = readFileSync(join(dir, 'results', 'README.md'), 'utf8');
    const prompts = [4, 5, 6, 7, 8, 9].map(
      (n) => /^- prompts: (.*) \(templates/m.exec(results)?.[1]?.match(new RegExp(`en/${n}-[a-z-]+\\.md`))?.[0],
    );
    assert.deepEqual(prompts, [
      'en/4-single-turn-inference.md',
      'en/5-single-turn-step-level-consistency-scoring.md',
      'en/6-multi-turn-inference.md',
      'en/7-multi-turn-patient-environment.md',
      'en/8-multi-turn-step-level-consistency-scoring.md',
      'en/9-outcome-accuracy-scoring.md',
    ]);
    assert.doesNotMatch(results, /none recorded/);
    assert.match(
      results,
      new RegExp(`^- produced by: the corpus ${corpusDir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(3 guidelines\\)`, 'm'),
    );

    // The benchmark export carries every verdict, and its card counts its own rows.
    const cases = readFileSync(join(dir, 'benchmark', 'cases.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const out = cases.filter((c) => c.excluded === true);
    assert.equal(out.length, excluded, 'the export marks exactly the cases the task settings left out');
    for (const c of out) {
      assert.equal(c.split, 'test');
      assert.equal(c.qc_inspection_consistent, false);
      assert.deepEqual(c.qc_inspection_problems, [OBJECTION]);
      assert.ok((c.exclusion_reasons as string[]).includes(`inspection: ${OBJECTION}`));
    }
    const inspected = cases.filter((c) => typeof c.qc_inspection_consistent === 'boolean').length;
    const flagged = cases.filter(
      (c) => c.qc_cdp_ok === false || c.qc_vignette_ok === false || c.qc_narrative_ok === false || (c.qc_problems as unknown[]).length > 0,
    ).length;
    const bench = readFileSync(join(dir, 'benchmark', 'README.md'), 'utf8');
    assert.match(
      bench,
      new RegExp(
        `^- QC: of the ${cases.length} cases, ${cases.length} checked by the deterministic checks: ${cases.length - flagged} passed, ${flagged} flagged .*; ` +
          `${inspected} inspected by an LLM \\(\`qc_inspector\`\\): ${inspected} found inconsistent .*; ${excluded} test cases excluded from the task settings`,
        'm',
      ),
    );
    assert.equal((await sql('select count(*)::int as n from excluded_cases where excluded'))[0]!.n, excluded);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
