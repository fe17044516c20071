import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAgentContext, type AgentContext } from './agent-context.ts';
import { AgentWorld, worldHandlers } from './agent-world.ts';
import { notApplicableSingleTurn } from './answer-format.ts';
import { oracleSingleTurn, ORACLE_NAME } from './oracle.ts';
import { PATIENT_NAME } from './offline-patient.ts';
import { createRng } from '../stats/rng.ts';
import { buildFixture, HTN_MARKDOWN, markdownOf, patientSystem, singleTurnPrompt } from './test-fixtures.ts';

const fx = buildFixture();
const guidelineRows = fx.data.guidelines.map((g) => ({ ...g, title: g.guideline_id }));
const treeRows = fx.data.trees.map((t) => ({ guideline_id: t.guideline_id, tree_json: JSON.stringify(t.tree), valid: true }));
const cdpRows = fx.data.cdps.map((c) => ({ ...c }) as Record<string, unknown>);
const vignetteRows = fx.data.vignettes.map((v) => ({ ...v }));

/** The context as comparable plain data; list orders that carry no meaning are sorted. */
function snapshot(c: AgentContext) {
  const sortedLists = (m: Map<string, unknown[]>, key: (x: unknown) => string) =>
    Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.map(key).sort()]));
  return {
    guidelineByText: Object.fromEntries([...c.guidelineByText].sort()),
    guidelineTexts: c.guidelineTexts.map((g) => g.guideline_id),
    trees: Object.fromEntries([...c.trees].sort(([a], [b]) => a.localeCompare(b)).map(([k, t]) => [k, JSON.stringify(t)])),
    cdps: Object.fromEntries([...c.cdps].sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, JSON.stringify(x)])),
    cdpsByGuideline: sortedLists(c.cdpsByGuideline as Map<string, unknown[]>, (x) => (x as { cdp_id: string }).cdp_id),
    vignetteOf: Object.fromEntries([...c.vignetteOf].sort()),
    cdpsByVignette: sortedLists(c.cdpsByVignette as Map<string, unknown[]>, String),
  };
}

/** One unit's rows, as a task stage hands them over: its guideline, tree, case and vignette. */
function unitRows(i: number) {
  const cdp = cdpRows[i]!;
  return {
    guidelines: guidelineRows.filter((g) => g.guideline_id === cdp.guideline_id),
    trees: treeRows.filter((t) => t.guideline_id === cdp.guideline_id),
    cdps: [cdp],
    vignettes: vignetteRows.filter((v) => v.cdp_id === cdp.cdp_id),
  };
}

