/**
 * Three offline (simulated) judges that are not LLMs: lexical similarity functions dressed as
 * judges. Each is an OfflineHandler, registered in the roster like any model, that answers the
 * rendered Prompt 5 or 8 with "R<i>-C<j>: <score>" lines and Prompt 9 with one integer, so its
 * answers go through the same parsers, averaging and normalisation as an LLM judge's. They let
 * the whole evaluation run without a model, and give a cheap lexical baseline against which the
 * LLM judges' agreement can be read (the role BERTScore plays in the paper, §3.3 and §4.5).
 *
 * - simulated-token-f1: token-overlap F1 (similarity-token-f1.ts)
 * - simulated-char-ngram: character-trigram cosine (similarity-char-ngram.ts)
 * - simulated-tfidf: TF-IDF cosine, IDF over the steps of the prompt (similarity-tfidf.ts)
 *
 * The handler reads only the first user message (the rendered prompt): a re-ask turn cannot
 * change a deterministic answer. Its five repeats are identical, so averaging changes nothing;
 * they are still five calls, like an LLM judge's. Scores go from similarity s to 1 + round(4·s)
 * (likert-from-similarity.ts). Their kind for the metrics is 'similarity' (β = 0.1).
 */
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatRequest, ModelSpec, OfflineHandler } from '../../pipeline/llm/types.ts';
import { DEFAULT_TEMPLATES_ROOT, loadTemplate, type Template } from '../prompts/templates.ts';
import { promptSpec } from '../prompts/prompt-registry.ts';
import type { JudgeKind } from '../metrics/judge-params.ts';
import { likertFromSimilarity } from './likert-from-similarity.ts';
import { charNgramMatrix } from './similarity-char-ngram.ts';
import { tfidfMatrix } from './similarity-tfidf.ts';
import { tokenF1Matrix } from './similarity-token-f1.ts';
import { findLabelledPathways } from './unlabel-pathway.ts';
import { unrenderTemplate } from './unrender-template.ts';

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

/** Outcome templates of every language present under the templates root, loaded once. */
const outcomeTemplateCache = new Map<string, Template[]>();
function outcomeTemplates(root: string): Template[] {
  let ts = outcomeTemplateCache.get(root);
  if (!ts) {
    const file = promptSpec('outcome-accuracy-scoring').file;
    const languages = readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, d.name, file)))
      .map((d) => d.name);
    ts = languages.map((lang) => loadTemplate('outcome-accuracy-scoring', lang, { root }));
    outcomeTemplateCache.set(root, ts);
  }
  return ts;
}

function promptText(req: ChatRequest): string {
  const first = req.messages.find((m) => m.role === 'user');
  if (!first) throw new Error('the request has no user message; a judge prompt is sent as one user message');
  if (typeof first.content === 'string') return first.content;
  return first.content
    .map((p) => {
      if (p.type === 'text') return p.text;
      throw new Error('the prompt holds an unresolved blob part; simulated judges read text (the client flattens blobs before calling offline handlers)');
    })
    .join('');
}

/**
 * The judge's answer to a rendered prompt: Prompt 9 is recognised by its template (any language
 * present under `templatesRoot`), Prompts 5 and 8 by their labelled pathways.
 */
export function answerPrompt(judge: SimilarityJudge, prompt: string, templatesRoot = DEFAULT_TEMPLATES_ROOT): string {
  for (const t of outcomeTemplates(templatesRoot)) {
    const v = unrenderTemplate(t, prompt);
    if (v) {
      const s = judge.matrix([v.Reference_Conclusion.trim()], [v.Candidate_Conclusion.trim()]);
      return String(likertFromSimilarity(s[0]));
    }
  }
  const p = findLabelledPathways(prompt);
  if (p) return stepScoreAnswer(judge.matrix(p.reference, p.candidate), p.reference.length, p.candidate.length);
  throw new Error(`${judge.name} answers only Prompts 5, 8 (labelled R1…/C1… pathways) and 9 (outcome scoring); this prompt is neither (it begins ${JSON.stringify(prompt.slice(0, 60))})`);
}

export function simulatedJudgeHandler(name: string, templatesRoot = DEFAULT_TEMPLATES_ROOT): OfflineHandler {
  const judge = simulatedJudge(name);
  return (req) => answerPrompt(judge, promptText(req), templatesRoot);
}

/** Handlers for createLlmClient({ offlineHandlers }). */
export function simulatedJudgeHandlers(templatesRoot = DEFAULT_TEMPLATES_ROOT): Record<string, OfflineHandler> {
  return Object.fromEntries(SIMULATED_JUDGE_NAMES.map((n) => [n, simulatedJudgeHandler(n, templatesRoot)]));
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
