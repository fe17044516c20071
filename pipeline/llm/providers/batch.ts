/**
 * The batch provider: answers through the OpenAI Batch API instead of one request per call.
 * Each call becomes a line of the next batch (the body a live request would send), and its
 * answer arrives when the batch completes; the BatchRunner (../batch.ts) collects, submits,
 * polls and resumes batches by id across runs. Every item's outcome is recorded as the batch
 * settles, those of items no caller of this run waits for included: the batch was paid for.
 */
import type OpenAI from 'openai';
import { BatchRunner, DEFAULT_BATCH, type BatchOutcome } from '../batch.ts';
import type { Retrier } from '../retry.ts';
import type { BatchPolicy, Provider, ProviderPrompt, ProviderResponse, StoredCall } from '../types.ts';
import { chatBody } from './live.ts';

export interface BatchProviderOptions {
  /** Holds `batches/`: the submitted JSONL and a manifest per batch. */
  cacheDir: string;
  policy?: Partial<BatchPolicy>;
  /** The base URL a model's next batch goes to. */
  baseURLOf(model: string): string;
  /** The SDK for a server (its key read at call time). */
  sdkFor(baseURL: string): OpenAI;
  retry: Retrier;
  /** Makes an item's outcome durable; awaited before its caller is answered. */
  record(call: StoredCall, r: ProviderResponse): Promise<void>;
  /** Removes API keys from errors. */
  redact(text: string): string;
  log?(line: string): void;
}

export class BatchProvider implements Provider {
  // Made on first use: a run without batch calls creates no batches/ directory.
  private runner: BatchRunner | null = null;

  constructor(private readonly o: BatchProviderOptions) {}

  async callApi(prompt: ProviderPrompt, _context?: Readonly<Record<string, unknown>>): Promise<ProviderResponse> {
    const call = prompt.call;
    if (!call) throw new Error('batch provider: the prompt names no call; a batch line needs its cache key (ProviderPrompt.call)');
    const t0 = performance.now();
    const out = await this.batches().request(this.o.baseURLOf(prompt.model), call, chatBody(prompt, call.modelId));
    const latencyMs = Math.round(performance.now() - t0);
    return { ...responseOf(out, this.o.redact), latencyMs };
  }

  /** Submits pending batch requests now instead of waiting for the batch window. */
  async flush(): Promise<void> {
    await this.runner?.flush();
  }

  /** Submits what is queued and answers every waiter "still in progress"; a later run collects the batches by id. */
  async detach(): Promise<void> {
    await this.runner?.detach();
  }

  private batches(): BatchRunner {
    this.runner ??= new BatchRunner({
      cacheDir: this.o.cacheDir,
      policy: { ...DEFAULT_BATCH, ...this.o.policy },
      sdkFor: this.o.sdkFor,
      withRetries: (what, op) => this.o.retry.op(what, op),
      // A batch item took no time of its own: the batch's wait is not the model's latency.
      record: (call, out) => this.o.record(call, { ...responseOf(out, this.o.redact), latencyMs: 0 }),
      log: this.o.log ?? (() => {}),
    });
    return this.runner;
  }
}

function responseOf(out: BatchOutcome, redact: (text: string) => string): ProviderResponse {
  if (!out.ok)
    return {
      error: redact(out.reason),
      attempts: 1,
      retryable: true,
      failure: { kind: 'batch' },
      ...(out.batchId ? { batchId: out.batchId } : {}),
    };
  const r: ProviderResponse = {
    output: out.text,
    tokenUsage: { input: out.inputTokens, output: out.outputTokens },
    attempts: 1,
    batchId: out.batchId,
  };
  if (out.finishReason) r.finishReason = out.finishReason;
  return r;
}
