/**
 * A model as the stages that call it receive it: the name every row shows, whether it is an
 * offline stand-in, and everything sent to its server that can change an answer. A stage's
 * params enter its key, and a crossed param's element keys its own units, so this value puts a
 * model's answer-relevant settings in the key of every unit that calls it: pointing a name at
 * another checkpoint or changing a sampling param recomputes that model's units and nothing
 * else. Endpoints, keys, timeouts, rate limits and prices are not here, so changing them
 * recomputes nothing. The wiring builds these values once (stages/models/model-identity.ts).
 * The schemas declare them as stage params (pipeline/dag/params.ts).
 */
import { z } from '../../pipeline/stage.ts';

export interface ModelRef {
  /** The label of every row and table; what stages send as the request's model. */
  name: string;
  /** An offline stand-in: its rows are labelled simulated, never presented as LLM results. */
  simulated: boolean;
  /** The id sent to the server (a stand-in's is its name). */
  model: string;
  /** Sampling params sent with every request, as the models file declares them. */
  params: Record<string, unknown>;
  /** Seeded per-case samples (true) or one answer shared by identical prompts (false). */
  independentSamples: boolean;
  /** How the client derives a sample's seed: a new rule asks for new answers. */
  seedRule: string;
}

/** An evaluated model: crossed by the task stages, ranked by the reports. */
export interface EvaluatedModel extends ModelRef {
  /** The paper's model it stands for (the scorecard compares only these), or null. */
  paper: string | null;
}

/** The fields every model value has; the evaluated models' and judges' schemas extend it. */
export const modelRefFields = z.object({
  name: z.string().min(1),
  simulated: z.boolean(),
  model: z.string().min(1),
  params: z.record(z.string(), z.unknown()),
  independentSamples: z.boolean(),
  seedRule: z.string().min(1),
});

export const modelRefSchema: z.ZodType<ModelRef> = modelRefFields;

export const evaluatedModelSchema: z.ZodType<EvaluatedModel> = modelRefFields.extend({ paper: z.string().min(1).nullable() });

/** A list of models with distinct names (they label rows, and a crossed param's units). */
export const distinctNames = <T extends { name: string }>(schema: z.ZodType<T>, min = 0) =>
  z
    .array(schema)
    .min(min)
    .refine((xs) => new Set(xs.map((x) => x.name)).size === xs.length, 'names must be distinct');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The model a param or crossed element holds, or an error naming `what` and what it should be. */
export function modelRefOf(value: unknown, what: string): ModelRef {
  if (!isObject(value) || typeof value.name !== 'string' || value.name === '' || typeof value.simulated !== 'boolean') {
    throw new TypeError(
      `${what} is ${JSON.stringify(value)}, not a model; pass the roster's value for it ({ name, simulated, model, params, … }, stages/models/model-identity.ts), not a bare name`,
    );
  }
  return value as unknown as ModelRef;
}
