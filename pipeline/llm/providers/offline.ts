/**
 * Offline providers: in-process stand-ins for an LLM (the simulated agents, writers and judges).
 * They are registered by model name with `createLlmClient({ offlineHandlers })`, answer from the
 * request's unit context, and are never cached: answering is cheaper than reading a cache.
 */
import type { ChatMessage, ChatRequest, ChatResult, ModelSpec, OfflineHandler, Provider, ProviderResponse } from '../types.ts';

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

/**
 * A call to an offline model: its provider's answer, or a failure of kind `offline` (no handler,
 * a handler that threw or gave nothing) or `inactive`. Never cached, no tokens.
 */
export async function answerOffline(
  provider: Provider | undefined,
  spec: ModelSpec,
  req: ChatRequest & { stage: string },
  resolve: (m: readonly ChatMessage[]) => ChatMessage[],
): Promise<ChatResult> {
  const offline = (error: string, attempts: number): ChatResult => ({ ok: false, error, attempts, kind: 'offline', retryable: false });
  if (!provider)
    return offline(`no offline handler registered for simulated model ${spec.name}; pass offlineHandlers to createLlmClient`, 0);
  if (!spec.active)
    return {
      ok: false,
      error: `model ${spec.name} is inactive: ${spec.inactiveReason ?? 'disabled'}`,
      attempts: 0,
      kind: 'inactive',
      retryable: false,
    };
  const t0 = performance.now();
  let r: ProviderResponse;
  try {
    const messages = provider.answersFromContext ? req.messages.map((m) => ({ role: m.role, content: '' })) : resolve(req.messages);
    r = await provider.callApi({ ...req, messages }, req.context);
  } catch (err) {
    return offline(`offline handler for ${spec.name} failed: ${(err as Error).message}`, 1);
  }
  if (r.error !== undefined || r.output === undefined)
    return offline(`offline handler for ${spec.name} failed: ${r.error ?? 'it gave no output'}`, 1);
  const md = r.metadata ? { metadata: r.metadata } : {};
  return { ok: true, text: r.output, cached: false, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: performance.now() - t0, ...md };
}
