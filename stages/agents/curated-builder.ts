/**
 * The curated builder (`curated-builder`): an offline stand-in for Prompt 1's builder model
 * that answers with reasoning trees written by hand for the bundled sample guidelines
 * (data/sample/trees/, see its README). It is labelled curated and simulated in the roster so
 * no output built on these trees is mistaken for an LLM's extraction.
 *
 * Files and slots. `<guideline_id>.json` holds one tree object in Prompt 1's output format;
 * further trees for the same guideline go in `<guideline_id>--2.json`, `--3.json`, … ("tree
 * slots", numbered from 1 for the plain file). `curatedTreesFor(id)` returns them in slot order.
 * The handler answers request `repeat` r (0 when absent) with slot r + 1, so a stage that asks
 * once per guideline gets the first tree and one that wants every tree asks
 * `curatedTreesFor(id).length` repeats. The shipped sample has one tree per guideline.
 *
 * Recognising the guideline. The prompt carries only the guideline's Markdown, not its id, and
 * the Markdown changes whenever the PDF converter is improved, so neither the id nor a content
 * hash can be relied on. Instead each curated guideline is recognised by its own evidence: the
 * quotes of its trees are verbatim guideline sentences, so the guideline whose distinct quotes
 * occur most often in the prompt (compared as the validator compares evidence,
 * `normaliseForMatch`) is the one asked about, provided at least half of its quotes occur there
 * (`MIN_QUOTE_SHARE`). A tie or a lower share means the prompt is about no curated guideline.
 *
 * Failure is an answer, never an exception: a prompt about a guideline without a curated tree,
 * a repeat beyond the last slot, or an unreadable tree file yields the JSON
 * `{"decision_tree": "no curated tree for …"}`, which tree validation rejects with that text in
 * its problem list (and the whole reason stays in the call log).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatRequest, ModelSpec, OfflineHandler } from '../../pipeline/llm/types.ts';
import { normaliseForMatch } from '../construct/evidence.ts';
import { parseTree } from '../construct/tree-parse.ts';
import type { ReasoningTree } from '../construct/types.ts';

export const CURATED_BUILDER_NAME = 'curated-builder';

export const DEFAULT_TREES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'sample', 'trees');

/** Share of a guideline's distinct evidence quotes that must occur in the prompt to recognise it. */
export const MIN_QUOTE_SHARE = 0.5;

export interface CuratedOptions {
  /** Directory of `<guideline_id>[--<slot>].json` files; defaults to data/sample/trees/. */
  dir?: string;
}

/** The roster entry of the curated builder. */
export function curatedBuilderModel(): ModelSpec {
  return {
    name: CURATED_BUILDER_NAME,
    roles: ['builder'],
    provider: 'offline',
    simulated: true,
    note: 'curated: hand-written reasoning trees for the sample guidelines (data/sample/trees), served offline; not an LLM extraction',
  };
}

const SLOT_FILE = /^(.+?)(?:--(\d+))?\.json$/;

/** Tree files per guideline id, in slot order. */
function treeFiles(dir: string): Map<string, Array<{ slot: number; file: string }>> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new Error(
      `curated trees: cannot read the directory ${dir} (${(err as Error).message}); pass the folder holding <guideline_id>.json files`,
      { cause: err },
    );
  }
  const out = new Map<string, Array<{ slot: number; file: string }>>();
  for (const name of names) {
    const m = SLOT_FILE.exec(name);
    if (!m) continue;
    const slot = m[2] === undefined ? 1 : Number(m[2]);
    const list = out.get(m[1]!) ?? [];
    list.push({ slot, file: join(dir, name) });
    out.set(m[1]!, list);
  }
  for (const [id, list] of out) {
    list.sort((a, b) => a.slot - b.slot);
    list.forEach((entry, i) => {
      if (entry.slot !== i + 1) {
        throw new Error(
          `curated trees: ${id} has tree slots ${list.map((e) => e.slot).join(', ')}; slots must run 1 (${id}.json), 2 (${id}--2.json), … without gaps`,
        );
      }
    });
  }
  return out;
}

function readTree(file: string): ReasoningTree {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`curated tree ${file} is not readable JSON (${(err as Error).message}); fix the file`, { cause: err });
  }
  if (Array.isArray(raw)) {
    throw new Error(
      `curated tree ${file} holds an array; put one tree object per file and further trees in <guideline_id>--2.json, --3.json, …`,
    );
  }
  const parsed = parseTree(raw);
  if (parsed.tree === null || parsed.problems.length > 0) {
    throw new Error(`curated tree ${file} is not in Prompt 1's output format: ${parsed.problems.join('; ')}`);
  }
  return parsed.tree;
}

