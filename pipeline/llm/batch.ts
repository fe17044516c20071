/**
 * Batch mode: cache misses of a batch model (or stage) are collected, written as JSONL,
 * uploaded, submitted to the OpenAI Batch API and polled; results enter the same call store
 * as live answers. A manifest per submitted batch (`<cacheDir>/batches/<id>.json`, no keys)
 * lets a later run resume polling instead of paying twice: a miss whose key sits in a pending
 * manifest waits for that batch.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toFile } from 'openai';
import type OpenAI from 'openai';
import { answerOf } from './openai-transport.ts';
import type { BatchPolicy, StoredCall } from './types.ts';

export const DEFAULT_BATCH: BatchPolicy = { windowMs: 200, maxRequests: 50_000, pollIntervalMs: 30_000, completionWindow: '24h' };

/** What the call log needs about an item: the call it fills (its key is the batch line's custom_id). */
export type BatchItemMeta = StoredCall;

export type BatchOutcome =
  | { ok: true; text: string; inputTokens: number; outputTokens: number; finishReason?: string; batchId: string }
  | { ok: false; reason: string; batchId?: string };

interface Manifest {
  batchId: string;
  baseURL: string;
  status: 'submitted' | 'done';
  createdAt: string;
  items: BatchItemMeta[];
}

export interface BatchRunnerOptions {
  cacheDir: string;
  policy: BatchPolicy;
  sdkFor(baseURL: string): OpenAI;
  /** Retries one API operation (upload, create, retrieve, download) under the client's policy; throws when it gives up. */
  withRetries<T>(what: string, op: () => Promise<T>): Promise<T>;
  /** Makes an outcome durable (call store); awaited before any waiter is resolved. */
  record(meta: BatchItemMeta, outcome: BatchOutcome): Promise<void>;
  log(line: string): void;
}

export class BatchRunner {
  private readonly dir: string;
  private readonly pending = new Map<string, Manifest>(); // key → manifest still being processed
  private readonly polling = new Map<string, Promise<void>>(); // batchId → poll loop
  private readonly waiters = new Map<string, ((o: BatchOutcome) => void)[]>();
  private readonly queues = new Map<
    string,
    { baseURL: string; items: { meta: BatchItemMeta; body: Record<string, unknown> }[]; timer: NodeJS.Timeout | null }
  >();
  private readonly work = new Set<Promise<void>>();
  private readonly submissions = new Set<Promise<void>>();
  private readonly sleepers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private detached = false;

  constructor(private readonly o: BatchRunnerOptions) {
    this.dir = join(o.cacheDir, 'batches');
    mkdirSync(this.dir, { recursive: true });
    for (const f of readdirSync(this.dir).filter((n) => n.endsWith('.json'))) {
      const m = JSON.parse(readFileSync(join(this.dir, f), 'utf8')) as Manifest;
      if (m.status === 'submitted') for (const it of m.items) this.pending.set(it.key, m);
    }
  }

  /** Batch ids submitted by earlier runs and not yet collected. */
  pendingBatchIds(): string[] {
    return [...new Set([...this.pending.values()].map((m) => m.batchId))];
  }

  request(baseURL: string, meta: BatchItemMeta, body: Record<string, unknown>): Promise<BatchOutcome> {
    const p = new Promise<BatchOutcome>((resolve) => {
      const list = this.waiters.get(meta.key);
      if (list) list.push(resolve);
      else this.waiters.set(meta.key, [resolve]);
    });
    const resumed = this.pending.get(meta.key);
    if (resumed) {
      this.poll(resumed);
      return p;
    }
    if ((this.waiters.get(meta.key)?.length ?? 0) > 1) return p; // already queued in this run
    const qk = `${baseURL}\u0000${meta.modelId}`;
    let q = this.queues.get(qk);
    if (!q) this.queues.set(qk, (q = { baseURL, items: [], timer: null }));
    q.items.push({ meta, body });
    if (q.items.length >= this.o.policy.maxRequests) this.submitQueue(qk);
    else q.timer ??= setTimeout(() => this.submitQueue(qk), this.o.policy.windowMs);
    return p;
  }

  /** Submits every queued request now. */
  async flush(): Promise<void> {
    for (const qk of [...this.queues.keys()]) this.submitQueue(qk);
    while (this.work.size) await Promise.all([...this.work]);
  }

  /**
   * Submits what is queued, stops polling and answers every waiter with a "still pending"
   * failure; manifests stay pending, so a later run collects the results without resubmitting.
   */
  async detach(): Promise<void> {
    this.detached = true;
    for (const qk of [...this.queues.keys()]) this.submitQueue(qk);
    while (this.submissions.size) await Promise.all([...this.submissions]);
    for (const s of this.sleepers) {
      clearTimeout(s.timer);
      s.wake();
    }
    while (this.work.size) await Promise.all([...this.work]);
  }

  private track(p: Promise<void>, submission = false): void {
    this.work.add(p);
    if (submission) this.submissions.add(p);
    void p.finally(() => {
      this.work.delete(p);
      this.submissions.delete(p);
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const s = { timer: setTimeout(() => (this.sleepers.delete(s), resolve()), ms), wake: resolve };
      this.sleepers.add(s);
    });
  }

  private submitQueue(qk: string): void {
    const q = this.queues.get(qk);
    if (!q) return;
    this.queues.delete(qk);
    if (q.timer) clearTimeout(q.timer);
    if (q.items.length) this.track(this.submit(q.baseURL, q.items), true);
  }

