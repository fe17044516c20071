/**
 * The benchmark data an offline agent is built with, indexed so that the agent can tell from a
 * prompt alone which guideline and which case it is asked about — it sees exactly the prompt a
 * real model gets; the one side channel is the optional `meta.cdp_id` hint (below).
 *
 * Placing (all matches are on trimmed text with line endings normalised):
 * - guideline: the prompt's {Guideline} value (read by splitting the rendered template) equals
 *   a guideline's Markdown; failing that, the longest guideline Markdown contained in the prompt.
 * - case from a vignette (Prompts 4 and 7): the {Case_Vignette} value equals a vignette; failing
 *   that, exactly one known vignette is contained in the prompt. Candidates are restricted to
 *   the placed guideline's cases when there is one. Several cases with the same vignette text
 *   are ambiguous and place nothing.
 * - case for the multi-turn doctor (Prompt 6), which has no vignette: the {Clinical_Inquiry_Goal}
 *   must identify it — it contains the case's vignette or its cdp_id, or (at 20 characters or
 *   more) is contained in exactly one of the guideline's vignettes. A goal that names no case
 *   (e.g. only the clinical focus) places none; only the agents that need the case (the
 *   perturbation agents) are affected, the oracle and the walker walk the tree on the answers.
 * - a hint (`ChatRequest.meta`, which the task stages fill with `{ cdp_id }` and the client
 *   hands to simulated models only): a `cdp_id` known to the context places the case and its
 *   guideline outright; the prompt is still read for the goal and the vignette. An unknown or
 *   absent id falls back to the prompt-based placing above, so an agent called without meta
 *   behaves as before.
 * Nothing here throws on an unknown prompt: callers get nulls and answer honestly.
 */
import type { Cdp, ReasoningTree } from '../construct/types.ts';
import type { ChatMessage, ContentPart } from '../../pipeline/llm/types.ts';
import { promptFields } from './prompt-fields.ts';

export interface AgentData {
  guidelines: ReadonlyArray<{ guideline_id: string; markdown: string }>;
  trees: ReadonlyArray<{ guideline_id: string; tree: ReasoningTree }>;
  cdps: readonly Cdp[];
  vignettes: ReadonlyArray<{ cdp_id: string; vignette: string }>;
}

export interface AgentContext {
  guidelineByText: Map<string, string>;
  /** Guidelines by decreasing Markdown length, for the substring fallback. */
  guidelineTexts: Array<{ guideline_id: string; text: string }>;
  trees: Map<string, ReasoningTree>;
  cdps: Map<string, Cdp>;
  cdpsByGuideline: Map<string, Cdp[]>;
  vignetteOf: Map<string, string>;
  cdpsByVignette: Map<string, string[]>;
}

export function normaliseText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

export function createAgentContext(data: AgentData): AgentContext {
  const guidelineByText = new Map<string, string>();
  const guidelineTexts: Array<{ guideline_id: string; text: string }> = [];
  for (const g of data.guidelines) {
    const text = normaliseText(g.markdown);
    if (text === '') continue;
    guidelineByText.set(text, g.guideline_id);
    guidelineTexts.push({ guideline_id: g.guideline_id, text });
  }
  guidelineTexts.sort((a, b) => b.text.length - a.text.length);
  const trees = new Map(data.trees.map((t) => [t.guideline_id, t.tree]));
  const cdps = new Map<string, Cdp>();
  const cdpsByGuideline = new Map<string, Cdp[]>();
  for (const c of data.cdps) {
    cdps.set(c.cdp_id, c);
    const list = cdpsByGuideline.get(c.guideline_id) ?? [];
    list.push(c);
    cdpsByGuideline.set(c.guideline_id, list);
  }
  const vignetteOf = new Map<string, string>();
  const cdpsByVignette = new Map<string, string[]>();
  for (const v of data.vignettes) {
    const text = normaliseText(v.vignette);
    if (text === '') continue;
    vignetteOf.set(v.cdp_id, text);
    const list = cdpsByVignette.get(text) ?? [];
    if (!list.includes(v.cdp_id)) list.push(v.cdp_id);
    cdpsByVignette.set(text, list);
  }
  return { guidelineByText, guidelineTexts, trees, cdps, cdpsByGuideline, vignetteOf, cdpsByVignette };
}

/** The text of a message (blob parts arrive already resolved from the client; others are skipped). */
export function messageText(m: Pick<ChatMessage, 'content'>): string {
  if (typeof m.content === 'string') return m.content;
  return m.content.map((p: ContentPart) => (p.type === 'text' ? p.text : '')).join('');
}

/** Facts a task stage passes to simulated models (`ChatRequest.meta`); only `cdp_id` is read. */
export type PlacementHint = Readonly<Record<string, unknown>> | undefined;

/** The case a hint names, when the context knows it. */
export function hintedCase(ctx: AgentContext, hint: PlacementHint): Cdp | null {
  const id = hint?.cdp_id;
  return typeof id === 'string' ? (ctx.cdps.get(id) ?? null) : null;
}

