/**
 * Embeddings through the client: each text is a cache entry of its own (key: model id + text),
 * so a rerun, or the same step in another pathway, costs nothing; the misses go to the model's
 * live provider in one request (a batch model's too: embeddings are never batched), and each
 * vector is recorded as its own call-log line, with the request's role.
 */
import type { CallStore } from './call-store.ts';
import type { Counters } from './counters.ts';
import type { ProviderKind } from './client.ts';
import type { LiveProvider } from './providers/live.ts';
import { sha256Hex } from './request-key.ts';
import type { StoreLog } from './store-log.ts';
import type { EmbedRequest, EmbedResult, ModelSpec, ProviderResponse, StoredCall } from './types.ts';

export interface EmbedDeps {
  store: CallStore;
  tally: Counters;
  record(call: StoredCall, r: ProviderResponse): Promise<void>;
  live(spec: ModelSpec): LiveProvider;
  /** The store's own log, for answers another store's run made (live mode only). */
  storeLog: StoreLog | null;
}

export async function embedTexts(
  d: EmbedDeps,
  spec: ModelSpec,
  req: EmbedRequest & { stage: string },
  kind: ProviderKind,
): Promise<EmbedResult> {
  const counters = d.tally.of(req.stage);
  if (kind === 'offline') return { ok: false, error: `model ${spec.name} is offline: embeddings need a server`, kind: 'offline' };
  const modelId = spec.modelId ?? spec.name;
  const vectors: (number[] | null)[] = req.input.map(() => null);
  const misses = new Map<string, { key: string; at: number[] }>();
  let cached = 0;
  for (let i = 0; i < req.input.length; i++) {
    const text = req.input[i];
    const key = sha256Hex(`cdp-embed-v1\u0000${modelId}\u0000${text}`);
    const hit = d.store.get(key);
    if (hit) {
      vectors[i] = JSON.parse(hit.text) as number[];
      cached++;
      await d.storeLog?.served(d.store, key, hit);
    } else {
      const m = misses.get(text) ?? { key, at: [] };
      m.at.push(i);
      misses.set(text, m);
    }
  }
  d.tally.add(counters, 'calls');
  if (!misses.size) {
    d.tally.add(counters, 'cached');
    return { ok: true, vectors: vectors as number[][], cached };
  }
  if (kind === 'estimate') return { ok: false, error: 'estimate only: not sent', kind: 'estimate' };
  if (!spec.active)
    return { ok: false, error: `model ${spec.name} is inactive: ${spec.inactiveReason ?? 'no endpoint configured'}`, kind: 'inactive' };
  const texts = [...misses.keys()];
  const r = await d.live(spec).callEmbeddingApi(texts);
  if (r.error !== undefined) {
    d.tally.add(counters, 'failed');
    return { ok: false, error: r.error };
  }
  const perText = Math.round(r.tokenUsage.input / texts.length);
  const role = req.role ? { role: req.role } : {};
  await Promise.all(
    texts.map((text, j) => {
      const m = misses.get(text)!;
      for (const i of m.at) vectors[i] = r.vectors[j];
      const call: StoredCall = { key: m.key, model: spec.name, modelId, stage: req.stage, promptHash: sha256Hex(text), repeat: 0, ...role };
      const out = { output: JSON.stringify(r.vectors[j]), attempts: 1, latencyMs: r.latencyMs, tokenUsage: { input: perText, output: 0 } };
      return d.record(call, out);
    }),
  );
  d.tally.add(counters, 'inputTokens', r.tokenUsage.input);
  return { ok: true, vectors: vectors as number[][], cached };
}
