import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAgentContext, placeDoctor, placePatient, placeSingleTurn } from './agent-context.ts';
import { promptFields } from './prompt-fields.ts';
import { buildFixture, doctorSystem, HTN_MARKDOWN, INSOMNIA_MARKDOWN, patientSystem, singleTurnPrompt } from './test-fixtures.ts';

const fx = buildFixture();

describe('promptFields', () => {
  test('reads back the values of each rendered prompt', () => {
    assert.deepEqual(promptFields('multi-turn-inference', doctorSystem('GUIDE', 'goal text')), [{ Clinical_Inquiry_Goal: 'goal text', Guideline: 'GUIDE' }]);
    assert.deepEqual(promptFields('multi-turn-patient-environment', patientSystem('  The case.  ')), [{ Case_Vignette: 'The case.' }]);
    assert.deepEqual(promptFields('multi-turn-patient-environment', 'not a prompt'), []);
  });

  test('offers every split when a value holds the literal text between placeholders', () => {
    // HTN_MARKDOWN contains "## Case Vignette:" on a line of its own, like the template.
    const splits = promptFields('single-turn-inference', singleTurnPrompt(HTN_MARKDOWN, 'V.'));
    assert.equal(splits.length, 2);
    assert.deepEqual(splits[1], { Guideline: HTN_MARKDOWN, Case_Vignette: 'V.' });
  });

  test('CRLF line endings and surrounding whitespace do not matter', () => {
    const p = `\n${singleTurnPrompt(INSOMNIA_MARKDOWN, 'V.').replace(/\n/g, '\r\n')}\n\n`;
    assert.deepEqual(promptFields('single-turn-inference', p), [{ Guideline: INSOMNIA_MARKDOWN, Case_Vignette: 'V.' }]);
  });
});

describe('placing prompts', () => {
  test('single-turn: guideline and case from Prompt 4, despite a marker-like heading in the guideline', () => {
    for (const cdp of fx.htn) {
      const placed = placeSingleTurn(fx.ctx, singleTurnPrompt(HTN_MARKDOWN, fx.vignetteOf(cdp)));
      assert.equal(placed.guideline_id, 'htn');
      assert.equal(placed.cdp?.cdp_id, cdp.cdp_id);
      assert.equal(placed.vignette, fx.vignetteOf(cdp));
    }
  });

  test('single-turn: a prompt in another wording is placed by the texts it contains', () => {
    const cdp = fx.insomnia[0]!;
    const placed = placeSingleTurn(fx.ctx, `Guideline below.\n${INSOMNIA_MARKDOWN}\nCase:\n${fx.vignetteOf(cdp)}\nAnswer.`);
    assert.equal(placed.guideline_id, 'insomnia');
    assert.equal(placed.cdp?.cdp_id, cdp.cdp_id);
    assert.equal(placed.vignette, null);
  });

  test('a vignette shared by two cases places neither', () => {
    const data = { ...fx.data, vignettes: fx.data.vignettes.map((v) => ({ ...v, vignette: v.cdp_id === fx.htn[1]!.cdp_id ? fx.vignetteOf(fx.htn[0]!) : v.vignette })) };
    const ctx = createAgentContext(data);
    const placed = placeSingleTurn(ctx, singleTurnPrompt(HTN_MARKDOWN, fx.vignetteOf(fx.htn[0]!)));
    assert.equal(placed.guideline_id, 'htn');
    assert.equal(placed.cdp, null);
  });

  test('doctor: the goal places the case only when it identifies it', () => {
    const cdp = fx.htn[2]!;
    assert.equal(placeDoctor(fx.ctx, doctorSystem(HTN_MARKDOWN, `Case: ${fx.vignetteOf(cdp)}`)).cdp?.cdp_id, cdp.cdp_id);
    assert.equal(placeDoctor(fx.ctx, doctorSystem(HTN_MARKDOWN, `Case id ${cdp.cdp_id}`)).cdp?.cdp_id, cdp.cdp_id);
    const vague = placeDoctor(fx.ctx, doctorSystem(HTN_MARKDOWN, 'The clinical question concerns management.'));
    assert.deepEqual([vague.guideline_id, vague.goal, vague.cdp], ['htn', 'The clinical question concerns management.', null]);
    assert.equal(placeDoctor(fx.ctx, doctorSystem('# unknown', 'x')).guideline_id, null);
  });

  test('patient: the case from Prompt 7, or just the vignette text when unknown', () => {
    const cdp = fx.insomnia[1]!;
    assert.equal(placePatient(fx.ctx, patientSystem(fx.vignetteOf(cdp))).cdp?.cdp_id, cdp.cdp_id);
    assert.deepEqual(placePatient(fx.ctx, patientSystem('Someone else.')), { vignette: 'Someone else.', cdp: null });
  });
});
