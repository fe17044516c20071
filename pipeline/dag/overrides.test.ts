// `--set stage.param=value`: parsed, checked against the stages and their declared params before
// anything runs, and keyed exactly as the same value in dag.config.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOverride, parseOverrides } from './overrides.ts';
import { resolveDag, DagConfigError } from './validate.ts';
import { makeToyProject } from '../testing/toy-project.ts';
import { runDag } from '../exec/executor.ts';
import { workspaceFor } from '../exec/workspace.ts';
import { readLedger } from '../store/ledger.ts';
import { readRows } from '../store/artifacts.ts';

test('a value is JSON when it parses as JSON, else the string itself', () => {
  const v = (text: string) => parseOverride(text).value;
  assert.deepEqual(parseOverride('outcome_scores.cutoff=3'), {
    stage: 'outcome_scores',
    param: 'cutoff',
    value: 3,
    text: 'outcome_scores.cutoff=3',
  });
  assert.equal(v('s.p=0.25'), 0.25);
  assert.equal(v('s.p=true'), true);
  assert.equal(v('s.p=null'), null);
  assert.deepEqual(v('s.p=["a","b"]'), ['a', 'b']);
  assert.deepEqual(v('s.p={"x":1}'), { x: 1 });
  assert.equal(v('s.p="42"'), '42', 'a quoted number is a string');
  assert.equal(v('s.p=worst'), 'worst');
  assert.equal(v('s.p=a=b'), 'a=b', 'the first = separates the value');
  assert.equal(v('s.p='), '', 'an empty value is the empty string');
  assert.equal(v('s.p=[1,'), '[1,', 'invalid JSON is a string');
});

test('a malformed --set names the argument and the form it needs', () => {
  for (const bad of ['cutoff=3', 'outcome_scores.=3', '.cutoff=3', 'outcome_scores.cutoff']) {
    assert.throws(
      () => parseOverride(bad),
      (err: Error) =>
        err.message === `--set "${bad}": expected <stage>.<param>=<value>, e.g. --set outcome_scores.cutoff=3 or --set step_scores.runs=3`,
    );
  }
  assert.throws(() => parseOverride('pathway_metrics.calibration.judge=1'), /'calibration\.judge' is not a param name/);
});

test('an unknown stage is refused before anything runs, naming it, the likely one and the stages', async () => {
  const p = makeToyProject();
  await assert.rejects(resolveDag(p.config(), p.root, { overrides: parseOverrides(['totlas.scale=2', 'docs.x=1']) }), (err: unknown) => {
    assert.ok(err instanceof DagConfigError);
    assert.match(err.message, /^dag\.config\.ts with --set has 2 problems:/);
    assert.deepEqual(err.problems, [
      "--set totlas.scale=2: no stage 'totlas' (did you mean 'totals'?); stages: words, shout, totals, report",
      "--set docs.x=1: no stage 'docs' ('docs' is a source: sources have no params); stages: words, shout, totals, report",
    ]);
    return true;
  });
  assert.deepEqual(p.computed(), []);
});

test('an unknown param is refused once, naming the stage, the param and the known ones', async () => {
  const p = makeToyProject();
  const overrides = parseOverrides(['totals.scael=2', 'words.delay=5', 'shout.loudness=3']);
  await assert.rejects(resolveDag(p.config(), p.root, { overrides }), (err: unknown) => {
    assert.ok(err instanceof DagConfigError);
    assert.deepEqual(err.problems, [
      "--set words.delay=5: stage 'words' has no param 'delay'; known: delayMs, failOn",
      "--set shout.loudness=3: stage 'shout' has no param 'loudness'; known: none (its module declares no params and dag.config.ts gives it none)",
      "--set totals.scael=2: stage 'totals' has no param 'scael' (did you mean 'scale'?); known: scale",
    ]);
    return true;
  });
  assert.deepEqual(p.computed(), []);
});

test('an override keys the stage as the same value in the config does: the runs share their store entries', async () => {
  const p = makeToyProject();
  const ws = workspaceFor(p.root);
  const run = async (totalsScale: number, set: string[] = []) => {
    const config = p.config({ totalsScale });
    return runDag(await resolveDag(config, p.root, { overrides: parseOverrides(set) }), workspaceFor(p.root), {});
  };
  const status = (s: Awaited<ReturnType<typeof run>>) => Object.fromEntries(s.stages.map((r) => [r.stage, r.status]));

  await run(1, ['totals.scale=3']);
  const viaSet = readLedger(ws.ledger).entries.totals!;
  assert.deepEqual(viaSet.components?.params.value, { scale: 3 });
  assert.deepEqual(readRows(ws.store, 'totals', viaSet.segments!), [{ docs: 3, words: 18 }]);

  // The same value written in the config: nothing reruns, the key and the artifact are the same.
  const fromConfig = await run(3);
  assert.deepEqual(status(fromConfig), { docs: 'reused', words: 'reused', shout: 'reused', totals: 'reused', report: 'reused' });
  const entry = readLedger(ws.ledger).entries.totals!;
  assert.equal(entry.key, viaSet.key);
  assert.equal(entry.artifact, viaSet.artifact);

  // Setting a param to the config's own value changes nothing either; a later --set wins.
  assert.equal(status(await run(3, ['totals.scale=3'])).totals, 'reused');
  assert.equal(status(await run(3, ['totals.scale=7', 'totals.scale=3'])).totals, 'reused');
  const seven = await run(3, ['totals.scale=3', 'totals.scale=7']);
  assert.deepEqual(status(seven), { docs: 'reused', words: 'reused', shout: 'reused', totals: 'ran', report: 'ran' });
  assert.deepEqual(readLedger(ws.ledger).entries.totals!.components?.params.value, { scale: 7 });
});
