/**
 * Three offline (simulated) judges that are not LLMs: lexical similarity functions dressed as
 * judges. Each is an offline provider, registered in the roster like any model, that answers a
 * Prompt 5 or 8 call with "R<i>-C<j>: <score>" lines and a Prompt 9 call with one integer, so its
 * answers go through the same parsers, averaging and normalisation as an LLM judge's. It reads
 * the pathways or conclusions from the call's context (judge-context.ts), never from the prompt. They let
 * the whole evaluation run without a model, and give a cheap lexical baseline against which the
 * LLM judges' agreement can be read (the role BERTScore plays in the paper, §3.3 and §4.5).
 *
 * - simulated-token-f1: token-overlap F1 (similarity-token-f1.ts)
 * - simulated-char-ngram: character-trigram cosine (similarity-char-ngram.ts)
 * - simulated-tfidf: TF-IDF cosine, IDF over the steps of the prompt (similarity-tfidf.ts)
 *
 * A re-ask turn carries the same context, so it cannot change a deterministic answer. Its five repeats are identical, so averaging changes nothing;
 * they are still five calls, like an LLM judge's, but the answer is computed once (answerMemo). Scores go from similarity s to 1 + round(4·s)
 * (likert-from-similarity.ts). Their kind for the metrics is 'similarity' (β = 0.1).
 */
import type { ModelSpec, Provider } from '../../../pipeline/llm/types.ts';
import type { JudgeKind } from '../../metrics/judge-params.ts';
import { answerMemo } from './answer-memo.ts';
import { likertFromSimilarity } from './likert-from-similarity.ts';
import { charNgramMatrix } from './similarity-char-ngram.ts';
import { tfidfMatrix } from './similarity-tfidf.ts';
import { tokenF1Matrix } from './similarity-token-f1.ts';
import { judgeContextOf, type JudgeContext } from '../../judge/judge-context.ts';

export interface SimilarityJudge {
  name: string;
  kind: JudgeKind;
  /** One line for roster listings and reports. */
  description: string;
  /** Raw similarities in [0, 1], m×n row-major (reference rows, candidate columns). */
  matrix(reference: readonly string[], candidate: readonly string[]): Float64Array;
}

export const SIMULATED_JUDGES: readonly SimilarityJudge[] = [
  {
    name: 'simulated-token-f1',
    kind: 'similarity',
    description: 'token-overlap F1 (CJK per character, Latin lower-cased, stop words dropped); not an LLM',
    matrix: (r, c) => tokenF1Matrix(r, c),
  },
  {
    name: 'simulated-char-ngram',
    kind: 'similarity',
    description: 'character trigram cosine; not an LLM',
    matrix: (r, c) => charNgramMatrix(r, c, 3),
  },
  {
    name: 'simulated-tfidf',
    kind: 'similarity',
    description: 'TF-IDF cosine, IDF over the steps in the prompt; not an LLM',
    matrix: (r, c) => tfidfMatrix(r, c),
  },
];

export const SIMULATED_JUDGE_NAMES = SIMULATED_JUDGES.map((j) => j.name);

export function simulatedJudge(name: string): SimilarityJudge {
  const j = SIMULATED_JUDGES.find((x) => x.name === name);
  if (!j) throw new Error(`no simulated judge named "${name}"; known: ${SIMULATED_JUDGE_NAMES.join(', ')}`);
  return j;
}

/** The answer to Prompt 5/8: one line per reference step, as the prompt's output format asks. */
export function stepScoreAnswer(similarities: Float64Array, m: number, n: number): string {
  if (similarities.length !== m * n) throw new RangeError(`similarity matrix has ${similarities.length} entries, expected m×n = ${m}×${n}`);
  const lines: string[] = [];
  for (let i = 0; i < m; i++) {
    const row: string[] = [];
    for (let j = 0; j < n; j++) row.push(`R${i + 1}-C${j + 1}: ${likertFromSimilarity(similarities[i * n + j])}`);
    lines.push(row.join(', '));
  }
  return lines.join('\n');
}

/** The answer to a judging call, from what its prompt shows (judge-context.ts). */
export function answerJudging(judge: SimilarityJudge, c: JudgeContext): string {
  if (c.judging === 'outcome') return String(likertFromSimilarity(judge.matrix([c.reference], [c.candidate])[0]));
  return stepScoreAnswer(judge.matrix(c.reference, c.candidate), c.reference.length, c.candidate.length);
}

/**
 * A simulated judge as an offline provider: it answers from the call's context, so a re-ask
 * (more messages, the same context) gets the same deterministic answer.
 */
export function simulatedJudgeHandler(name: string): Provider {
  const judge = simulatedJudge(name);
  const answer = answerMemo((c) => answerJudging(judge, c));
  return {
    answersFromContext: true,
    async callApi(_prompt, context) {
      return { output: answer(judgeContextOf(context, judge.name)) };
    },
  };
}

/** Providers for createLlmClient({ offlineHandlers }). */
export function simulatedJudgeHandlers(): Record<string, Provider> {
  return Object.fromEntries(SIMULATED_JUDGE_NAMES.map((n) => [n, simulatedJudgeHandler(n)]));
}

/** Roster entries for the three judges: offline, role judge, labelled simulated. */
export function simulatedJudgeSpecs(): ModelSpec[] {
  return SIMULATED_JUDGES.map((j) => ({
    name: j.name,
    roles: ['judge'],
    provider: 'offline',
    simulated: true,
    price: { inputPerMTok: 0, outputPerMTok: 0 },
    note: `simulated judge: ${j.description}`,
  }));
}
