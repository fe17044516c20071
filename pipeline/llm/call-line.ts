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
  // Built by assignment, in the order the line is written: this runs once per call.
  const line: CallRecord = {
    key: call.key,
    status: ok ? 'ok' : 'failed',
    model: call.model,
    modelId: call.modelId,
    stage: call.stage,
    promptHash: call.promptHash,
    repeat: call.repeat,
    inputTokens: r.tokenUsage?.input ?? 0,
    outputTokens: r.tokenUsage?.output ?? 0,
    latencyMs: r.latencyMs ?? 0,
    attempts: r.attempts ?? 1,
    ts: new Date().toISOString(),
  };
  if (call.sample !== undefined) line.sample = call.sample;
  if (call.role !== undefined) line.role = call.role;
  if (call.attempt) line.attempt = call.attempt;
  if (call.seed !== undefined) line.seed = call.seed;
  if (store) line.store = store;
  if (r.batchId) line.batchId = r.batchId;
  if (r.finishReason) line.finishReason = r.finishReason;
  if (ok) line.text = r.output;
  else {
    line.error = redact(r.error ?? 'the provider gave no answer');
    const f = r.failure;
    if (f) {
      line.kind = f.kind;
      if (f.status) line.httpStatus = f.status;
      if (f.window) line.window = f.window;
      // The declared window keys a remembered overflow; other lines do not need it.
      if (f.kind === 'context-overflow' && call.contextWindow) line.contextWindow = call.contextWindow;
    }
  }
  return line;
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
