// `cdp --config cpgbench.config.ts export benchmark|results DIR` on the bundled sample run
// offline: the files hold the warehouse's rows (read back by python3's json and by DuckDB), the
// cards' counts are the files' rows, the shipped recommendations and the simulated stand-ins are
// said so, and a bad kind or a foreign folder is refused with a message naming it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWarehouse } from '../../../pipeline/store/warehouse.ts';
import { cpgProject, REPO } from '../testing/cpgbench-project.ts';
import { cpgExportCommand } from './cpg-export-command.ts';

type Row = Record<string, unknown>;

/** python3's json module: a reader that is not this project's code. */
function pythonJsonl(file: string): Row[] {
  const script = 'import json,sys\nrows=[json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]\nprint(json.dumps(rows))';
  return JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8', maxBuffer: 1 << 28 })) as Row[];
}

async function sql(warehouse: string, store: string, q: string): Promise<Row[]> {
  const w = await openWarehouse(warehouse, store, { readOnly: true });
  try {
    return (await w.con.runAndReadAll(q)).getRowObjectsJson() as Row[];
  } finally {
    w.close();
  }
}

const count = async (warehouse: string, store: string, q: string) => Number((await sql(warehouse, store, q))[0]!.n);

test('export benchmark and results of the offline sample: the warehouse rows in JSONL and Parquet, cards counted from them', async () => {
  const p = cpgProject();
  try {
    const run = await p.run();
    assert.equal(run.ok, true, JSON.stringify(run.stages.filter((s) => s.error)));
    const target = { root: REPO, warehouse: join(p.dir, 'warehouse.duckdb'), store: join(p.dir, 'store') };
    const n = (q: string) => count(target.warehouse, target.store, `select count(*)::int as n from ${q}`);

    const out = join(p.dir, 'benchmark');
    const b = await cpgExportCommand('benchmark', out, target);
    const expected = {
      documents: await n('cpg_documents where error is null'),
      recommendations: await n('cpg_recommendations where error is null'),
      conversations: await n('cpg_conversations where error is null'),
      task_inputs: await n('cpg_task_inputs where error is null'),
    };
    assert.deepEqual(expected, { documents: 7, recommendations: 10, conversations: 10, task_inputs: 10 });
    assert.deepEqual(b.counts, expected);
    for (const [name, rows] of Object.entries(expected)) {
      assert.equal(pythonJsonl(join(out, `${name}.jsonl`)).length, rows, name);
      assert.equal(
        await count(target.warehouse, target.store, `select count(*)::int as n from read_parquet('${join(out, `${name}.parquet`)}')`),
        rows,
      );
    }
    const docs = pythonJsonl(join(out, 'documents.jsonl'));
    const febrile = docs.find((d) => d.guideline_id === 'us-2021-febrile-infants')!;
    assert.deepEqual(
      [febrile.language, febrile.region, febrile.specialty, febrile.year, febrile.source, febrile.licence, febrile.included],
      ['en', 'United States', 'Pediatrics', 2021, 'written for the CPGBench sample', 'CC0-1.0', true],
    );
    assert.match(String(febrile.markdown), /febrile/i);
    assert.deepEqual(
      docs.filter((d) => d.included === false).map((d) => [d.guideline_id, d.excluded_reason]),
      [
        ['au-2021-vitamin-d-position', 'not a bona fide clinical practice guideline (corpus)'],
        ['ca-2012-low-back-pain', 'published in 2012, before 2015'],
      ],
    );
    const recs = pythonJsonl(join(out, 'recommendations.jsonl'));
    assert.ok(recs.every((r) => r.provenance === 'shipped' && r.extracted_by === null && r.safety_source === 'imported'));
    assert.equal(recs.filter((r) => r.safety_critical === true).length, 4);
    // The adherence input as sent: the conversation cut before its first marked assistant turn.
    const inputs = pythonJsonl(join(out, 'task_inputs.jsonl'));
    const convs = new Map(pythonJsonl(join(out, 'conversations.jsonl')).map((c) => [c.recommendation_id, c]));
    for (const i of inputs) {
      const c = convs.get(i.recommendation_id)!;
      const sent = i.adherence_messages as Row[];
      assert.deepEqual(sent, (c.messages as Row[]).slice(0, Number(c.marked_turn)));
      assert.equal(sent.at(-1)!.role, 'user');
      assert.doesNotMatch(JSON.stringify(i.detection_messages), /<recommendation/);
    }
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    for (const [name, rows] of Object.entries(expected)) assert.match(card, new RegExp(`^\\| ${name} \\| ${rows} \\|`, 'm'));
    assert.match(
      card,
      /^- counts: 7 documents, 5 kept \(1 not a bona fide CPG, 1 by year\); 10 recommendations; 10 conversations; 10 benchmark items/m,
    );
    assert.match(card, /^- recommendations: 10 of 10 shipped with the corpus \(`recommendations\/<id>\.json`.*; none extracted$/m);
    assert.match(card, /^- builder: none: no document, recommendation or safety flag was asked of a model$/m);
    assert.match(card, /^- conversations written by: `simulated-cpg-writer` \(simulated stand-in, not an LLM\) 10 conversations$/m);
    assert.match(card, /^- metadata of the kept documents \(.*\): guidelines\.csv 20$/m);
    assert.match(card, /^- Year filter \(`min_year`\): 2015 \(7 document rows\); documents published before it are left out: 1 /m);
    assert.match(card, /^- Document cut \(`max_tokens`\): 128,000 \(7 document rows\) tokens; 0 documents cut/m);
    assert.match(
      card,
      /^- Safety-critical selection: 4 of 10 recommendations flagged \(`safety_critical`\); 10 flags shipped with the corpus\.$/m,
    );
    assert.match(
      card,
      /^- Regeneration limit \(`max_attempts`\): 5 \(10 conversation rows\) answers per conversation, .*; 0 of 10 passed after a regeneration/m,
    );
    assert.match(card, /^- failures: no construction stage has a failure row$/m);
    assert.match(card, /`en\/cpgbench-conversation-generation\.md`/);
    assert.match(card, /`en\/cpgbench-detection\.md`/);
    assert.match(card, /^\| de-2020-hypertonie \| .*de-2020-hypertonie\.md \| CC0-1\.0 \|$/m);

    const res = join(p.dir, 'results');
    const r = await cpgExportCommand('results', res, target);
    const expectedResults = {
      detection_answers: await n('cpg_detection'),
      adherence_answers: await n('cpg_adherence'),
      judgements: (await n('cpg_detection_judgements')) + (await n('cpg_adherence_judgements')),
      rates: await n('cpg_rates'),
      specialty_tests: await n('cpg_specialty_tests'),
      agreement: await n('cpg_agreement'),
    };
    assert.deepEqual([expectedResults.detection_answers, expectedResults.adherence_answers, expectedResults.judgements], [30, 30, 90]);
    assert.deepEqual(r.counts, expectedResults);
    for (const [name, rows] of Object.entries(expectedResults)) {
      assert.equal(pythonJsonl(join(res, `${name}.jsonl`)).length, rows, name);
      assert.equal(
        await count(target.warehouse, target.store, `select count(*)::int as n from read_parquet('${join(res, `${name}.parquet`)}')`),
        rows,
      );
    }
    const judgements = pythonJsonl(join(res, 'judgements.jsonl'));
    assert.deepEqual([...new Set(judgements.map((j) => `${j.judge}:${j.judge_simulated}`))], ['simulated-cpg-judge:true']);
    const oracle = pythonJsonl(join(res, 'rates.jsonl')).find(
      (x) => x.model === 'simulated-cpg-oracle' && x.task === 'adherence' && x.grouping === 'overall',
    )!;
    assert.deepEqual([oracle.rate, oracle.n, oracle.incomplete], [1, 10, false]);
    const rc = readFileSync(join(res, 'README.md'), 'utf8');
    for (const [name, rows] of Object.entries(expectedResults)) assert.match(rc, new RegExp(`^\\| ${name} \\| ${rows} \\|`, 'm'));
    assert.match(rc, /^- produced by: simulated stand-ins only: these are not LLM results$/m);
    assert.match(rc, /^- real evaluated models: none$/m);
    assert.match(
      rc,
      /^- simulated stand-ins \(not LLM results\): `simulated-cpg-every-other`, `simulated-cpg-no-titles`, `simulated-cpg-oracle`$/m,
    );
    assert.match(rc, /^- real judges: none$/m);
    assert.match(rc, /^- simulated judges: `simulated-cpg-judge`$/m);
    assert.match(rc, /^- detection_answers: 30 answers; failures: none$/m);
    assert.match(rc, /^- judgements of adherence: 30; failures: none$/m);
    assert.match(rc, /^- adherence: 30 of 30 answers record no prompt template: the truncated conversation was sent alone$/m);
    assert.match(rc, /^- Rates: .* at level 95% \(\d+ rate rows\), resamples 10,000 \(\d+ rate rows\), seed 42 \(\d+ rate rows\)\.$/m);

    // Refusals name what is wrong; an earlier export may be written over.
    await assert.rejects(
      cpgExportCommand('bogus' as 'benchmark', join(p.dir, 'x'), target),
      /export: unknown kind "bogus"; use benchmark or results/,
    );
    const foreign = join(p.dir, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    await assert.rejects(
      cpgExportCommand('benchmark', foreign, target),
      (e: Error) =>
        e.message.startsWith('cdp --config cpgbench.config.ts export: ') &&
        e.message.includes(`${foreign} is not empty and holds no earlier export`),
    );
    assert.equal((await cpgExportCommand('results', res, target)).counts.rates, expectedResults.rates);
    await assert.rejects(
      cpgExportCommand('results', join(p.dir, 'y'), { ...target, warehouse: join(p.dir, 'none.duckdb') }),
      /no warehouse at .*none\.duckdb; run `cdp --config cpgbench\.config\.ts run` first/,
    );
  } finally {
    p.remove();
  }
});
