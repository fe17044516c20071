/**
 * Turns the declared roster into the one a run uses: endpoints from the environment and which
 * models are active. Key values are never copied into the
 * result; only the names of the variables that hold them.
 */
import type { ModelSpec } from './types.ts';

const DISABLED = 'disabled ("enabled": false)';

/** A model name as it appears in variable names: `qwen3-8b` → `QWEN3_8B`. */
export function envSlug(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

/**
 * The per-attempt request timeout the environment sets for a model, in milliseconds:
 * `CDP_LLM_TIMEOUT_S_<NAME>` for that model, else `CDP_LLM_TIMEOUT_S` for every model.
 */
export function timeoutFromEnv(name: string, env: NodeJS.ProcessEnv): number | undefined {
  for (const key of [`CDP_LLM_TIMEOUT_S_${envSlug(name)}`, 'CDP_LLM_TIMEOUT_S']) {
    const raw = env[key]?.trim();
    if (!raw) continue;
    const seconds = Number(raw);
    if (!Number.isFinite(seconds) || seconds <= 0) {
      throw new Error(`${key}="${raw}": the request timeout must be a positive number of seconds, e.g. ${key}=1200`);
    }
    return Math.round(seconds * 1000);
  }
  return undefined;
}

function splitURLs(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

/**
 * Applies the environment to a roster.
 *
 * - A model's `baseURLEnv`, when set in env, replaces its `baseURLs`.
 * - A model is active when it has a base URL and, unless `apiKeyOptional` or no `apiKeyEnv` is
 *   named, its key variable is set. `active: false` in the declaration always wins. Offline
 *   models are always active.
 * - `CDP_LLM_TIMEOUT_S_<NAME>`, else `CDP_LLM_TIMEOUT_S`, replaces a model's declared per-attempt
 *   timeout (the client's default is 600 s): a slow local server needs no file edit.
 *
 * Resolving is idempotent: a roster resolved once (and handed to createLlmClient, which
 * resolves again) comes out the same, inactive reasons included.
 */
export function resolveRoster<M extends ModelSpec>(roster: readonly M[], env: NodeJS.ProcessEnv = process.env): M[] {
  const names = new Set<string>();
  for (const m of roster) {
    if (names.has(m.name)) throw new Error(`roster: model name "${m.name}" appears twice; names must be unique`);
    names.add(m.name);
  }
  const out: M[] = [];
  for (const decl of roster) {
    // `active: false` with a reason other than DISABLED came from an earlier resolution, not the user.
    const declaredOff = decl.active === false && (decl.inactiveReason === undefined || decl.inactiveReason === DISABLED);
    const m: M = { ...decl, roles: [...decl.roles], baseURLs: decl.baseURLs ? [...decl.baseURLs] : undefined };
    if (m.provider === 'offline') {
      m.active = !declaredOff;
      if (!m.active) m.inactiveReason = DISABLED;
      else delete m.inactiveReason;
      out.push(m);
      continue;
    }
    const timeoutMs = timeoutFromEnv(m.name, env);
    if (timeoutMs !== undefined) m.timeoutMs = timeoutMs;
    if (m.baseURLEnv && splitURLs(env[m.baseURLEnv]).length) m.baseURLs = splitURLs(env[m.baseURLEnv]);
    m.baseURLs = (m.baseURLs ?? []).map((u) => u.replace(/\/+$/, ''));
    if (declaredOff) {
      m.active = false;
      m.inactiveReason = DISABLED;
    } else if (!m.baseURLs.length) {
      m.active = false;
      m.inactiveReason = `no endpoint: set ${m.baseURLEnv ?? 'its baseURL'}`;
    } else if (m.apiKeyEnv && !m.apiKeyOptional && !env[m.apiKeyEnv]) {
      m.active = false;
      m.inactiveReason = `no API key: set ${m.apiKeyEnv}`;
    } else {
      m.active = true;
      delete m.inactiveReason;
    }
    out.push(m);
  }
  return out;
}

/** Replaces every occurrence of the given secret values in a text (errors, logs). */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

/** What a call costs at the model's declared price (0 when the roster sets none). */
export function costOf(spec: Pick<ModelSpec, 'price'>, inputTokens: number, outputTokens: number): number {
  if (!spec.price) return 0;
  return (inputTokens * spec.price.inputPerMTok + outputTokens * spec.price.outputPerMTok) / 1e6;
}
