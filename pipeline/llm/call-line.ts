/**
 * What a call-log line says of an outcome, and back: the line `record` appends for an answer or a
 * failure (its kind, status and windows on failures; the store that made it), and the failure a
 * remembered context overflow is answered with again.
 */
import type { CallRecord } from './call-store.ts';
import type { CallFailure, ModelSpec, ProviderResponse, StoredCall } from './types.ts';

/**
 * The line of one outcome. Errors are redacted once more here, so a provider that missed a key
 * still cannot write it. The declared window is kept only on an overflow, which it keys.
 */
export function callLine(call: StoredCall, r: ProviderResponse, redact: (t: string) => string, store: string | undefined): CallRecord {
  const ok = r.error === undefined && r.output !== undefined;
  const { contextWindow, ...rest } = call;
  const f = r.failure;
  const facts = ok || !f ? {} : { kind: f.kind, ...(f.status ? { httpStatus: f.status } : {}), ...(f.window ? { window: f.window } : {}) };
  const keyedBy = !ok && f?.kind === 'context-overflow' && contextWindow ? { contextWindow } : {};
  return {
    ...rest,
    status: ok ? 'ok' : 'failed',
    ...facts,
    ...keyedBy,
    ...(store ? { store } : {}),
    ...(ok ? { text: r.output } : { error: redact(r.error ?? 'the provider gave no answer') }),
    attempts: r.attempts ?? 1,
    latencyMs: r.latencyMs ?? 0,
    inputTokens: r.tokenUsage?.input ?? 0,
    outputTokens: r.tokenUsage?.output ?? 0,
    ...(r.batchId ? { batchId: r.batchId } : {}),
    ...(r.finishReason ? { finishReason: r.finishReason } : {}),
    ts: new Date().toISOString(),
  };
}

/**
 * The overflow a server reported for this key in an earlier call, as the failure it is again —
 * while the model's declared window is the one it was sent under. A larger window is sent again;
 * so is a changed prompt or max_tokens, which is another key.
 */
export function rememberedOverflow(line: CallRecord | undefined, spec: ModelSpec): Omit<CallFailure, 'ok'> | undefined {
  if (!line || line.contextWindow !== spec.contextWindow) return undefined;
  const why =
    `${line.error ?? 'context overflow'} [remembered from ${line.ts}: not sent again until the prompt, ` +
    `its params or ${spec.name}'s contextWindow change]`;
  return { error: why, attempts: 0, kind: 'context-overflow', retryable: false, ...(line.window ? { window: line.window } : {}) };
}
