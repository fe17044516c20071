/**
 * The run's judges as one list of judge specs (stages/roster/judge-spec.ts), decided here and
 * nowhere else: a chat model of the models file with the judge role is an 'llm' judge, an
 * embeddings endpoint an 'embedding' judge, a simulated judge its own kind ('similarity').
 * Calibration: the models file's (or the paper's for the judge it names), else the kind's
 * fallback (judge-params.ts). Prompt budget: the judge's context window minus the answer
 * reserve (judge-prompt-budgets.ts), for LLM judges with a known window.
 */
import type { ModelSpec } from '../../pipeline/llm/types.ts';
import type { JudgeKind, JudgeSpec } from '../roster/judge-spec.ts';
import { judgeParams } from '../metrics/judge-params.ts';
import { judgePromptBudgets } from '../evaluate/judge-prompt-budgets.ts';
import { refIn } from './model-identity.ts';
import type { RunModel } from './models-file.ts';

export interface JudgeChoice {
  name: string;
  kind: JudgeKind;
}

export function judgeSpecs(roster: readonly ModelSpec[], declared: readonly RunModel[], judges: readonly JudgeChoice[]): JudgeSpec[] {
  const budgets = judgePromptBudgets(
    roster,
    judges.filter((j) => j.kind === 'llm').map((j) => j.name),
  );
  return judges.map(({ name, kind }) => {
    const own = declared.find((d) => d.name === name);
    const fallback = judgeParams(name, kind === 'llm' ? 'llm' : 'similarity');
    return {
      ...refIn(roster, name),
      kind,
      calibration: own?.calibration ?? { gamma: fallback.gamma, beta: fallback.beta, calibrated: fallback.calibrated },
      promptBudget: budgets[name] ?? null,
      paper: own?.paper ?? null,
    };
  });
}
