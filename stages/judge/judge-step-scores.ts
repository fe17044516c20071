/**
 * Step-level consistency scoring (paper §3.3): the judge scores every (reference step,
 * candidate step) pair on Prompt 5 (single-turn) or Prompt 8 (multi-turn); the answer is
 * parsed, the judge is asked `runs` times (repeat indexes 0…runs−1: distinct calls and distinct
 * cache entries, never one cached answer reused), the complete runs are averaged and
 * normalised to [0, 1] → C (m×n, row-major, reference rows).
 *
 * Re-asks. An incomplete or malformed answer is re-asked up to `maxReasks` times within its run,
 * the conversation carrying the rejected answer and the list of problems (askStructured). A run
 * that still has no complete matrix, or whose call failed, is a failed run.
 *
 * Minimum runs. C is the mean of the runs that succeeded; at least `minRunsOk` of them are
 * required (default: a majority, ⌊runs/2⌋ + 1, i.e. 3 of 5), otherwise the pair fails with the
 * reason. A minority of failed runs is tolerated and reported in `runsFailed` and `problems`.
 *
 * Empty candidate (n = 0): no call is made and C is m×0 (an empty Float64Array), ok. The
 * metrics treat n = 0 as the worst case; there is nothing a judge could add.
 *
 * Long pathways: see reference-blocks.ts. A run succeeds only if every block of that run does;
 * its blocks' rows are stitched back into one m×n matrix before averaging.
 */
import { askStructured, type Chatter, type ParseOutcome } from '../../pipeline/stage.ts';
import { pathwayVars, shownStep } from '../prompts/pathway-labels.ts';
import type { JudgeContext } from './judge-context.ts';
import { loadTemplate, renderTemplate, type PromptId, type Template } from '../prompts/templates.ts';
import { averageRuns, normaliseLikert, parseStepScores } from './parse-step-scores.ts';
import { planReferenceBlocks, type ReferenceBlock } from './reference-blocks.ts';
import { recordingCalls, type CallRef } from './call-refs.ts';

export type JudgeSetting = 'single' | 'multi';

export const STEP_PROMPT: Record<JudgeSetting, PromptId> = {
  single: 'single-turn-step-level-consistency-scoring',
  multi: 'multi-turn-step-level-consistency-scoring',
};

/** Output tokens assumed per scored pair ("R12-C3: 4, ") when the client estimates a call. */
export const ANSWER_TOKENS_PER_PAIR = 8;

export interface JudgeStepScoresOptions {
  /** The LLM client, a stage view of it, or any object with `chat`. */
  client: Chatter;
  /** Roster name of the judge model. */
  judge: string;
  setting: JudgeSetting;
  reference: readonly string[];
  candidate: readonly string[];
  /** Independent judge runs to average (the paper: five). */
  runs?: number;
  /** Re-asks per run after a rejected answer. */
  maxReasks?: number;
  /** Runs that must succeed (default ⌊runs/2⌋ + 1). */
  minRunsOk?: number;
  /** Largest number of reference rows per prompt. */
  blockRows?: number;
  /** Token budget of one prompt (context window minus reserved answer tokens). */
  maxPromptTokens?: number;
  /** Token counter used with maxPromptTokens (default: tokens.ts). */
  countTokens?: (text: string) => number;
  /** Template language (the guideline's); falls back to English. */
  language?: string;
  templatesRoot?: string;
  /** Sampling parameters for the judge calls. */
  params?: Record<string, unknown>;
}

interface Counts {
  m: number;
  n: number;
  runsOk: number;
  runsFailed: number;
  /** Everything rejected along the way, re-asks that later succeeded included. */
  problems: string[];
  blocks: number;
  /** Answers requested, re-asks included. */
  calls: number;
  /** The stored calls behind the answers, in run order then block order, re-asks included. */
  callRefs: CallRef[];
  /** The identity of the Prompt 5/8 template sent (absent when no call was made: an empty candidate). */
  template?: string;
}

export type StepScoresResult = (Counts & { ok: true; C: Float64Array }) | (Counts & { ok: false; reason: string });

const templateCache = new Map<string, Template>();
function template(id: PromptId, language: string, root: string | undefined): Template {
  const key = `${id}\0${language}\0${root ?? ''}`;
  let t = templateCache.get(key);
  if (!t) {
    t = loadTemplate(id, language, root ? { root } : {});
    templateCache.set(key, t);
  }
  return t;
}

function positiveInt(name: string, v: number, min: number): void {
  if (!Number.isInteger(v) || v < min) throw new RangeError(`judgeStepScores: ${name} = ${v} must be an integer ≥ ${min}`);
}

