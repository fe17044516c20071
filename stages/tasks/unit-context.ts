/**
 * The context a task stage attaches to each of its calls (`ChatRequest.context`): the rows of the
 * unit the call belongs to. Offline providers (the simulated agents and patient) answer from it;
 * live providers ignore it, and it is never sent nor part of the cache key, so a real model sees
 * the prompt only. It exists so that no provider has to read a rendered prompt back into the
 * data it was rendered from.
 *
 * - every call: `cdp` (the test case: steps, conclusion, guideline_id), `vignette`, `guideline`
 *   (its id; its text is the prompt's, which no stand-in reads) and `tree` (the guideline's
 *   reasoning tree, null when it did not parse);
 * - multi-turn doctor calls: `goal` (the clinical inquiry goal of Prompt 6) and `dialogue`, the
 *   exchange so far with the patient's parsed answers;
 * - multi-turn patient calls: `question`, the doctor's parsed question to answer.
 */
import type { Row } from '../../pipeline/stage.ts';
import type { Cdp, ReasoningTree } from '../construct/types.ts';

// A type alias, not an interface: it must be assignable to ChatRequest.context's record type.
export type UnitContext = {
  cdp: Cdp;
  vignette: string;
  guideline: { guideline_id: string };
  tree: ReasoningTree | null;
  goal?: string;
  dialogue?: ReadonlyArray<{ question: string; answer: 'Yes' | 'No' }>;
  question?: string;
};

const parsed = new WeakMap<Row, ReasoningTree | null>();

/**
 * The tree of a `trees` row (tree_json, or a parsed `tree`), or null when it has none usable.
 * Parsed once per row object and frozen: every unit joined to the guideline's row (its cases ×
 * the models) shares the one tree, which a worker thread then receives once (threaded-providers.ts).
 */
export function treeOfRow(row: Row | undefined): ReasoningTree | null {
  if (!row) return null;
  let tree = parsed.get(row);
  if (tree === undefined) parsed.set(row, (tree = deepFreeze(readTree(row))));
  return tree;
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

function readTree(row: Row): ReasoningTree | null {
  if (row.error != null) return null;
  let tree: unknown = row.tree;
  if (typeof row.tree_json === 'string') {
    try {
      tree = JSON.parse(row.tree_json);
    } catch {
      return null;
    }
  }
  const t = tree as ReasoningTree | null | undefined;
  return t !== null && typeof t === 'object' && typeof t.decision_tree === 'object' && t.decision_tree !== null ? t : null;
}

/**
 * The unit context of a call, or null when there is none (a call made outside a task stage):
 * providers then answer as they would an unknown case. A context that is present but malformed
 * is a programming error and throws, naming what is missing.
 */
export function unitContextOf(context: Readonly<Record<string, unknown>> | undefined): UnitContext | null {
  if (context === undefined) return null;
  const c = context as Partial<UnitContext>;
  const missing = [
    c.cdp && typeof c.cdp === 'object' && Array.isArray(c.cdp.steps) ? null : 'cdp (a cdps row with steps)',
    typeof c.vignette === 'string' ? null : 'vignette',
    c.guideline && typeof c.guideline.guideline_id === 'string' ? null : 'guideline',
  ].filter((m): m is string => m !== null);
  if (missing.length) throw new Error(`the call's context lacks ${missing.join(', ')}; pass the unit's rows as built by unitContext()`);
  return { tree: null, ...c } as UnitContext;
}
