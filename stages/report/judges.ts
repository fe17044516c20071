/**
 * Which judges a report shows, in which order, and which is the default. Simulated judges
 * (the offline similarity stand-ins) come after real ones; the default is the first LLM judge
 * present (BERTScore is a real judge but no LLM), else the first simulated judge.
 */
import { SIMULATED_JUDGE_NAMES } from '../judge/simulated-judges.ts';
import { PAPER_JUDGES } from '../models/paper-names.ts';

/** Judges that are not LLMs and not simulated. */
const NON_LLM_JUDGES = ['bertscore'];

export const isSimulatedJudge = (name: string) => (SIMULATED_JUDGE_NAMES as readonly string[]).includes(name) || name.includes('simulated');

/**
 * The judges present, ordered by `preferred` (the run's judge list, e.g. evaluationJudges(roster)),
 * then the paper's judges, then the rest by name; simulated judges always last.
 */
export function orderJudges(present: Iterable<string>, preferred: readonly string[] = []): string[] {
  const order = [...preferred, ...PAPER_JUDGES, ...NON_LLM_JUDGES, ...SIMULATED_JUDGE_NAMES];
  const rank = (j: string) => {
    const i = order.indexOf(j);
    return [isSimulatedJudge(j) ? 1 : 0, i < 0 ? order.length : i] as const;
  };
  return [...new Set(present)].sort((a, b) => {
    const [sa, ia] = rank(a),
      [sb, ib] = rank(b);
    return sa - sb || ia - ib || (a < b ? -1 : a > b ? 1 : 0);
  });
}

/** The default judge among those present (ordered as orderJudges), or null when there is none. */
export function defaultJudge(present: Iterable<string>, preferred: readonly string[] = []): string | null {
  const ordered = orderJudges(present, preferred);
  return ordered.find((j) => !isSimulatedJudge(j) && !NON_LLM_JUDGES.includes(j)) ?? ordered.find(isSimulatedJudge) ?? ordered[0] ?? null;
}

/** Judges that score step similarity without an LLM: simulated ones, BERTScore, embedding judges (embed-<model>). */
export const isSimilarityJudge = (name: string) => isSimulatedJudge(name) || NON_LLM_JUDGES.includes(name) || name.startsWith('embed-');

/**
 * The judges Tables 5–7 show: every LLM judge of the run and one similarity judge, the real one
 * when configured (the BERTScore substitute), else the first simulated one; with `all`, every judge.
 * Three simulated similarity judges side by side make the table ten columns wide and say little.
 */
export function tableJudges(present: Iterable<string>, preferred: readonly string[] = [], all = false): string[] {
  const ordered = orderJudges(present, preferred);
  if (all) return ordered;
  const similarity = ordered.find((j) => isSimilarityJudge(j) && !isSimulatedJudge(j)) ?? ordered.find(isSimulatedJudge);
  return ordered.filter((j) => !isSimilarityJudge(j) || j === similarity);
}