export async function judgeStepScores(o: JudgeStepScoresOptions): Promise<StepScoresResult> {
  const runs = o.runs ?? 5;
  const maxReasks = o.maxReasks ?? 2;
  const minRunsOk = o.minRunsOk ?? Math.floor(runs / 2) + 1;
  positiveInt('runs', runs, 1);
  positiveInt('maxReasks', maxReasks, 0);
  positiveInt('minRunsOk', minRunsOk, 1);
  if (minRunsOk > runs) throw new RangeError(`judgeStepScores: minRunsOk = ${minRunsOk} exceeds runs = ${runs}`);
  const m = o.reference.length;
  const n = o.candidate.length;
  if (m === 0)
    throw new RangeError(
      'judgeStepScores: the reference pathway is empty; every reference CDP has at least one step, so check the cdps input',
    );

  const base: Counts = { m, n, runsOk: 0, runsFailed: 0, problems: [], blocks: 0, calls: 0, callRefs: [] };
  if (n === 0) return { ...base, ok: true, C: new Float64Array(0) };

  const t = template(STEP_PROMPT[o.setting] ?? badSetting(o.setting), o.language ?? 'en', o.templatesRoot);
  const render = (start: number, end: number) => renderTemplate(t, pathwayVars(o.reference.slice(start, end), o.candidate));
  const plan = planReferenceBlocks(m, render, { blockRows: o.blockRows, maxPromptTokens: o.maxPromptTokens, countTokens: o.countTokens });
  if (!plan.ok) return { ...base, ok: false, reason: plan.reason };
  const blocks = plan.blocks;
  const prompts = blocks.map((b) => render(b.start, b.end));
  // What the prompt of a block shows, as data, for offline judges (judge-context.ts).
  const candidateShown = o.candidate.map(shownStep);
  // One per block, the same object for every run: a worker then receives it once.
  const contexts = blocks.map((b): JudgeContext => ({
    judging: 'steps',
    reference: o.reference.slice(b.start, b.end).map(shownStep),
    candidate: candidateShown,
  }));

  const askBlock = async (run: number, k: number, b: ReferenceBlock) => {
    const rows = b.end - b.start;
    const where = blocks.length > 1 ? `run ${run}, block ${k + 1}/${blocks.length} (R${b.start + 1}–R${b.end})` : `run ${run}`;
    const rejected: string[] = [];
    // Runs go in parallel: each block keeps its own list so the merged order is the run order.
    const refs: CallRef[] = [];
    const parse = (text: string, finishReason?: string): ParseOutcome<Float64Array> => {
      const p = parseStepScores(text, rows, n, finishReason);
      if (p.ok) return { ok: true, value: p.scores };
      rejected.push(`${where}: answer ${rejected.length + 1} rejected: ${p.problems.join('; ')}`);
      return { ok: false, problems: p.problems };
    };
    const r = await askStructured(
      recordingCalls(o.client, run, refs),
      {
        model: o.judge,
        role: 'judge',
        messages: [{ role: 'user', content: prompts[k] }],
        context: contexts[k],
        repeat: run,
        ...(o.params ? { params: o.params } : {}),
        expectedOutputTokens: rows * n * ANSWER_TOKENS_PER_PAIR,
      },
      parse,
      { maxAttempts: maxReasks + 1 },
    );
    const problems = [...rejected];
    if (!r.ok) problems.push(`${where}: ${r.error}`);
    return { block: b, result: r, problems, refs };
  };

  const perRun = await Promise.all(Array.from({ length: runs }, (_, run) => Promise.all(blocks.map((b, k) => askBlock(run, k, b)))));

  const out: Counts = { ...base, blocks: blocks.length, callRefs: [], template: t.identity };
  const complete: Float64Array[] = [];
  for (const parts of perRun) {
    let ok = true;
    const scores = new Float64Array(m * n);
    for (const { block, result, problems, refs } of parts) {
      out.calls += result.attempts;
      out.callRefs.push(...refs);
      out.problems.push(...problems);
      if (result.ok) scores.set(result.value, block.start * n);
      else ok = false;
    }
    if (ok) complete.push(scores);
  }
  out.runsOk = complete.length;
  out.runsFailed = runs - complete.length;
  if (complete.length < minRunsOk) {
    const first = out.problems[0] ? ` First problem: ${out.problems[0]}` : '';
    return {
      ...out,
      ok: false,
      reason: `only ${complete.length} of ${runs} judge runs of ${o.judge} gave a complete ${m}×${n} score matrix; at least ${minRunsOk} are needed.${first}`,
    };
  }
  return { ...out, ok: true, C: normaliseLikert(averageRuns(complete)) };
}

function badSetting(s: unknown): never {
  throw new RangeError(`judgeStepScores: setting must be 'single' (Prompt 5) or 'multi' (Prompt 8), got ${JSON.stringify(s)}`);
}
