/**
 * The one-model shortcut: `CDP_LLM_BASE_URL` + `CDP_LLM_MODEL` (and optionally
 * `CDP_LLM_API_KEY`, `CDP_LLM_CONTEXT_WINDOW`, `CDP_LLM_CONCURRENCY`; timeouts from `CDP_LLM_TIMEOUT_S`) read as
 * a models file holding one model with every role. Kept because a single local server is the
 * quickest way to try the pipeline; the run warns that the model plays every role.
 */
import type { OneModel } from '../../pipeline/index.ts';
import { judgeParams } from '../metrics/judge-params.ts';
import { MODEL_DEFAULTS, ModelsFileError, ROLES, type ModelsFile } from './models-file.ts';
import { urlProblem } from './models-schema.ts';

export const ENV_SOURCE = 'CDP_LLM_BASE_URL/CDP_LLM_MODEL';

/** The one-model file of the options (read from CDP_LLM_* at the CLI edge), null when CDP_LLM_BASE_URL is unset. */
export function modelsFromEnv(llm: OneModel | null): ModelsFile | null {
  const url = llm?.baseURL.trim();
  if (!url) return null;
  const name = llm!.model?.trim();
  const problems: string[] = [];
  if (!name)
    problems.push(
      'CDP_LLM_BASE_URL is set but CDP_LLM_MODEL is not: name the model the server serves (CDP_LLM_MODEL=org/model), or declare your models in models.json',
    );
  const baseURLs = url
    .split(',')
    .map((u) => u.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const u of baseURLs) {
    const problem = /^https?:\/\//.test(u) ? urlProblem(u) : 'does not start with http:// or https://';
    if (problem) problems.push(`CDP_LLM_BASE_URL: "${u}" is not a usable http(s) URL: it ${problem}`);
  }
  const given = { CDP_LLM_CONTEXT_WINDOW: llm!.contextWindow, CDP_LLM_CONCURRENCY: llm!.concurrency };
  const int = (k: keyof typeof given): number | undefined => {
    const v = given[k]?.trim();
    if (!v) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) problems.push(`${k} must be a positive integer, got "${v}"`);
    return n;
  };
  const contextWindow = int('CDP_LLM_CONTEXT_WINDOW');
  const concurrency = int('CDP_LLM_CONCURRENCY');
  if (problems.length) throw new ModelsFileError(ENV_SOURCE, problems);
  return {
    file: ENV_SOURCE,
    simulated: false,
    models: [
      {
        name: name!,
        roles: [...ROLES],
        provider: 'openai-compatible',
        baseURLs,
        apiKeyEnv: 'CDP_LLM_API_KEY',
        apiKeyOptional: true,
        modelId: name!,
        params: {},
        contextWindow: contextWindow ?? MODEL_DEFAULTS.contextWindow,
        ...(contextWindow === undefined ? { windowAssumed: true } : {}),
        concurrency: concurrency ?? MODEL_DEFAULTS.concurrency,
        timeoutMs: MODEL_DEFAULTS.timeoutMs,
        price: { inputPerMTok: 0, outputPerMTok: 0 },
        independentSamples: MODEL_DEFAULTS.independentSamples,
        calibration: judgeParams(name!, 'llm'),
        note: `from ${ENV_SOURCE}`,
        declaredIn: ENV_SOURCE,
      },
    ],
  };
}