  private async submit(baseURL: string, items: { meta: BatchItemMeta; body: Record<string, unknown> }[]): Promise<void> {
    const sdk = this.o.sdkFor(baseURL);
    const jsonl =
      items.map((it) => JSON.stringify({ custom_id: it.meta.key, method: 'POST', url: '/v1/chat/completions', body: it.body })).join('\n') +
      '\n';
    const localName = `input-${new Date().toISOString().replace(/[-:.]/g, '')}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.jsonl`;
    writeFileSync(join(this.dir, localName), jsonl);
    let batchId: string;
    try {
      const file = await this.o.withRetries('batch upload', async () =>
        sdk.files.create({ file: await toFile(Buffer.from(jsonl), localName), purpose: 'batch' }),
      );
      const batch = await this.o.withRetries('batch create', () =>
        sdk.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: this.o.policy.completionWindow }),
      );
      batchId = batch.id;
    } catch (err) {
      await this.settle(
        items.map((i) => i.meta),
        () => ({ ok: false, reason: `batch submission failed: ${(err as Error).message}` }),
      );
      return;
    }
    const manifest: Manifest = {
      batchId,
      baseURL,
      status: 'submitted',
      createdAt: new Date().toISOString(),
      items: items.map((i) => i.meta),
    };
    this.writeManifest(manifest);
    for (const it of manifest.items) this.pending.set(it.key, manifest);
    this.o.log(`llm: batch ${batchId} submitted with ${items.length} requests`);
    this.poll(manifest);
  }

  private poll(m: Manifest): void {
    if (this.polling.has(m.batchId)) return;
    const loop = this.pollLoop(m);
    this.polling.set(m.batchId, loop);
    this.track(loop);
  }

  private async pollLoop(m: Manifest): Promise<void> {
    const sdk = this.o.sdkFor(m.baseURL);
    const outcomes = new Map<string, BatchOutcome>();
    try {
      let batch = await this.o.withRetries('batch retrieve', () => sdk.batches.retrieve(m.batchId));
      while (!['completed', 'failed', 'expired', 'cancelled'].includes(batch.status)) {
        if (!this.detached) await this.sleep(this.o.policy.pollIntervalMs);
        if (this.detached) {
          this.polling.delete(m.batchId);
          this.resolveWaiters(m.items, () => ({
            ok: false,
            reason: `batch ${m.batchId} still ${batch.status}; rerun to collect its results`,
            batchId: m.batchId,
          }));
          return;
        }
        batch = await this.o.withRetries('batch retrieve', () => sdk.batches.retrieve(m.batchId));
      }
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (!fileId) continue;
        const text = await this.o.withRetries('batch download', async () => (await sdk.files.content(fileId)).text());
        for (const line of text.split('\n')) {
          if (!line.trim()) continue;
          const r = JSON.parse(line) as {
            custom_id: string;
            response?: { status_code: number; body: unknown } | null;
            error?: { message?: string } | null;
          };
          if (r.response && r.response.status_code === 200) {
            const a = answerOf(r.response.body);
            outcomes.set(r.custom_id, a.ok ? { ...a, batchId: m.batchId } : { ok: false, reason: a.reason, batchId: m.batchId });
          } else {
            const why = r.error?.message ?? (r.response ? `HTTP ${r.response.status_code}` : 'no response');
            outcomes.set(r.custom_id, { ok: false, reason: `batch item failed: ${why}`, batchId: m.batchId });
          }
        }
      }
      if (batch.status !== 'completed')
        for (const it of m.items)
          if (!outcomes.has(it.key)) outcomes.set(it.key, { ok: false, reason: `batch ${m.batchId} ${batch.status}`, batchId: m.batchId });
    } catch (err) {
      // Leave the manifest pending: the next run resumes this batch instead of resubmitting.
      this.polling.delete(m.batchId);
      this.resolveWaiters(m.items, () => ({
        ok: false,
        reason: `batch ${m.batchId} polling failed: ${(err as Error).message}`,
        batchId: m.batchId,
      }));
      return;
    }
    await this.settle(
      m.items,
      (meta) => outcomes.get(meta.key) ?? { ok: false, reason: `missing from the output of batch ${m.batchId}`, batchId: m.batchId },
    );
    m.status = 'done';
    this.writeManifest(m);
    for (const it of m.items) if (this.pending.get(it.key) === m) this.pending.delete(it.key);
    this.polling.delete(m.batchId);
  }

  private async settle(items: BatchItemMeta[], outcomeOf: (meta: BatchItemMeta) => BatchOutcome): Promise<void> {
    await Promise.all(items.map((meta) => this.o.record(meta, outcomeOf(meta))));
    this.resolveWaiters(items, outcomeOf);
  }

  private resolveWaiters(items: BatchItemMeta[], outcomeOf: (meta: BatchItemMeta) => BatchOutcome): void {
    for (const meta of items) {
      const list = this.waiters.get(meta.key);
      if (!list) continue;
      this.waiters.delete(meta.key);
      const o = outcomeOf(meta);
      for (const w of list) w(o);
    }
  }

  private writeManifest(m: Manifest): void {
    const path = join(this.dir, `${m.batchId}.json`);
    writeFileSync(path + '.tmp', JSON.stringify(m, null, 1));
    renameSync(path + '.tmp', path);
  }
}
