/**
 * Per-judge metric parameters from the paper: the LNDS matching threshold γ was calibrated per
 * judge against human annotation (§4.4: 0.7 for GPT-5.4 Mini, 0.9 for Qwen3-8B, 0.2 for
 * BERTScore), and the OT positional weight β depends on the judge's kind (Appendix B.1: 0.2 for
 * the LLM judges, 0.1 for BERTScore).
 *
 * Fallback for a judge the paper did not calibrate: its kind's reference judge — γ = 0.7 (the
 * main judge GPT-5.4 Mini's value; LLM judges write scores on the same 0–1 rubric) for 'llm',
 * γ = 0.2 (BERTScore's) for 'similarity' — with `calibrated: false` so callers can warn that
 * γ was not fitted to that judge. β depends only on the kind, so it is never a guess.
 */
export type JudgeKind = 'llm' | 'similarity';

export interface JudgeParams {
  gamma: number;
  beta: number;
  /** True when γ comes from the paper's calibration of this very judge. */
  calibrated: boolean;
}

const BETA: Record<JudgeKind, number> = { llm: 0.2, similarity: 0.1 };
const FALLBACK_GAMMA: Record<JudgeKind, number> = { llm: 0.7, similarity: 0.2 };

/** Calibrated γ by normalised judge name (see normaliseJudgeName). */
const CALIBRATED_GAMMA: ReadonlyMap<string, number> = new Map([
  ['gpt-5.4-mini', 0.7],
  ['qwen3-8b', 0.9],
  ['bertscore', 0.2],
]);

/**
 * Lower-case, drop a provider prefix ("openai/", "Qwen/"), turn spaces and underscores into
 * hyphens: "GPT-5.4 Mini", "openai/gpt-5.4-mini" and "gpt_5.4_mini" are one judge.
 */
export function normaliseJudgeName(name: string): string {
  const base = name.trim().toLowerCase().split('/').pop() ?? '';
  return base.replace(/[\s_]+/g, '-');
}

/** Similarity judges are named for their method; everything else is taken to be an LLM. */
export function inferJudgeKind(name: string): JudgeKind {
  // The project's simulated similarity judges (stages/agents/judges/simulated-judges.ts) are named by
  // their measure: token-f1, char-ngram, tfidf.
  return /bert|similarity|cosine|embed|rouge|bleu|token-f1|char-ngram|tfidf/.test(normaliseJudgeName(name)) ? 'similarity' : 'llm';
}

export function judgeParams(name: string, kind: JudgeKind = inferJudgeKind(name)): JudgeParams {
  if (kind !== 'llm' && kind !== 'similarity') {
    throw new RangeError(`judgeParams: kind must be 'llm' or 'similarity', got ${JSON.stringify(kind)}`);
  }
  const key = normaliseJudgeName(name);
  // BERTScore variants ("bertscore-deberta-xlarge") share BERTScore's calibration.
  const gamma = CALIBRATED_GAMMA.get(key) ?? (key.startsWith('bertscore') ? CALIBRATED_GAMMA.get('bertscore') : undefined);
  return {
    gamma: gamma ?? FALLBACK_GAMMA[kind],
    beta: BETA[kind],
    calibrated: gamma !== undefined,
  };
}
