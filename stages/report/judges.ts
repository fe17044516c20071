/**
 * Which judges a report shows, in which order, and which is the default, from the run's judge
 * specs (their kind and `simulated` flag; stages/roster/judge-spec.ts), never from their names.
 * Simulated judges (the offline similarity stand-ins) come after real ones; the default is the
 * first real LLM judge present, else the first simulated judge. A judge present in the rows
 * that the list does not name (rows of an earlier run) is taken as a real LLM judge.
 */
import type { JudgeFacts } from '../roster/judge-spec.ts';
import { PAPER_JUDGES } from '../models/paper-names.ts';

export function judgeFacts(name: string, judges: readonly JudgeFacts[]): JudgeFacts {
  return judges.find((j) => j.name === name) ?? { name, kind: 'llm', simulated: false };
}

/**
 * The judges present, ordered by the run's judge list, then the paper's judges, then the rest by
 * name; simulated judges always last.
 */
export function orderJudges(present: Iterable<string>, judges: readonly JudgeFacts[] = []): string[] {
  const order = [...judges.map((j) => j.name), ...PAPER_JUDGES];
  const rank = (j: string) => {
    const i = order.indexOf(j);
    return [judgeFacts(j, judges).simulated ? 1 : 0, i < 0 ? order.length : i] as const;
  };
  return [...new Set(present)].sort((a, b) => {
    const [sa, ia] = rank(a),
      [sb, ib] = rank(b);
    return sa - sb || ia - ib || (a < b ? -1 : a > b ? 1 : 0);
  });
}

/** The default judge among those present (ordered as orderJudges), or null when there is none. */
export function defaultJudge(present: Iterable<string>, judges: readonly JudgeFacts[] = []): string | null {
  const ordered = orderJudges(present, judges);
  const facts = (j: string) => judgeFacts(j, judges);
  return (
    ordered.find((j) => !facts(j).simulated && facts(j).kind === 'llm') ?? ordered.find((j) => facts(j).simulated) ?? ordered[0] ?? null
  );
}

/** Judges that score step similarity without an LLM: simulated ones, similarity and embedding judges. */
export const isSimilarityJudge = (j: JudgeFacts) => j.simulated || j.kind !== 'llm';

/**
 * The judges Tables 5–7 show: every LLM judge of the run and one similarity judge, the real one
 * when configured (an embedding judge, the BERTScore substitute), else the first simulated one;
 * with `all`, every judge. Three simulated similarity judges side by side make the table ten
 * columns wide and say little.
 */
export function tableJudges(present: Iterable<string>, judges: readonly JudgeFacts[] = [], all = false): string[] {
  const ordered = orderJudges(present, judges);
  if (all) return ordered;
  const facts = (j: string) => judgeFacts(j, judges);
  const similarity = ordered.find((j) => isSimilarityJudge(facts(j)) && !facts(j).simulated) ?? ordered.find((j) => facts(j).simulated);
  return ordered.filter((j) => !isSimilarityJudge(facts(j)) || j === similarity);
}
