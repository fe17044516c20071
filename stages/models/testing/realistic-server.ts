/**
 * A local OpenAI-compatible server (fake-openai-server.ts) that answers the nine prompts the way
 * current chat models do: the labelled variants and faults of realistic-answers.ts. Which answer a
 * request gets is decided by its prompt (promptKind, as plain-model.ts tells them apart) and by
 * the model's name, so a DAG run with the models of `realisticModels()` meets every label:
 *
 * - `rs-…` (evaluated): its single-turn label for Prompt 4; a plain doctor otherwise.
 * - `rd-…` (evaluated): its doctor label as the first turn of Prompt 6 (then, after an accepted
 *   question, "Final Conclusion: …"); a plain single-turn answer otherwise.
 * - `rp-…` (evaluated, probing the patient): asks "Does the patient have the finding coded <id>?"
 *   and then concludes. The patient (any name) answers a "coded <id>" question with that patient
 *   label, and the one re-ask (a follow-up saying the reply "could not be read") with the label's
 *   `reask`; any other question with "Yes.".
 * - `rj-…` (judge): its step-score label for Prompts 5 and 8 (re-asks get the same answer, as a
 *   stubborn judge would), its outcome label for Prompt 9; strict answers for the other prompts.
 * - `rb-…` (builder): its tree, vignette or narrative label for Prompts 1–3.
 * Everything else gets plain-model.ts's strict answer.
 */
import {
  startFakeOpenAIServer,
  type Answer,
  type ChatBody,
  type FakeOpenAIServer,
} from '../../../pipeline/llm/testing/fake-openai-server.ts';
import type { ModelSpec } from '../../../pipeline/llm/types.ts';
import { plainAnswer, promptKind } from './plain-model.ts';
import { REALISTIC_ANSWERS, type LabelledAnswer } from './realistic-answers.ts';

const PREFIX: Record<LabelledAnswer['prompt'], string> = {
  'single-turn-inference': 'rs-',
  'multi-turn-inference': 'rd-',
  'multi-turn-patient-environment': 'rp-',
  'single-turn-step-level-consistency-scoring': 'rj-',
  'multi-turn-step-level-consistency-scoring': 'rj-',
  'outcome-accuracy-scoring': 'rj-',
  'reasoning-tree-extraction': 'rb-',
  'case-vignette-synthesis': 'rb-',
  'reasoning-narrative-conversion': 'rb-',
};

/** The model (or judge, or builder) name that meets a label. */
export const modelFor = (a: LabelledAnswer): string => `${PREFIX[a.prompt]}${a.id}`;

const byModel = new Map(REALISTIC_ANSWERS.map((a) => [modelFor(a), a]));
const CONCLUDE = "Final Conclusion: Manage according to the guideline's recommendation.";
const REASK = /could not be read|无法读取/;

const sizes = (prompt: string) => ({
  m: Number(/from R1 to R(\d+)/.exec(prompt)?.[1] ?? 0),
  n: Number(/from C1 to C(\d+)/.exec(prompt)?.[1] ?? 0),
});
const serve = (text: string, finishReason?: string): Answer => (finishReason ? { content: text, finishReason } : text);

export function realisticAnswer(body: ChatBody): Answer {
  const kind = promptKind(body);
  const own = byModel.get(body.model);
  // One step-score label serves Prompts 5 and 8 alike.
  const stepPrompt = (k: string) => k.endsWith('step-level-consistency-scoring');
  const label = own && (own.prompt === kind || (stepPrompt(kind) && stepPrompt(own.prompt))) ? own : undefined;
  const asked = body.messages.filter((m) => m.role === 'assistant').length;
  switch (kind) {
    case 'multi-turn-inference':
      if (body.model.startsWith('rp-')) return asked === 0 ? `Does the patient have the finding coded ${body.model.slice(3)}?` : CONCLUDE;
      if (label) return asked === 0 ? serve(label.text as string, label.finishReason) : CONCLUDE;
      return plainAnswer(body);
    case 'multi-turn-patient-environment': {
      const users = body.messages.filter((m) => m.role === 'user').map((m) => m.content);
      const last = users.at(-1) ?? '';
      const probe = byModel.get(`rp-${/coded ([\w-]+)\?/.exec(last)?.[1] ?? ''}`);
      if (!probe) return 'Yes.';
      if (REASK.test(last) && probe.reask) return serve(probe.reask.text, probe.reask.finishReason);
      return serve(probe.text as string, probe.finishReason);
    }
    case 'single-turn-step-level-consistency-scoring':
    case 'multi-turn-step-level-consistency-scoring': {
      if (!label) return plainAnswer(body);
      const { m, n } = sizes(body.messages[0]!.content);
      return serve(typeof label.text === 'string' ? label.text : label.text(m, n), label.finishReason);
    }
    default:
      return label ? serve(label.text as string, label.finishReason) : plainAnswer(body);
  }
}

export function startRealisticServer(): Promise<FakeOpenAIServer> {
  return startFakeOpenAIServer({ answer: realisticAnswer });
}

/** The names that meet the labels of one or more prompts, in catalogue order. */
export function realisticModels(...prompts: LabelledAnswer['prompt'][]): string[] {
  return REALISTIC_ANSWERS.filter((a) => prompts.includes(a.prompt)).map(modelFor);
}

/** Roster entries for the server at `url`: the given evaluated models and judges, and a patient. */
export function realisticRoster(
  url: string,
  evaluated: readonly string[],
  judges: readonly string[],
  patient = 'realistic-patient',
): ModelSpec[] {
  const spec = (name: string, roles: ModelSpec['roles']): ModelSpec => ({
    name,
    roles,
    provider: 'openai-compatible',
    baseURLs: [url],
    apiKeyOptional: true,
    modelId: name,
    contextWindow: 100_000,
  });
  return [...evaluated.map((n) => spec(n, ['evaluated'])), ...judges.map((n) => spec(n, ['judge'])), spec(patient, ['patient'])];
}
