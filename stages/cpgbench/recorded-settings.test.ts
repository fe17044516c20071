// The settings a run used are read from its rows wherever they are stated: a run of the offline
// sample with `--set cpg_rates.seed=7` (and fewer resamples) and `--set cpg_documents.maxTokens=60`
// says seed 7 and a 60-token cut in its rows, its reports and its export cards, never the defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import { cpgProject, REPO } from './testing/cpgbench-project.ts';
import { cpgExportCommand } from './export/cpg-export-command.ts';

// The document cut's reference: o200k tokens counted here, apart from the stage's firstTokens.
const encoder = new Tiktoken(createRequire(import.meta.url)('js-tiktoken/ranks/o200k_base') as TiktokenBPE);

test('--set cpg_rates.seed=7 and --set cpg_documents.maxTokens=60: the rows record both, and every report and card that states them says so', async () => {
  const p = cpgProject();
  try {
    const sets = ['cpg_rates.seed=7', 'cpg_rates.resamples=500', 'cpg_documents.maxTokens=60'];
    const run = await p.run({ sets });
    assert.equal(run.ok, true, JSON.stringify(run.stages.filter((s) => s.error)));

    const rates = p.rows('cpg_rates');
    assert.ok(rates.length > 0);
    assert.deepEqual([...new Set(rates.map((r) => JSON.stringify([r.resamples, r.seed, r.level])))], ['[500,7,0.95]']);
    const table = (name: string) => readFileSync(join(p.reports, 'tables', `${name}.md`), 'utf8');
    for (const name of ['cpgbench_table1_overall', 'cpgbench_table3_safety', 'cpgbench_rates_by_region'])
      assert.match(table(name), /CIs: 95% percentile bootstrap, 500 resamples, seed 7, /, name);
    assert.match(table('cpgbench_leaderboard'), /with a 95% paired-bootstrap CI \(500 resamples, seed 7, the rates' bootstrap\)/);

    // Every sample document is longer than 60 tokens: each row says where it was cut.
    const markdown = new Map(p.rows('guidelines').map((g) => [g.guideline_id, String(g.markdown)]));
    const docs = p.rows('cpg_documents');
    assert.equal(docs.length, 7);
    for (const d of docs) {
      const ids = encoder.encode(markdown.get(d.guideline_id)!);
      assert.ok(ids.length > 60, `${String(d.guideline_id)} is longer than the cut`);
      assert.deepEqual(
        [d.max_tokens, d.cut, d.tokens, d.kept_tokens, d.kept_chars],
        [60, true, ids.length, 60, encoder.decode(ids.slice(0, 60)).length],
        String(d.guideline_id),
      );
    }
    assert.match(table('cpgbench_construction'), /\| cut documents \| 7 \| longer than 60 tokens, cut there \|/);
    // The sample ships its recommendations: none was extracted from a cut document.
    assert.ok(p.rows('cpg_recommendations').every((r) => r.max_tokens === null && r.document_cut === null));

    const target = { root: REPO, warehouse: join(p.dir, 'warehouse.duckdb'), store: join(p.dir, 'store') };
    await cpgExportCommand('results', join(p.dir, 'results'), target);
    const results = readFileSync(join(p.dir, 'results', 'README.md'), 'utf8');
    assert.match(results, /^- Rates: .* at level 95% \(\d+ rate rows\), resamples 500 \(\d+ rate rows\), seed 7 \(\d+ rate rows\)\.$/m);
    await cpgExportCommand('benchmark', join(p.dir, 'benchmark'), target);
    const benchmark = readFileSync(join(p.dir, 'benchmark', 'README.md'), 'utf8');
    assert.match(benchmark, /Document cut \(`max_tokens`\): 60 \(7 document rows\) tokens; 7 documents cut/);
    assert.match(benchmark, /Extraction cut \(`extraction_max_tokens`\): none applied \(10 recommendations shipped/);
  } finally {
    p.remove();
  }
});
