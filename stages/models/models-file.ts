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
 *         "judge": { "gamma": 0.7, "beta": 0.2 },   // judges only: LNDS γ and OT β
 *         "paper": "Qwen3-8B",               // the paper's model it stands for (scorecard)
 *         "note": "free text" } ] }
 *
 * A bare array of models is accepted as the `models` list.
 */
import type { LlmRole, ModelSpec } from '../../pipeline/llm/types.ts';
// The runner's one did-you-mean rule, so a typo in the models file is hinted as in dag.config.ts.
import { closestName } from '../../pipeline/dag/params.ts';
import { judgeParams } from '../metrics/judge-params.ts';
import { PAPER_MODEL_NAMES } from './paper-names.ts';

export const ROLES: readonly LlmRole[] = ['builder', 'evaluated', 'patient', 'judge'];

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

const ENTRY_KEYS = [
  'name',
  'baseURL',
  'model',
  'roles',
  'apiKeyEnv',
  'params',
  'contextWindow',
  'concurrency',
  'rpm',
  'tpm',
  'price',
  'batch',
  'timeoutMs',
  'independentSamples',
  'expectedOutputTokens',
  'enabled',
  'judge',
  'paper',
  'note',
] as const;
const TOP_KEYS = ['models', 'simulated', '$schema', 'description'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

function closest(word: string, known: readonly string[]): string {
  const hit = closestName(word, known);
  return hit ? ` (did you mean "${hit}"?)` : '';
}

/** Parses and validates a models file's text; `file` names it in every message. */
export function parseModelsFile(text: string, file: string): ModelsFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ModelsFileError(file, [`not valid JSON: ${(err as Error).message}`]);
  }
  const problems: string[] = [];
  let entries: unknown;
  let simulated = false;
  if (Array.isArray(doc)) entries = doc;
  else if (isObject(doc)) {
    for (const k of Object.keys(doc)) {
      if (!(TOP_KEYS as readonly string[]).includes(k))
        problems.push(`unknown top-level key "${k}"${closest(k, TOP_KEYS)}; known: ${TOP_KEYS.join(', ')}`);
    }
    entries = doc.models;
    if (doc.simulated !== undefined) {
      if (typeof doc.simulated !== 'boolean') problems.push(`"simulated" must be true or false, got ${JSON.stringify(doc.simulated)}`);
      else simulated = doc.simulated;
    }
  } else throw new ModelsFileError(file, ['must be a JSON object {"models": [...]} or an array of models']);
  if (!Array.isArray(entries)) throw new ModelsFileError(file, [...problems, '"models" must be an array of model entries']);

  const models: RunModel[] = [];
  const seen = new Map<string, number>();
  entries.forEach((entry, i) => {
    const m = parseEntry(entry, i, file, problems);
    if (!m) return;
    const first = seen.get(m.name);
    if (first !== undefined)
      problems.push(
        `model "${m.name}" (entry ${i + 1}): field "name": entry ${first + 1} has the same name; names label every table, so they must be unique`,
      );
    else seen.set(m.name, i);
    models.push(m);
  });
  if (problems.length) throw new ModelsFileError(file, problems);
  return { file, simulated, models };
}

