/**
 * Offline providers: in-process stand-ins for an LLM (the simulated agents, writers and judges).
 * They are registered by model name with `createLlmClient({ offlineHandlers })`, answer from the
 * request's unit context, and are never cached: answering is cheaper than reading a cache.
 */
import type { OfflineHandler, Provider, ProviderResponse } from '../types.ts';

/** An offline provider from either form: a Provider as is, a handler function wrapped. */
export function offlineProvider(h: OfflineHandler | Provider): Provider {
  if (typeof h !== 'function') return h;
  return {
    async callApi(prompt, context): Promise<ProviderResponse> {
      void context;
      return { output: await h(prompt) };
    },
  };
}
