/**
 * Roster values for tests, built by the wiring's own functions (stages/models): a real model or
 * judge from a minimal spec, the simulated agents, patient and judges as a run would pass them.
 */
import type { ModelSpec } from '../../../pipeline/llm/types.ts';
import { DEFAULT_SIMULATED_EVALUATED, simulatedModel } from '../../agents/roster.ts';
import { PATIENT_NAME } from '../../agents/offline-patient.ts';
import { SIMULATED_JUDGES, simulatedJudgeSpecs } from '../../agents/judges/simulated-judges.ts';
import { judgeSpecs } from '../../models/judge-specs.ts';
import { evaluatedModel, modelRef } from '../../models/model-identity.ts';
import type { RunModel } from '../../models/models-file.ts';
import type { EvaluatedModel, ModelRef } from '../model-ref.ts';
import type { JudgeKind, JudgeSpec } from '../judge-spec.ts';

const spec = (name: string, over: Partial<RunModel>): ModelSpec => ({ name, roles: ['evaluated'], provider: 'openai-compatible', ...over });

/** A real model's value: id = name, no params, unless `over` says otherwise. */
export function realModel(name: string, over: Partial<RunModel> = {}): EvaluatedModel {
  return evaluatedModel(spec(name, over));
}

/** A simulated agent's (or the simulated patient's) value. */
export function simulatedAgent(name: string): EvaluatedModel {
  return evaluatedModel(simulatedModel(name));
}

export const simulatedAgents = (names: readonly string[] = DEFAULT_SIMULATED_EVALUATED): EvaluatedModel[] => names.map(simulatedAgent);

export const simulatedPatient = (): ModelRef => modelRef(simulatedModel(PATIENT_NAME));

/** An offline writer's value (its roster entry: offline, simulated). */
export const simulatedWriter = (name: string): ModelRef => modelRef({ name, roles: ['builder'], provider: 'offline', simulated: true });

/** A real judge's spec (kind 'llm' unless said), with the calibration and budget the wiring would give it. */
export function realJudge(name: string, over: Partial<RunModel> & { kind?: JudgeKind } = {}): JudgeSpec {
  const { kind = 'llm', ...rest } = over;
  const m = { ...spec(name, rest), roles: ['judge' as const], declaredIn: 'test' } as RunModel;
  return judgeSpecs([m], [m], [{ name, kind }])[0]!;
}

/** The simulated similarity judges, as the offline run passes them. */
export function simulatedJudges(names: readonly string[] = SIMULATED_JUDGES.map((j) => j.name)): JudgeSpec[] {
  const choices = SIMULATED_JUDGES.filter((j) => names.includes(j.name)).map((j) => ({ name: j.name, kind: j.kind }));
  return judgeSpecs(simulatedJudgeSpecs(), [], choices);
}