describe('AgentWorld.add', () => {
  test('unit by unit, in random orders with repeats, it indexes exactly what createAgentContext builds from the whole tables', () => {
    const expected = snapshot(createAgentContext(fx.data));
    for (let seed = 1; seed <= 20; seed++) {
      const rng = createRng(seed);
      const world = new AgentWorld();
      for (let k = 0; k < 3 * cdpRows.length; k++) {
        const i = rng.nextInt(cdpRows.length);
        // Copies as well as the same objects: repeats are recognised by content too.
        const rows = unitRows(i);
        world.add(k % 2 ? rows : JSON.parse(JSON.stringify(rows)));
      }
      for (let i = 0; i < cdpRows.length; i++) world.add(unitRows(i));
      assert.deepEqual(snapshot(world.context), expected, `seed ${seed}`);
      assert.deepEqual(world.size(), { guidelines: 2, trees: 2, cdps: 9, vignettes: 9 });
    }
  });

  test('longer guidelines come first in the substring fallback order, as createAgentContext sorts them', () => {
    const world = new AgentWorld();
    const rows = [
      { guideline_id: 'short', markdown: 'ab' },
      { guideline_id: 'long', markdown: 'abcdef' },
      { guideline_id: 'middle', markdown: 'abcd' },
    ];
    for (const r of rows) world.add({ guidelines: [r] });
    assert.deepEqual(world.context.guidelineTexts.map((g) => g.guideline_id), ['long', 'middle', 'short']);
  });

  test('a changed row replaces the old one in every index', () => {
    const world = new AgentWorld();
    world.add({ guidelines: guidelineRows, trees: treeRows, cdps: cdpRows, vignettes: vignetteRows });
    const id = String(cdpRows[0]!.cdp_id);
    const oldVignette = fx.vignetteOf(fx.htn[0]!);
    world.add({ vignettes: [{ cdp_id: id, vignette: 'A rewritten vignette.' }] });
    world.add({ guidelines: [{ guideline_id: 'htn', markdown: '# Hypertension, second edition' }] });
    world.add({ cdps: [{ ...cdpRows[0], guideline_id: 'insomnia' }] });
    const c = world.context;
    assert.equal(c.vignetteOf.get(id), 'A rewritten vignette.');
    assert.deepEqual(c.cdpsByVignette.get('A rewritten vignette.'), [id]);
    assert.equal(c.cdpsByVignette.has(oldVignette.trim()), false);
    assert.equal(c.guidelineByText.has(HTN_MARKDOWN), false);
    assert.equal(c.guidelineByText.get('# Hypertension, second edition'), 'htn');
    assert.deepEqual(c.guidelineTexts.map((g) => g.guideline_id).sort(), ['htn', 'insomnia']);
    assert.ok(!c.cdpsByGuideline.get('htn')!.some((x) => x.cdp_id === id));
    assert.ok(c.cdpsByGuideline.get('insomnia')!.some((x) => x.cdp_id === id));
    assert.equal(c.cdps.get(id)!.guideline_id, 'insomnia');
  });

  test('failure rows and rows missing what the agents need are ignored', () => {
    const world = new AgentWorld();
    world.add({
      guidelines: [{ guideline_id: 'g', markdown: 'text', error: 'ingest failed' }, { guideline_id: 'h' }],
      trees: [{ guideline_id: 'g', tree_json: '{ not json' }, { guideline_id: 'h', tree_json: '{"primary_clinical_focus":"diagnosis"}' }, { guideline_id: 'i', error: 'invalid tree' }],
      cdps: [{ cdp_id: 'x', guideline_id: 'g' }, { cdp_id: 'y', guideline_id: 'g', steps: [], conclusion: 'c', error: 'upstream failed' }],
      vignettes: [{ cdp_id: 'x', error: 'no vignette' }],
    });
    assert.deepEqual(world.size(), { guidelines: 0, trees: 0, cdps: 0, vignettes: 0 });
  });

  test('clear empties the same context object', () => {
    const world = new AgentWorld();
    const ctx = world.context;
    world.add(unitRows(0));
    world.clear();
    assert.equal(world.context, ctx);
    assert.deepEqual(snapshot(ctx), snapshot(createAgentContext({ guidelines: [], trees: [], cdps: [], vignettes: [] })));
    world.add(unitRows(0));
    assert.equal(world.size().cdps, 1, 'rows seen before clear() are taken again');
  });
});

describe('worldHandlers', () => {
  test('handlers created before the data answer from what the world holds when called', async () => {
    const world = new AgentWorld();
    const handlers = worldHandlers([ORACLE_NAME, PATIENT_NAME], world);
    assert.deepEqual(Object.keys(handlers).sort(), [ORACLE_NAME, PATIENT_NAME].sort());
    const cdp = fx.htn[0]!;
    const req = { model: ORACLE_NAME, messages: [{ role: 'user' as const, content: singleTurnPrompt(markdownOf(cdp), fx.vignetteOf(cdp)) }] };
    assert.equal(await handlers[ORACLE_NAME]!(req), notApplicableSingleTurn());
    world.add(unitRows(0));
    assert.equal(await handlers[ORACLE_NAME]!(req), oracleSingleTurn(cdp, fx.vignetteOf(cdp)));
  });

  test('meta.cdp_id places the case when the prompt alone cannot', async () => {
    const world = new AgentWorld();
    world.add({ guidelines: guidelineRows, trees: treeRows, cdps: cdpRows, vignettes: vignetteRows });
    const patient = worldHandlers([PATIENT_NAME], world)[PATIENT_NAME]!;
    // A question about a path step the vignette does not settle lexically: only the path knows.
    const cdp = fx.htn.find((c) => c.steps.some((s) => s.condition.includes('end-organ') && s.decision_outcome === 'yes'))!;
    const messages = [
      { role: 'system' as const, content: patientSystem('The patient came for a routine visit.') },
      { role: 'user' as const, content: 'Is there evidence of end-organ damage?' },
    ];
    assert.equal(await patient({ model: PATIENT_NAME, messages }), 'No', 'unknown vignette, no meta: what the case does not state is absent');
    assert.equal(await patient({ model: PATIENT_NAME, messages, meta: { cdp_id: cdp.cdp_id } }), 'Yes');
    assert.equal(await patient({ model: PATIENT_NAME, messages, meta: { cdp_id: 'no-such-case' } }), 'No', 'an unknown id falls back to the prompt');
  });
});
