/**
 * The simulated models: roster entries (`provider: 'offline'`, `simulated: true`, names that
 * all contain "simulated") and the offline providers the LLM client calls for them, which answer
 * from each call's unit context (stages/tasks/unit-context.ts).
 *
 * Default roster (evaluated unless noted):
 *   simulated-oracle                  the reference pathway and conclusion (upper bound)
 *   simulated-omission-0.3            one deviation type each, at rate 0.3 (perturb.ts)
 *   simulated-redundancy-0.3
 *   simulated-skipping-0.3
 *   simulated-reversal-0.3
 *   simulated-mixed-0.15-wrong-0.2    all four at 0.15, and a wrong outcome in 20 % of cases
 *   simulated-lexical-walker          model-free baseline (lexical-walker.ts)
 *   simulated-patient                 the multi-turn patient environment (role: patient)
 * Any other name `profileFromName` accepts can be added with `simulatedModel(name)`.
 */
import type { LlmRole, ModelSpec, Provider } from '../../pipeline/llm/types.ts';
import { createWalkerHandler, WALKER_NAME } from './lexical-walker.ts';
import { createPatientHandler, PATIENT_NAME } from './offline-patient.ts';
import { createOracleHandler, ORACLE_NAME } from './oracle.ts';
import { createPerturbationHandler } from './perturbation-agent.ts';
import { isPerturbationName } from './perturbation-profile.ts';

export const DEFAULT_SIMULATED_EVALUATED: readonly string[] = [
  ORACLE_NAME,
  'simulated-omission-0.3',
  'simulated-redundancy-0.3',
  'simulated-skipping-0.3',
  'simulated-reversal-0.3',
  'simulated-mixed-0.15-wrong-0.2',
  WALKER_NAME,
];

function noteFor(name: string): string {
  if (name === ORACLE_NAME) return 'simulated: answers with the reference pathway and conclusion (offline, deterministic)';
  if (name === WALKER_NAME) return 'simulated: lexical tree-walker baseline, no language model (offline, deterministic)';
  if (name === PATIENT_NAME) return 'simulated: offline patient answering from the reference path and the vignette';
  return 'simulated: the oracle with seeded process deviations (offline, deterministic); ground truth in agent_plans';
}

/** The roster entry of a simulated model. */
export function simulatedModel(name: string): ModelSpec {
  if (!name.includes('simulated')) {
    throw new Error(
      `simulatedModel: "${name}" does not contain "simulated"; offline agents must be named so no reader mistakes them for LLMs`,
    );
  }
  if (name !== PATIENT_NAME && name !== WALKER_NAME && !isPerturbationName(name)) {
    throw new Error(
      `simulatedModel: no offline agent is called "${name}"; use ${ORACLE_NAME}, ${WALKER_NAME}, ${PATIENT_NAME} or simulated-<omission|redundancy|skipping|reversal|mixed>-<rate>[-wrong-<rate>]`,
    );
  }
  const roles: LlmRole[] = name === PATIENT_NAME ? ['patient'] : ['evaluated'];
  return { name, roles, provider: 'offline', simulated: true, note: noteFor(name) };
}

export const SIMULATED_ROSTER: readonly ModelSpec[] = [...DEFAULT_SIMULATED_EVALUATED, PATIENT_NAME].map(simulatedModel);

/** The handler of one simulated model. */
export function offlineHandlerFor(name: string): Provider {
  simulatedModel(name);
  if (name === ORACLE_NAME) return createOracleHandler();
  if (name === WALKER_NAME) return createWalkerHandler();
  if (name === PATIENT_NAME) return createPatientHandler();
  return createPerturbationHandler(name);
}

/** Handlers for the LLM client's `offlineHandlers`, one per simulated name (default: the default roster). */
export function offlineHandlers(names: readonly string[] = SIMULATED_ROSTER.map((m) => m.name)): Record<string, Provider> {
  return Object.fromEntries(names.map((n) => [n, offlineHandlerFor(n)]));
}
