/**
 * A judge as the judging and report stages receive it: a model (model-ref.ts) with what the
 * benchmark knows of it as a judge, decided once by the wiring (stages/models/judge-specs.ts):
 *
 * - kind: 'llm' (Prompts 5, 8 and 9), 'similarity' (an offline measure answering the same
 *   prompts) or 'embedding' (cosine of step embeddings; scores steps, not outcomes);
 * - calibration: the LNDS threshold γ and OT positional weight β its scores are read with;
 * - promptBudget: the longest step-scoring prompt it takes, in tokens, before the reference is
 *   split into blocks (its context window minus the answer reserve); null: one block;
 * - paper: the paper's judge it stands for (the scorecard), or null.
 *
 * A real judge (simulated false) never scores a simulated agent's pathway.
 */
import { z } from '../../pipeline/stage.ts';
import { modelRefFields, modelRefOf, type ModelRef } from './model-ref.ts';

const KINDS = ['llm', 'similarity', 'embedding'] as const;
export type JudgeKind = (typeof KINDS)[number];

export interface JudgeCalibration {
  gamma: number;
  beta: number;
  /** True when γ was fitted to this very judge (the paper's, or the models file's). */
  calibrated: boolean;
}

export interface JudgeSpec extends ModelRef {
  kind: JudgeKind;
  calibration: JudgeCalibration;
  promptBudget: number | null;
  paper: string | null;
}

export const judgeSpecSchema: z.ZodType<JudgeSpec> = modelRefFields.extend({
  kind: z.enum(KINDS),
  calibration: z.object({ gamma: z.number().gt(0).max(1), beta: z.number().min(0), calibrated: z.boolean() }),
  promptBudget: z.int().min(1).nullable(),
  paper: z.string().min(1).nullable(),
});

/** The judge a crossed element holds, or an error saying what it should be. */
export function judgeSpecOf(value: unknown, what = 'the crossed judge'): JudgeSpec {
  const ref = modelRefOf(value, what) as Partial<JudgeSpec>;
  if (!(KINDS as readonly string[]).includes(String(ref.kind)) || typeof ref.calibration !== 'object' || ref.calibration === null) {
    throw new TypeError(
      `${what} ${ref.name} has no judge kind or calibration; pass the roster's judge specs (stages/models/judge-specs.ts) in the param 'judges'`,
    );
  }
  return ref as JudgeSpec;
}

/** The facts a report needs of the judges present in its rows. */
export type JudgeFacts = Pick<JudgeSpec, 'name' | 'kind' | 'simulated'>;