function parseEntry(entry: unknown, i: number, file: string, problems: string[]): RunModel | null {
  if (!isObject(entry)) {
    problems.push(`entry ${i + 1}: must be an object with at least "name", "baseURL" and "roles"`);
    return null;
  }
  const label = typeof entry.name === 'string' && entry.name.trim() ? `model "${entry.name}" (entry ${i + 1})` : `entry ${i + 1}`;
  const bad = (field: string, what: string) => problems.push(`${label}: field "${field}": ${what}`);
  for (const k of Object.keys(entry)) {
    if (!(ENTRY_KEYS as readonly string[]).includes(k)) bad(k, `unknown key${closest(k, ENTRY_KEYS)}; known: ${ENTRY_KEYS.join(', ')}`);
  }
  const before = problems.length;
  const name = typeof entry.name === 'string' ? entry.name.trim() : '';
  if (!name) bad('name', 'missing or empty: every model needs the name its tables show');
  if (name.includes('simulated')) bad('name', '"simulated" is reserved for the offline stand-ins, so no reader mistakes one for the other');

  let baseURLs: string[] = [];
  if (entry.baseURL === undefined) bad('baseURL', 'missing: the server\'s OpenAI-compatible base URL, e.g. "http://127.0.0.1:8000/v1"');
  else {
    const list = Array.isArray(entry.baseURL) ? entry.baseURL : [entry.baseURL];
    if (!list.length) bad('baseURL', 'an empty list: give at least one URL');
    for (const u of list) {
      if (typeof u !== 'string' || !/^https?:\/\/[^\s/]+/.test(u.trim())) bad('baseURL', `${JSON.stringify(u)} is not an http(s) URL`);
      else baseURLs.push(u.trim().replace(/\/+$/, ''));
    }
    baseURLs = [...new Set(baseURLs)];
  }

  const roles: LlmRole[] = [];
  if (!Array.isArray(entry.roles) || !entry.roles.length) bad('roles', `missing or empty: a list of any of ${ROLES.join(', ')}`);
  else {
    for (const r of entry.roles) {
      if (typeof r !== 'string' || !(ROLES as readonly string[]).includes(r))
        bad('roles', `unknown role ${JSON.stringify(r)}; roles are ${ROLES.join(', ')}`);
      else if (!roles.includes(r as LlmRole)) roles.push(r as LlmRole);
    }
  }
  const str = (k: string): string | undefined => {
    const v = entry[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !v.trim()) {
      bad(k, `must be a non-empty string, got ${JSON.stringify(v)}`);
      return undefined;
    }
    return v.trim();
  };
  const int = (k: string): number | undefined => {
    const v = entry[k];
    if (v === undefined) return undefined;
    if (!isPositiveInt(v)) {
      bad(k, `must be a positive integer, got ${JSON.stringify(v)}`);
      return undefined;
    }
    return v;
  };
  const bool = (k: string): boolean | undefined => {
    const v = entry[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') {
      bad(k, `must be true or false, got ${JSON.stringify(v)}`);
      return undefined;
    }
    return v;
  };
  const modelId = str('model');
  const apiKeyEnv = str('apiKeyEnv');
  if (apiKeyEnv && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv)) {
    bad(
      'apiKeyEnv',
      `must be the NAME of an environment variable (e.g. "OPENAI_API_KEY"), not ${apiKeyEnv.length > 12 ? 'a key' : JSON.stringify(apiKeyEnv)}`,
    );
  }
  let params: Record<string, unknown> = {};
  if (entry.params !== undefined) {
    if (!isObject(entry.params)) bad('params', 'must be an object of sampling parameters, e.g. {"temperature": 0.6, "max_tokens": 4096}');
    else params = { ...entry.params };
    for (const k of ['model', 'messages', 'stream'])
      if (isObject(entry.params) && k in entry.params) bad('params', `"${k}" is set by the client, not a sampling parameter`);
  }
  const contextWindow = int('contextWindow');
  const concurrency = int('concurrency');
  const rpm = int('rpm');
  const tpm = int('tpm');
  const timeoutMs = int('timeoutMs');
  const expectedOutputTokens = int('expectedOutputTokens');
  let price: ModelSpec['price'];
  if (entry.price !== undefined) {
    const p = entry.price;
    const ok =
      isObject(p) &&
      typeof p.inputPerMTok === 'number' &&
      typeof p.outputPerMTok === 'number' &&
      p.inputPerMTok >= 0 &&
      p.outputPerMTok >= 0;
    const extra = isObject(p) ? Object.keys(p).filter((k) => k !== 'inputPerMTok' && k !== 'outputPerMTok') : [];
    if (!ok || extra.length) bad('price', `must be {"inputPerMTok": USD, "outputPerMTok": USD} with numbers ≥ 0, got ${JSON.stringify(p)}`);
    else price = { inputPerMTok: p.inputPerMTok as number, outputPerMTok: p.outputPerMTok as number };
  }
  const batch = bool('batch');
  const independentSamples = bool('independentSamples');
  const enabled = bool('enabled');
  const note = str('note');
  const paper = str('paper');
  if (paper && !PAPER_MODEL_NAMES.includes(paper))
    bad('paper', `"${paper}" is not a model of the paper; known: ${PAPER_MODEL_NAMES.join(', ')}`);

  let calibration: RunModel['calibration'];
  if (entry.judge !== undefined && !roles.includes('judge'))
    bad('judge', 'a calibration for a model without the "judge" role; add "judge" to roles or drop the field');
  if (roles.includes('judge')) {
    const fallback = judgeParams(paper ?? name, 'llm');
    const j = entry.judge;
    if (j === undefined) calibration = { gamma: fallback.gamma, beta: fallback.beta, calibrated: fallback.calibrated };
    else if (!isObject(j)) bad('judge', 'must be {"gamma": number in (0, 1], "beta": number ≥ 0}');
    else {
      const extra = Object.keys(j).filter((k) => k !== 'gamma' && k !== 'beta');
      if (extra.length)
        bad('judge', `unknown key "${extra[0]}"; a judge's calibration has "gamma" (LNDS threshold) and "beta" (OT positional weight)`);
      const gamma = j.gamma ?? fallback.gamma;
      const beta = j.beta ?? fallback.beta;
      if (typeof gamma !== 'number' || !(gamma > 0 && gamma <= 1))
        bad('judge', `"gamma" must be a number in (0, 1] (the LNDS matching threshold on C), got ${JSON.stringify(j.gamma)}`);
      else if (typeof beta !== 'number' || !(beta >= 0) || !Number.isFinite(beta))
        bad('judge', `"beta" must be a finite number ≥ 0 (the OT positional weight), got ${JSON.stringify(j.beta)}`);
      else calibration = { gamma, beta, calibrated: j.gamma !== undefined || fallback.calibrated };
    }
  }
  if (problems.length > before) return null;
  return {
    name,
    roles,
    provider: 'openai-compatible',
    baseURLs,
    ...(apiKeyEnv ? { apiKeyEnv } : {}),
    modelId: modelId ?? name,
    params,
    contextWindow: contextWindow ?? MODEL_DEFAULTS.contextWindow,
    ...(contextWindow === undefined ? { windowAssumed: true } : {}),
    concurrency: concurrency ?? MODEL_DEFAULTS.concurrency,
    ...(rpm ? { rpm } : {}),
    ...(tpm ? { tpm } : {}),
    price: price ?? { inputPerMTok: 0, outputPerMTok: 0 },
    batch: batch ?? false,
    timeoutMs: timeoutMs ?? MODEL_DEFAULTS.timeoutMs,
    ...(expectedOutputTokens ? { expectedOutputTokens } : {}),
    independentSamples: independentSamples ?? MODEL_DEFAULTS.independentSamples,
    // resolveRoster names the reason ("disabled in the models file").
    ...(enabled === false ? { active: false } : {}),
    ...(note ? { note } : {}),
    ...(paper ? { paper } : {}),
    ...(calibration ? { calibration } : {}),
    declaredIn: file,
  };
}
