/**
 * The estimate provider (`cdp estimate`): a cache miss is counted and priced, never sent. It
 * counts a miss once per distinct request (a second identical request is what the cache would
 * serve), refuses a prompt over the model's window as a real run would (counted as an
 * overflow), and answers with the stand-in's output when one is named, so the stages after it
 * see an answer of the right shape and are estimated too. It owns the estimate rows.
 */
import { callKey, promptHash } from '../request-key.ts';
import { costOf } from '../roster.ts';
import { countTokens, messageTokens, outputReserve } from '../tokens.ts';
import type { EstimateRow, ModelSpec, Provider, ProviderPrompt, ProviderResponse } from '../types.ts';

/** Output tokens assumed for a call nothing else sizes. */
const DEFAULT_OUTPUT_TOKENS = 512;

export interface EstimateProviderOptions {
  /** The roster entry of a model: its window, price and expected output. */
  modelOf(name: string): ModelSpec | undefined;
  /** Output tokens assumed per call when neither request nor model says. */
  expectedOutputTokens?: number;
  /** The offline provider that answers in place of this miss, if any (its answer is the stand-in's output). */
  standIn?(prompt: ProviderPrompt): Provider | undefined;
}

export class EstimateProvider implements Provider {
  private readonly rows = new Map<string, EstimateRow>();
  /**
   * Requests already estimated, by cache key, with the answer they got (null: none), so
   * identical requests count once: in a real run the second is what the cache would serve.
   */
  private readonly answered = new Map<string, string | null>();

  constructor(private readonly o: EstimateProviderOptions) {}

  async callApi(prompt: ProviderPrompt, context: Readonly<Record<string, unknown>> | undefined): Promise<ProviderResponse> {
    const spec = this.o.modelOf(prompt.model);
    if (!spec) throw new Error(`estimate provider: model "${prompt.model}" is not in the roster; add it to the models file`);
    const key = prompt.call?.key ?? keyOf(spec, prompt);
    const seen = this.answered.get(key);
    if (seen === null) return { error: 'estimate only: not sent', cached: true, attempts: 0 };
    if (seen !== undefined) return { output: seen, cached: true, attempts: 0, latencyMs: 0 };

    const stage = prompt.stage ?? 'unstaged';
    const reserve = outputReserve(prompt.params);
    const inputTokens = prompt.inputTokens ?? messageTokens(prompt.messages);
    if (spec.contextWindow && inputTokens + reserve > spec.contextWindow) {
      this.row(spec, stage).overflows++;
      const error = `context overflow (${inputTokens + reserve} tokens > window ${spec.contextWindow})`;
      return { error, attempts: 0, failure: { kind: 'context-overflow', window: spec.contextWindow } };
    }
    const text = await this.standInAnswer(prompt, context);
    // A stand-in's answer has the shape of the real one (a tree, a score grid), so its length is
    // the better guess unless the model or request says how long its answers run.
    const declared = prompt.expectedOutputTokens ?? spec.expectedOutputTokens ?? this.o.expectedOutputTokens;
    const outputTokens =
      declared ?? (text !== null ? countTokens(text) : reserve ? Math.min(reserve, DEFAULT_OUTPUT_TOKENS) : DEFAULT_OUTPUT_TOKENS);
    const row = this.row(spec, stage);
    if (text !== null) row.stoodIn++;
    else row.unanswered++;
    row.calls++;
    row.inputTokens += inputTokens;
    row.outputTokens += outputTokens;
    row.costUsd += costOf(spec, inputTokens, outputTokens);
    const tokenUsage = { input: inputTokens, output: outputTokens };
    this.answered.set(key, text);
    if (text === null) return { error: 'estimate only: not sent', tokenUsage, attempts: 0 };
    return { output: text, tokenUsage, attempts: 0, latencyMs: 0 };
  }

  /** Per stage × model: the misses seen, their tokens and cost, and the prompts over the window. */
  estimateReport(): EstimateRow[] {
    return [...this.rows.values()].map((r) => ({ ...r })).sort((a, b) => a.stage.localeCompare(b.stage) || a.model.localeCompare(b.model));
  }

  /** A stand-in that fails or says nothing leaves the miss unanswered, as if there were none. */
  private async standInAnswer(prompt: ProviderPrompt, context: Readonly<Record<string, unknown>> | undefined): Promise<string | null> {
    const standIn = this.o.standIn?.(prompt);
    if (!standIn) return null;
    try {
      const r = await standIn.callApi(prompt, context);
      return r.error === undefined && r.output !== undefined ? r.output : null;
    } catch {
      return null;
    }
  }

  private row(spec: ModelSpec, stage: string): EstimateRow {
    const id = `${stage}\u0000${spec.name}`;
    let row = this.rows.get(id);
    if (!row) {
      const priced = !!spec.price && (spec.price.inputPerMTok > 0 || spec.price.outputPerMTok > 0);
      const zero = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, overflows: 0, stoodIn: 0, unanswered: 0 };
      this.rows.set(id, (row = { stage, model: spec.name, priced, ...zero }));
    }
    return row;
  }
}

/** The key of a prompt that came without one (a direct call), as the client keys a request of plain text. */
function keyOf(spec: ModelSpec, prompt: ProviderPrompt): string {
  const params = { ...spec.params, ...prompt.params };
  return callKey(
    spec.modelId ?? spec.name,
    promptHash(prompt.messages),
    params,
    prompt.responseFormat,
    prompt.repeat ?? 0,
    prompt.sample,
    prompt.seed,
  );
}
