/**
 * Which judges the evaluation runs: every active real judge of the resolved roster (role
 * 'judge', not simulated), in roster order (the paper's default, GPT-5.4 Mini, first), then the
 * three simulated similarity judges. The simulated ones cost nothing and are always there, so
 * the evaluation runs offline and an LLM judge's agreement can be read against a lexical
 * baseline. For dag.config.ts: `params: { judges: evaluationJudges(roster) }`.
 */
import type { ModelSpec } from '../../pipeline/llm/types.ts';
import { SIMULATED_JUDGE_NAMES } from '../judge/simulated-judges.ts';

export function evaluationJudges(roster: readonly Pick<ModelSpec, 'name' | 'roles' | 'simulated' | 'active'>[]): string[] {
  const real = roster.filter((m) => m.active && !m.simulated && m.roles.includes('judge')).map((m) => m.name);
  return [...real, ...SIMULATED_JUDGE_NAMES.filter((n) => !real.includes(n))];
}