function guidelineInPrompt(ctx: AgentContext, prompt: string): string | null {
  for (const g of ctx.guidelineTexts) if (prompt.includes(g.text)) return g.guideline_id;
  return null;
}

function uniqueCase(ctx: AgentContext, ids: readonly string[], guidelineId: string | null): Cdp | null {
  const cases = ids.map((id) => ctx.cdps.get(id)).filter((c): c is Cdp => c !== undefined && (guidelineId === null || c.guideline_id === guidelineId));
  return cases.length === 1 ? cases[0]! : null;
}

function caseFromVignette(ctx: AgentContext, vignette: string | null, prompt: string, guidelineId: string | null): Cdp | null {
  if (vignette !== null) {
    const ids = ctx.cdpsByVignette.get(vignette);
    if (ids) return uniqueCase(ctx, ids, guidelineId);
  }
  const pool = guidelineId !== null ? (ctx.cdpsByGuideline.get(guidelineId) ?? []).map((c) => c.cdp_id) : [...ctx.vignetteOf.keys()];
  const hits = pool.filter((id) => {
    const v = ctx.vignetteOf.get(id);
    return v !== undefined && prompt.includes(v);
  });
  return uniqueCase(ctx, hits, guidelineId);
}

export interface PlacedSingleTurn {
  guideline_id: string | null;
  /** The vignette as written in the prompt (null when the prompt is not a Prompt 4 rendering). */
  vignette: string | null;
  cdp: Cdp | null;
}

/** Reads a Prompt 4 rendering. */
export function placeSingleTurn(ctx: AgentContext, rawPrompt: string, hint?: PlacementHint): PlacedSingleTurn {
  const prompt = normaliseText(rawPrompt);
  const splits = promptFields('single-turn-inference', prompt);
  let guidelineId: string | null = null;
  let vignette: string | null = null;
  for (const s of splits) {
    const id = ctx.guidelineByText.get(s.Guideline ?? '');
    if (id !== undefined) {
      guidelineId = id;
      vignette = s.Case_Vignette ?? null;
      break;
    }
  }
  if (guidelineId === null) {
    guidelineId = guidelineInPrompt(ctx, prompt);
    // With an unknown guideline the last split is the likeliest: a vignette is short and never holds headings.
    vignette = splits.length ? (splits[splits.length - 1]!.Case_Vignette ?? null) : null;
  }
  const hinted = hintedCase(ctx, hint);
  if (hinted !== null) {
    const own = guidelineId === hinted.guideline_id ? vignette : null;
    return { guideline_id: hinted.guideline_id, vignette: own ?? ctx.vignetteOf.get(hinted.cdp_id) ?? vignette, cdp: hinted };
  }
  return { guideline_id: guidelineId, vignette, cdp: caseFromVignette(ctx, vignette, prompt, guidelineId) };
}

export interface PlacedDoctor {
  guideline_id: string | null;
  goal: string | null;
  cdp: Cdp | null;
}

/** Reads a Prompt 6 rendering (the doctor's system message). */
export function placeDoctor(ctx: AgentContext, rawSystem: string, hint?: PlacementHint): PlacedDoctor {
  const system = normaliseText(rawSystem);
  const splits = promptFields('multi-turn-inference', system);
  let guidelineId: string | null = null;
  let goal: string | null = null;
  for (const s of splits) {
    const id = ctx.guidelineByText.get(s.Guideline ?? '');
    if (id !== undefined) {
      guidelineId = id;
      goal = s.Clinical_Inquiry_Goal ?? null;
      break;
    }
  }
  if (guidelineId === null) {
    guidelineId = guidelineInPrompt(ctx, system);
    goal = splits.length ? (splits[0]!.Clinical_Inquiry_Goal ?? null) : null;
  }
  const hinted = hintedCase(ctx, hint);
  if (hinted !== null) return { guideline_id: hinted.guideline_id, goal, cdp: hinted };
  let cdp: Cdp | null = null;
  if (guidelineId !== null && goal !== null && goal !== '') {
    const own = ctx.cdpsByGuideline.get(guidelineId) ?? [];
    const hits = own.filter((c) => {
      const v = ctx.vignetteOf.get(c.cdp_id);
      return goal!.includes(c.cdp_id) || (v !== undefined && (goal!.includes(v) || (goal!.length >= 20 && v.includes(goal!))));
    });
    cdp = hits.length === 1 ? hits[0]! : null;
  }
  return { guideline_id: guidelineId, goal, cdp };
}

export interface PlacedPatient {
  vignette: string | null;
  cdp: Cdp | null;
}

/** Reads a Prompt 7 rendering (the patient's system message). */
export function placePatient(ctx: AgentContext, rawSystem: string, hint?: PlacementHint): PlacedPatient {
  const system = normaliseText(rawSystem);
  const splits = promptFields('multi-turn-patient-environment', system);
  const vignette = splits.length ? (splits[0]!.Case_Vignette ?? null) : null;
  const cdp = hintedCase(ctx, hint) ?? caseFromVignette(ctx, vignette, system, null);
  return { vignette: vignette ?? (cdp ? ctx.vignetteOf.get(cdp.cdp_id)! : null), cdp };
}
