/**
 * `cdp models --check`: one tiny request per model to confirm that it answers, and what the
 * server says of the model (vLLM lists `max_model_len` under /models; others `context_length`).
 * Sent directly, never cached: a check must reach the server. Keys are read from the
 * environment and redacted from every message.
 */
import { redact } from './roster.ts';
import { readServerError } from './server-error.ts';
import type { ModelSpec } from './types.ts';

export interface ModelCheck {
  name: string;
  ok: boolean;
  /** What went wrong, or the start of the answer. */
  detail: string;
  latencyMs: number;
  /** The context window the server reports for this model id, when it reports one. */
  serverContextWindow: number | null;
}

async function timed<T>(ms: number, f: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const c = new AbortController();
  const t = setTimeout(() => c.abort(new Error(`no answer within ${ms / 1000} s`)), ms);
  try {
    return await f(c.signal);
  } finally {
    clearTimeout(t);
  }
}

function windowFrom(entry: Record<string, unknown> | undefined): number | null {
  for (const k of ['max_model_len', 'context_length', 'context_window', 'max_context_length']) {
    const v = entry?.[k];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  }
  return null;
}

export async function checkModel(spec: ModelSpec, env: NodeJS.ProcessEnv = process.env, timeoutMs = 60_000): Promise<ModelCheck> {
  const key = spec.apiKeyEnv ? env[spec.apiKeyEnv] : undefined;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
  const base = spec.baseURLs?.[0];
  const modelId = spec.modelId ?? spec.name;
  const t0 = performance.now();
  const fail = (detail: string): ModelCheck => ({
    name: spec.name,
    ok: false,
    detail: redact(detail, [key]),
    latencyMs: Math.round(performance.now() - t0),
    serverContextWindow: null,
  });
  if (!base) return fail('no base URL');
  let serverContextWindow: number | null = null;
  try {
    const listed = await timed(timeoutMs, (signal) => fetch(`${base}/models`, { headers, signal }));
    if (listed.ok) {
      const body = (await listed.json()) as { data?: Record<string, unknown>[] };
      serverContextWindow = windowFrom(body.data?.find((m) => m.id === modelId));
    }
  } catch {
    // Not every server lists its models; the chat request below decides.
  }
  try {
    const params = { ...(spec.params ?? {}) };
    // A few tokens are enough to prove the model answers; keep the model's own limit key if it has one.
    if ('max_completion_tokens' in params) params.max_completion_tokens = 16;
    else params.max_tokens = 16;
    const body = JSON.stringify({ ...params, model: modelId, messages: [{ role: 'user', content: 'Reply with the single word OK.' }] });
    const res = await timed(timeoutMs, (signal) => fetch(`${base}/chat/completions`, { method: 'POST', headers, body, signal }));
    const text = await res.text();
    if (!res.ok) {
      const said = readServerError(text);
      return fail(`HTTP ${res.status} from ${base}${said.message ? `: ${said.message}` : ''}`);
    }
    const answer = (JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
    if (typeof answer !== 'string') return fail(`${base} answered without choices[0].message.content: ${text.slice(0, 200)}`);
    return {
      name: spec.name,
      ok: true,
      detail: `answered ${JSON.stringify(answer.trim().slice(0, 40))}`,
      latencyMs: Math.round(performance.now() - t0),
      serverContextWindow,
    };
  } catch (err) {
    return fail(`${base}: ${(err as Error).message}`);
  }
}