/** Guideline ids that have at least one curated tree. */
export function curatedGuidelineIds(options: CuratedOptions = {}): string[] {
  return [...treeFiles(options.dir ?? DEFAULT_TREES_DIR).keys()].sort();
}

/** The curated trees of one guideline in slot order; empty when it has none. */
export function curatedTreesFor(guidelineId: string, options: CuratedOptions = {}): ReasoningTree[] {
  const files = treeFiles(options.dir ?? DEFAULT_TREES_DIR).get(guidelineId) ?? [];
  return files.map((f) => readTree(f.file));
}

/** Distinct evidence quotes of a guideline's trees, normalised for matching. */
function normalisedQuotes(trees: readonly ReasoningTree[]): string[] {
  const quotes = new Set<string>();
  for (const t of trees) {
    for (const list of Object.values(t.node_guideline_mapping)) {
      for (const q of list) {
        const n = normaliseForMatch(q);
        if (n !== '') quotes.add(n);
      }
    }
  }
  return [...quotes];
}

export interface GuidelineIndex {
  /** Guideline id → its distinct normalised quotes. */
  quotes: Map<string, string[]>;
}

export function indexCuratedGuidelines(trees: ReadonlyMap<string, readonly ReasoningTree[]>): GuidelineIndex {
  return { quotes: new Map([...trees].map(([id, ts]) => [id, normalisedQuotes(ts)])) };
}

/** The curated guideline a prompt is about, or null (see the module comment for the rule). */
export function identifyGuideline(prompt: string, index: GuidelineIndex): string | null {
  const haystack = normaliseForMatch(prompt);
  let best: string | null = null;
  let bestShare = -1;
  let tied = false;
  for (const [id, quotes] of index.quotes) {
    if (quotes.length === 0) continue;
    const share = quotes.filter((q) => haystack.includes(q)).length / quotes.length;
    if (share > bestShare) [best, bestShare, tied] = [id, share, false];
    else if (share === bestShare) tied = true;
  }
  return best !== null && !tied && bestShare >= MIN_QUOTE_SHARE ? best : null;
}

/** The answer that fails validation with `message` in the problem list. */
export function noCuratedTreeAnswer(message: string): string {
  return JSON.stringify({ decision_tree: message });
}

function promptText(req: Pick<ChatRequest, 'messages'>): string {
  // The first user message is Prompt 1; later ones are the stage's re-asks.
  const first = req.messages.find((m) => m.role === 'user');
  if (!first) return '';
  return typeof first.content === 'string' ? first.content : first.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** The offline handler: Prompt 1 in, the curated tree's JSON text out. */
export function createCuratedBuilderHandler(options: CuratedOptions = {}): OfflineHandler {
  const dir = options.dir ?? DEFAULT_TREES_DIR;
  let loaded: { trees: Map<string, ReasoningTree[]>; index: GuidelineIndex } | { error: string } | null = null;
  const load = () => {
    if (loaded) return loaded;
    try {
      const trees = new Map<string, ReasoningTree[]>();
      for (const id of treeFiles(dir).keys()) trees.set(id, curatedTreesFor(id, { dir }));
      loaded = { trees, index: indexCuratedGuidelines(trees) };
    } catch (err) {
      loaded = { error: (err as Error).message };
    }
    return loaded;
  };
  return (req) => {
    const state = load();
    if ('error' in state) return noCuratedTreeAnswer(`no curated tree for this guideline: ${state.error}`);
    const id = identifyGuideline(promptText(req), state.index);
    if (id === null) {
      return noCuratedTreeAnswer(
        `no curated tree for this guideline: its text matches none of the curated guidelines in ${dir} (${[...state.trees.keys()].sort().join(', ')}); use an LLM builder or add a curated tree`,
      );
    }
    const trees = state.trees.get(id)!;
    const slot = (req.repeat ?? 0) + 1;
    if (slot > trees.length) {
      return noCuratedTreeAnswer(
        `no curated tree for ${id} in slot ${slot}: it has ${trees.length} curated tree(s); ask repeats 0..${trees.length - 1}`,
      );
    }
    return JSON.stringify(trees[slot - 1]);
  };
}
