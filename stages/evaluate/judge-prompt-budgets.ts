/**
 * Prompt token budgets of the judges, from their roster context windows, for their judge specs'
 * `promptBudget` (stages/models/judge-specs.ts; the stage sees the client, not the roster, so the
 * budget must arrive in the crossed judge — which also puts it in that judge's units' keys). Budget = context window −
 * answer reserve; the reserve defaults to 8,192 tokens, room for a 32×32 score grid at
 * ANSWER_TOKENS_PER_PAIR tokens a pair. Judges without a known window get no entry (one block).
 */
import type { ModelSpec } from '../../pipeline/stage.ts';

export const DEFAULT_ANSWER_RESERVE = 8192;

export function judgePromptBudgets(
  roster: readonly Pick<ModelSpec, 'name' | 'contextWindow'>[],
  judges: readonly string[],
  answerReserve = DEFAULT_ANSWER_RESERVE,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const judge of judges) {
    const spec = roster.find((m) => m.name === judge);
    if (!spec) throw new Error(`judgePromptBudgets: judge ${judge} is not in the roster; add it or fix the judges list`);
    if (spec.contextWindow === undefined) continue;
    const budget = spec.contextWindow - answerReserve;
    if (budget <= 0)
      throw new RangeError(
        `judgePromptBudgets: judge ${judge} has a ${spec.contextWindow}-token context window, not more than the ${answerReserve}-token answer reserve; lower the reserve`,
      );
    out[judge] = budget;
  }
  return out;
}
