/**
 * The run's model roster: the paper's models (inactive until an endpoint is configured), the
 * offline construction stand-ins, and the simulated evaluated agents and patient. Which model
 * plays a role is decided here, from the resolved roster, so the choice enters stage params
 * (and therefore stage keys): configuring a server reruns exactly what it now answers.
 */
import { resolveRoster } from '../../pipeline/llm/roster.ts';
import type { LlmRole, ModelSpec } from '../../pipeline/llm/types.ts';
import { paperRoster } from './paper-roster.ts';
import { SIMULATED_ROSTER } from '../agents/roster.ts';
import { VIGNETTE_GENERATOR } from '../construct/vignette-writer.ts';
import { NARRATIVE_GENERATOR } from '../construct/narrative-writer.ts';
import { curatedBuilderModel } from '../agents/curated-builder.ts';
import { simulatedJudgeSpecs } from '../judge/simulated-judges.ts';

const standIn = (name: string, note: string): ModelSpec => ({ name, roles: ['builder'], provider: 'offline', simulated: true, note });

export const CONSTRUCTION_STAND_INS: ModelSpec[] = [
  curatedBuilderModel(),
  standIn(VIGNETTE_GENERATOR, 'simulated: deterministic vignette writer following Prompt 2 rules (no LLM)'),
  standIn(NARRATIVE_GENERATOR, 'simulated: deterministic narrative writer in Prompt 3 shape (no LLM)'),
];

/**
 * An embedding judge, when an embeddings endpoint is configured: CDP_EMBED_BASE_URL and
 * CDP_EMBED_MODEL (key in CDP_EMBED_API_KEY if the server wants one).
 */
export function embeddingJudgeSpecs(env: NodeJS.ProcessEnv = process.env): ModelSpec[] {
  const url = env.CDP_EMBED_BASE_URL?.trim();
  const model = env.CDP_EMBED_MODEL?.trim();
  if (!url || !model) return [];
  return [
    {
      name: `embed-${model}`,
      roles: ['judge'],
      provider: 'openai-compatible',
      baseURLs: url.split(',').map((u) => u.trim()),
      apiKeyEnv: 'CDP_EMBED_API_KEY',
      apiKeyOptional: true,
      modelId: model,
      note: 'embedding judge: cosine similarity of step embeddings',
    },
  ];
}

export function runRoster(env: NodeJS.ProcessEnv = process.env): ModelSpec[] {
  return resolveRoster([...paperRoster, ...CONSTRUCTION_STAND_INS, ...SIMULATED_ROSTER, ...simulatedJudgeSpecs(), ...embeddingJudgeSpecs(env)], env);
}

/** The first active real model holding the role, else the named offline stand-in. */
export function modelFor(roster: readonly ModelSpec[], role: LlmRole, standInName: string): string {
  return roster.find((m) => m.active && !m.simulated && m.roles.includes(role))?.name ?? standInName;
}

/** Every active model holding the role: the real ones, plus the simulated ones when asked (reference rows). */
export function modelsFor(roster: readonly ModelSpec[], role: LlmRole, withSimulated: boolean): string[] {
  const holders = roster.filter((m) => m.active && m.roles.includes(role));
  const real = holders.filter((m) => !m.simulated).map((m) => m.name);
  const simulated = holders.filter((m) => m.simulated).map((m) => m.name);
  return real.length && !withSimulated ? real : [...real, ...simulated];
}
