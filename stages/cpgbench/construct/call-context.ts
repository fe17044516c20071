/**
 * What CPGBench's calls carry as their `context` (ChatRequest.context): the rows the call is
 * about, for offline stand-ins, which answer from it. A live server never sees it and it is not
 * in the cache key (pipeline/llm/types.ts), so a real model gets the prompt only.
 *
 *   writer (Prompts 7/8/9), detection (10), adherence (no prompt): the recommendation;
 *   judges (12, 13, 14): the recommendation, the task judged and the response judged.
 */

export interface RecommendationFacts {
  recommendation_id: string;
  guideline_id: string;
  /** 1-based position in its guideline. */
  n: number;
  language: string;
  recommendation: string;
  action: string;
  context: string;
  goal: string;
  title: string;
  region: string | null;
}

export type JudgedTask = 'content_detection' | 'title_grounding' | 'adherence';

// Type aliases, not interfaces: they must be assignable to ChatRequest.context's record type.
export type CpgCallContext =
  | { cpg: 'writer' | 'detection' | 'adherence'; recommendation: RecommendationFacts }
  | { cpg: 'judge'; task: JudgedTask; recommendation: RecommendationFacts; response: string };

/** A call's CPGBench context, or null when it has none; a malformed one throws, naming what is missing. */
export function cpgContextOf(context: Readonly<Record<string, unknown>> | undefined): CpgCallContext | null {
  if (context === undefined || !('cpg' in context)) return null;
  const c = context as Partial<{ cpg: string; recommendation: Partial<RecommendationFacts>; task: string; response: unknown }>;
  const r = c.recommendation;
  const missing = [
    ['writer', 'detection', 'adherence', 'judge'].includes(String(c.cpg)) ? null : 'cpg (writer, detection, adherence or judge)',
    r && typeof r.recommendation === 'string' && typeof r.action === 'string' && typeof r.title === 'string' ? null : 'recommendation',
    c.cpg !== 'judge' || (typeof c.task === 'string' && typeof c.response === 'string') ? null : 'task and response',
  ].filter((m): m is string => m !== null);
  if (missing.length) throw new Error(`the call's CPGBench context lacks ${missing.join(', ')}; build it with the stage's context helpers`);
  return context as unknown as CpgCallContext;
}

/** The facts of a cpg_recommendations row. */
export function factsOf(row: Readonly<Record<string, unknown>>): RecommendationFacts {
  const s = (k: string) => (typeof row[k] === 'string' ? (row[k] as string) : '');
  return {
    recommendation_id: s('recommendation_id'),
    guideline_id: s('guideline_id'),
    n: Number(row.n),
    language: s('language'),
    recommendation: s('recommendation'),
    action: s('action'),
    context: s('context'),
    goal: s('goal'),
    title: s('title'),
    region: typeof row.region === 'string' ? row.region : null,
  };
}
