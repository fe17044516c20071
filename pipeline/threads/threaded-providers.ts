/**
 * In-process providers (offline models) answered on the pool's worker threads. A worker builds
 * the providers itself, by calling the module's `answer` function, which must answer a call from
 * the prompt and its context alone (pure): the call goes out as plain data and the response comes
 * back the same way. The LLM client, its cache and its counters stay on the main thread; only the
 * answering moves. One task serves every model named, so calls of several models batch together.
 */
import type { OfflineHandler, Provider, ProviderPrompt, ProviderResponse } from '../llm/types.ts';
import type { ThreadPool } from './pool.ts';

/** One offline call as it crosses to a worker. */
export interface OfflineCall {
  name: string;
  prompt: ProviderPrompt;
  context: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Providers for the stand-ins `here` (built on this thread, for what they declare) whose answers
 * `module`'s export `fn(call: OfflineCall)` computes, on a worker once the calls are worth it
 * (task.ts, with no count known: after `coldMs` spent inline). A stand-in that answers from the
 * context alone stays so declared, so its calls cross without their prompts' text.
 */
export function threadedProviders(
  pool: ThreadPool,
  here: Readonly<Record<string, OfflineHandler | Provider>>,
  module: string,
  fn: string,
): Record<string, Provider> {
  const task = pool.task<OfflineCall, ProviderResponse>({ module, fn });
  const provider = (name: string, h: OfflineHandler | Provider): Provider => ({
    ...(typeof h !== 'function' && h.answersFromContext ? { answersFromContext: true } : {}),
    callApi: (prompt, context) => task.run({ name, prompt: plainPrompt(prompt), context }),
  });
  return Object.fromEntries(Object.entries(here).map(([n, h]) => [n, provider(n, h)]));
}

/** The prompt without what does not cross threads or is of no use to an offline answer (the cache entry). */
function plainPrompt(prompt: ProviderPrompt): ProviderPrompt {
  if (prompt.call === undefined) return prompt;
  const { call, ...rest } = prompt;
  void call;
  return rest;
}
