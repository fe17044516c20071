/**
 * The models file: every model a run may call, declared as JSON instead of code, so a researcher
 * names their own models (promptfoo's providers list, Inspect's model args) without editing the
 * project. The file is validated whole before anything runs; every problem names the file, the
 * model and the field, and all problems are reported at once.
 *
 *   {
 *     "simulated": false,                    // also run the simulated reference agents and judges
 *     "models": [
 *       { "name": "my-med-llm",              // the label every table and figure shows
 *         "baseURL": "http://127.0.0.1:8000/v1",   // or an array of replicas
 *         "model": "org/my-med-llm",         // the id sent to the server (default: name)
 *         "roles": ["evaluated"],            // any of builder, evaluated, patient, judge
 *         "apiKeyEnv": "VLLM_API_KEY",       // the NAME of the variable holding the key
 *         "params": { "temperature": 0.6, "max_tokens": 4096 },   // sent as given
 *         "contextWindow": 131072, "concurrency": 16, "rpm": 600, "tpm": 2000000,
 *         "price": { "inputPerMTok": 0.1, "outputPerMTok": 0.4 }, "batch": false,
 *         "timeoutMs": 600000, "independentSamples": true, "expectedOutputTokens": 2048, "enabled": true,
 *         "retry": { "waitForServerMs": 300000, "maxAttempts": 5 },   // over the LLM client's defaults
 *         "judge": { "gamma": 0.7, "beta": 0.2 },   // judges only: LNDS γ and OT β
 *         "paper": "Qwen3-8B",               // the paper's model it stands for (scorecard)
 *         "note": "free text" } ] }
 *
 * A bare array of models is accepted as the `models` list.
 */
import type { ModelSpec } from '../../pipeline/llm/types.ts';
import { judgeParams } from '../metrics/judge-params.ts';
import { ModelsFileSchema, ROLES, type ModelEntry } from './models-schema.ts';
import { modelsFileProblems } from './models-file-problems.ts';

export { ROLES };

/** Defaults for what an entry leaves out; each is documented in the README's models-file table. */
export const MODEL_DEFAULTS = {
  /** The paper required 40K; most served models offer at least 32K, which is what we assume. */
  contextWindow: 32_768,
  concurrency: 16,
  /** Per attempt: long generations (reasoning models, 4K-token answers) are normal. */
  timeoutMs: 600_000,
  independentSamples: true,
} as const;

/** A model of the run: the client's spec plus what the benchmark needs to know of it. */
export interface RunModel extends ModelSpec {
  /** The paper's model it stands for; only such models are compared with published numbers. */
  paper?: string;
  /** For judges: LNDS threshold γ and OT positional weight β. */
  calibration?: { gamma: number; beta: number; calibrated: boolean };
  /** Where the model was declared (a file path, or the environment variables). */
  declaredIn: string;
  /** True when the window was not declared and MODEL_DEFAULTS.contextWindow is assumed. */
  windowAssumed?: boolean;
  /** How long its calls wait for its server and how often other faults are retried (over the client's defaults). */
  retry?: { waitForServerMs?: number; maxAttempts?: number };
}

export interface ModelsFile {
  file: string;
  simulated: boolean;
  models: RunModel[];
}

export class ModelsFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file}: ${problems.length === 1 ? problems[0] : `${problems.length} problems:\n  - ${problems.join('\n  - ')}`}`);
    this.name = 'ModelsFileError';
  }
}

/**
 * Parses and validates a models file's text (models-schema.ts); `file` names it in every message.
 * A UTF-8 byte order mark, which Windows editors write, is dropped.
 */
export function parseModelsFile(text: string, file: string): ModelsFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ModelsFileError(file, [`not valid JSON: ${(err as Error).message}`]);
  }
  // A bare array of models is the models list.
  const wrapped = Array.isArray(doc) ? { models: doc } : doc;
  const parsed = ModelsFileSchema.safeParse(wrapped);
  if (!parsed.success) throw new ModelsFileError(file, modelsFileProblems(parsed.error.issues, (wrapped ?? {}) as { models?: unknown }));
  return { file, simulated: parsed.data.simulated ?? false, models: parsed.data.models.map((m) => runModel(m, file)) };
}

/** A valid entry as the client's spec: defaults filled in, replicas' URLs without trailing slashes. */
function runModel(e: ModelEntry, file: string): RunModel {
  const urls = (Array.isArray(e.baseURL) ? e.baseURL : [e.baseURL]).map((u) => u.replace(/\/+$/, ''));
  const roles = [...new Set(e.roles)];
  return {
    name: e.name,
    roles,
    provider: 'openai-compatible',
    baseURLs: [...new Set(urls)],
    ...(e.apiKeyEnv ? { apiKeyEnv: e.apiKeyEnv } : {}),
    modelId: e.model ?? e.name,
    params: { ...(e.params ?? {}) },
    contextWindow: e.contextWindow ?? MODEL_DEFAULTS.contextWindow,
    ...(e.contextWindow === undefined ? { windowAssumed: true } : {}),
    concurrency: e.concurrency ?? MODEL_DEFAULTS.concurrency,
    ...(e.rpm ? { rpm: e.rpm } : {}),
    ...(e.tpm ? { tpm: e.tpm } : {}),
    price: e.price ?? { inputPerMTok: 0, outputPerMTok: 0 },
    batch: e.batch ?? false,
    timeoutMs: e.timeoutMs ?? MODEL_DEFAULTS.timeoutMs,
    ...(e.retry ? { retry: { ...e.retry } } : {}),
    ...(e.expectedOutputTokens ? { expectedOutputTokens: e.expectedOutputTokens } : {}),
    independentSamples: e.independentSamples ?? MODEL_DEFAULTS.independentSamples,
    // resolveRoster names the reason ("disabled in the models file").
    ...(e.enabled === false ? { active: false } : {}),
    ...(e.note ? { note: e.note } : {}),
    ...(e.paper ? { paper: e.paper } : {}),
    ...(roles.includes('judge') ? { calibration: calibrationOf(e) } : {}),
    declaredIn: file,
  };
}

/** A judge's γ and β: as given, the rest from the paper's calibration of the model it stands for, else the fallback. */
function calibrationOf(e: ModelEntry): NonNullable<RunModel['calibration']> {
  const fallback = judgeParams(e.paper ?? e.name, 'llm');
  const gamma = e.judge?.gamma ?? fallback.gamma;
  const beta = e.judge?.beta ?? fallback.beta;
  return { gamma, beta, calibrated: e.judge?.gamma !== undefined || fallback.calibrated };
}
