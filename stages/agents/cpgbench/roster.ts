/**
 * CPGBench's offline stand-ins as roster entries (`provider: 'offline'`, `simulated: true`,
 * named "simulated-cpg-…") and the handlers the LLM client calls for them. Only the wiring
 * (cpgbench.config.ts through stages/models/cpgbench-*.ts) imports this.
 */
import type { LlmRole, ModelSpec, OfflineHandler } from '../../../pipeline/llm/types.ts';
import { CPG_EVALUATED, CPG_EVERY_OTHER, CPG_NO_TITLES, CPG_ORACLE, simulatedEvaluatedHandlers } from './simulated-evaluated.ts';
import { CPG_JUDGE_NAME, simulatedJudge } from './simulated-judge.ts';
import { CPG_WRITER_NAME, simulatedWriter } from './simulated-writer.ts';
import { CPG_BUILDER_NAME, simulatedBuilder } from './simulated-builder.ts';

export { CPG_EVALUATED, CPG_JUDGE_NAME, CPG_WRITER_NAME, CPG_BUILDER_NAME };

const NOTES: Record<string, [LlmRole, string]> = {
  [CPG_ORACLE]: ['evaluated', 'simulated: states the recommendation and its title, adheres every time (every rate 100%)'],
  [CPG_NO_TITLES]: ['evaluated', 'simulated: as the oracle, but never names a guideline (title grounding 0%)'],
  [CPG_EVERY_OTHER]: [
    'evaluated',
    'simulated: as the oracle, but adheres only to even-numbered recommendations (adherence 50% on the sample)',
  ],
  [CPG_JUDGE_NAME]: ['judge', 'simulated: finds the ground truth in the response after folding case and punctuation (not an LLM)'],
  [CPG_WRITER_NAME]: ['builder', 'simulated: writes a fixed six-message consultation that applies the recommendation (not an LLM)'],
  [CPG_BUILDER_NAME]: ['builder', 'simulated: stands in for a real builder in `cdp estimate` only (keyword extraction, not an LLM)'],
};

export const CPG_SIMULATED_ROSTER: readonly ModelSpec[] = Object.entries(NOTES).map(([name, [role, note]]) => ({
  name,
  roles: [role],
  provider: 'offline',
  simulated: true,
  note,
}));

export function cpgOfflineHandlers(): Record<string, OfflineHandler> {
  return {
    ...simulatedEvaluatedHandlers(),
    [CPG_JUDGE_NAME]: simulatedJudge,
    [CPG_WRITER_NAME]: simulatedWriter,
    [CPG_BUILDER_NAME]: simulatedBuilder,
  };
}
