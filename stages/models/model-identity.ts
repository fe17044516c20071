/**
 * A model's identity in the stages' keys: from its roster entry, the part that can change an
 * answer (stages/roster/model-ref.ts). Every field of a models-file entry is classified below,
 * and the type makes a new field fail to compile until it is: 'answer' fields are sent to the
 * server and change what it answers, so they enter the key of every unit that calls the model;
 * 'label' fields say what the model is to the benchmark (its name, the stand-in flag) and
 * travel with it; 'transport' fields say how, where and at what cost a request is sent, and
 * must not enter a key (moving a model to another replica, raising its timeout or fixing its
 * price recomputes nothing).
 */
import { SEED_RULE } from '../../pipeline/llm/request-key.ts';
import type { ModelSpec } from '../../pipeline/llm/types.ts';
import type { EvaluatedModel, ModelRef } from '../roster/model-ref.ts';
import type { RunModel } from './models-file.ts';

export const FIELD_ROLES: Record<keyof RunModel, 'answer' | 'label' | 'transport'> = {
  modelId: 'answer',
  params: 'answer',
  independentSamples: 'answer',
  name: 'label',
  simulated: 'label',
  paper: 'label',
  // A judge's γ and β change its metrics, not its answers: they travel in its judge spec.
  calibration: 'label',
  roles: 'transport',
  provider: 'transport',
  baseURLs: 'transport',
  baseURLEnv: 'transport',
  apiKeyEnv: 'transport',
  apiKeyOptional: 'transport',
  // A larger window lets a refused prompt through; what the model answers to it is unchanged.
  contextWindow: 'transport',
  windowAssumed: 'transport',
  concurrency: 'transport',
  rpm: 'transport',
  tpm: 'transport',
  price: 'transport',
  expectedOutputTokens: 'transport',
  batch: 'transport',
  timeoutMs: 'transport',
  active: 'transport',
  inactiveReason: 'transport',
  note: 'transport',
  declaredIn: 'transport',
};

/** The model as the stages that call it receive it. */
export function modelRef(spec: ModelSpec): ModelRef {
  return {
    name: spec.name,
    simulated: spec.simulated === true,
    model: spec.modelId ?? spec.name,
    params: { ...(spec.params ?? {}) },
    independentSamples: spec.independentSamples ?? true,
    seedRule: SEED_RULE,
  };
}

export function evaluatedModel(spec: ModelSpec & { paper?: string }): EvaluatedModel {
  return { ...modelRef(spec), paper: spec.paper ?? null };
}

/** The roster entry of `name` as a ModelRef; an unknown name is a wiring mistake. */
export function refIn(roster: readonly ModelSpec[], name: string): ModelRef {
  const spec = roster.find((m) => m.name === name);
  if (!spec) throw new Error(`model ${name} is not in the run's roster; add it to the models file or to the stand-ins' roster`);
  return modelRef(spec);
}
