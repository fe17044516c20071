/**
 * Splitting a long reference pathway into blocks of rows so each step-scoring prompt fits the
 * judge's context window. The candidate pathway is always sent whole (every block scores every
 * candidate step, so each row of C is complete); within a block the reference rows are labelled
 * afresh R1…Rb, and the block's "Reference_Pathway_Length" is b. Block k's answer row Ri is
 * reference step start_k + i of the pathway; stitching puts the rows back in that order.
 *
 * Blocks are greedy: each takes as many of the next rows as fit (at most `blockRows`), so all
 * blocks but the last are full. Prompt size grows with rows, so the largest fitting block is
 * found by bisection on the rendered prompt. A prompt fits when its chat tokens (the text plus
 * the per-message and reply framing the client adds) are ≤ maxPromptTokens; set that to the
 * judge's context window minus the answer tokens you reserve (max_completion_tokens).
 */
import { countTokens as exactTokens, TOKENS_PER_MESSAGE, TOKENS_PER_REPLY, tokenUpperBound } from '../../pipeline/stage.ts';

export interface ReferenceBlock {
  /** First reference row (0-based) of the block. */
  start: number;
  /** One past its last row. */
  end: number;
}

export interface BlockPlanOptions {
  /** Largest number of reference rows per prompt (default: all). */
  blockRows?: number;
  /** Token budget of one prompt, framing included (default: no limit). */
  maxPromptTokens?: number;
  /** Token counter for a prompt text (default: the UTF-8 byte bound, exact o200k only when that bound exceeds the budget). */
  countTokens?: (text: string) => number;
}

export type BlockPlan = { ok: true; blocks: ReferenceBlock[] } | { ok: false; reason: string };

/** The default counter: free upper bound first, the exact (slow to initialise) count only when needed. */
function fitsBy(maxTokens: number, count?: (text: string) => number): (text: string) => { fits: boolean; tokens: number } {
  const framing = TOKENS_PER_MESSAGE + TOKENS_PER_REPLY;
  return (text) => {
    if (count) {
      const tokens = count(text) + framing;
      return { fits: tokens <= maxTokens, tokens };
    }
    const bound = tokenUpperBound(text) + framing;
    if (bound <= maxTokens) return { fits: true, tokens: bound };
    const tokens = exactTokens(text) + framing;
    return { fits: tokens <= maxTokens, tokens };
  };
}

/**
 * Plans the blocks of an m-row reference. `render(start, end)` returns the prompt holding rows
 * [start, end) and the whole candidate.
 */
export function planReferenceBlocks(m: number, render: (start: number, end: number) => string, options: BlockPlanOptions = {}): BlockPlan {
  if (!Number.isInteger(m) || m < 1) throw new RangeError(`reference length m = ${m} must be an integer ≥ 1`);
  const rows = options.blockRows ?? m;
  if (!Number.isInteger(rows) || rows < 1) throw new RangeError(`blockRows = ${rows} must be an integer ≥ 1`);
  const max = options.maxPromptTokens;
  if (max !== undefined && !(max > 0)) throw new RangeError(`maxPromptTokens = ${max} must be a positive number of tokens`);
  const check = max === undefined ? null : fitsBy(max, options.countTokens);

  const blocks: ReferenceBlock[] = [];
  for (let start = 0; start < m;) {
    let hi = Math.min(m, start + rows);
    if (check) {
      const one = check(render(start, start + 1));
      if (!one.fits) {
        return {
          ok: false,
          reason: `the step-scoring prompt with a single reference step (R${start + 1}) and the whole candidate pathway needs ${one.tokens} tokens, over the budget of ${max}; the candidate is never split, so shorten it or use a judge with a larger context window`,
        };
      }
      let lo = start + 1; // fits
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (check(render(start, mid)).fits) lo = mid;
        else hi = mid - 1;
      }
      hi = lo;
    }
    blocks.push({ start, end: hi });
    start = hi;
  }
  return { ok: true, blocks };
}
