/**
 * The benchmark data the offline agents answer from, filled while a run goes on.
 *
 * The run's LLM client, and with it the offline handlers, exist before any stage has produced a
 * guideline or a case; the agents need those rows. So the task stages hand each unit's rows to a
 * process-wide world (`agentWorld.add({ guidelines, trees, cdps, vignettes })`) before calling a
 * model, and the handlers from `worldHandlers()` read the world at call time. A unit whose result
 * is reused from the memo neither adds rows nor calls a model, so a rerun costs nothing here.
 *
 * `add` extends the indexes of one AgentContext in place (the handlers hold that object): adding
 * the same rows again is a no-op (row objects already seen are skipped by identity, others by
 * content), a changed row replaces the old one in every index, and nothing is ever rebuilt
 * wholesale. Rows are accepted as the stages' tables hold them: `trees` rows carry `tree_json`
 * (or a parsed `tree`); rows with an `error`, or missing what the agents need, are ignored.
 */
import type { OfflineHandler } from '../../pipeline/llm/types.ts';
import type { Cdp, ReasoningTree } from '../construct/types.ts';
import { createAgentContext, normaliseText, type AgentContext } from './agent-context.ts';
import { offlineHandlers, SIMULATED_ROSTER } from './roster.ts';

type Rows = ReadonlyArray<Readonly<Record<string, unknown>>>;

export interface WorldRows {
  /** `guidelines` rows: guideline_id, markdown. */
  guidelines?: Rows;
  /** `trees` rows: guideline_id and tree_json (or tree). */
  trees?: Rows;
  /** `cdps` rows. */
  cdps?: Rows;
  /** `vignettes` rows: cdp_id, vignette. */
  vignettes?: Rows;
}

export interface WorldSize {
  guidelines: number;
  trees: number;
  cdps: number;
  vignettes: number;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

function removeFrom<T>(map: Map<string, T[]>, key: string, keep: (x: T) => boolean): void {
  const list = map.get(key);
  if (!list) return;
  const rest = list.filter(keep);
  if (rest.length) map.set(key, rest);
  else map.delete(key);
}

export class AgentWorld {
  /** The one context every handler of this world reads; mutated in place, never replaced. */
  readonly context: AgentContext = createAgentContext({ guidelines: [], trees: [], cdps: [], vignettes: [] });
  private seen = new WeakSet<object>();
  private readonly guidelineRaw = new Map<string, string>();
  private readonly treeRaw = new Map<string, string>();
  private readonly cdpRaw = new Map<string, string>();
  private readonly vignetteRaw = new Map<string, string>();

  add(rows: WorldRows): void {
    for (const r of rows.guidelines ?? []) if (this.fresh(r)) this.addGuideline(r);
    for (const r of rows.trees ?? []) if (this.fresh(r)) this.addTree(r);
    for (const r of rows.cdps ?? []) if (this.fresh(r)) this.addCdp(r);
    for (const r of rows.vignettes ?? []) if (this.fresh(r)) this.addVignette(r);
  }

  size(): WorldSize {
    return { guidelines: this.guidelineRaw.size, trees: this.treeRaw.size, cdps: this.cdpRaw.size, vignettes: this.vignetteRaw.size };
  }

  /** Empties the world (the context object stays the same, so existing handlers see it empty). */
  clear(): void {
    const c = this.context;
    for (const m of [c.guidelineByText, c.trees, c.cdps, c.cdpsByGuideline, c.vignetteOf, c.cdpsByVignette]) m.clear();
    c.guidelineTexts.length = 0;
    for (const m of [this.guidelineRaw, this.treeRaw, this.cdpRaw, this.vignetteRaw]) m.clear();
    this.seen = new WeakSet();
  }

  /** Row objects are usually shared by every unit of a driving row (one per model): skip by identity. */
  private fresh(r: object): boolean {
    if (r === null || typeof r !== 'object' || this.seen.has(r)) return false;
    this.seen.add(r);
    return (r as { error?: unknown }).error == null;
  }

  private addGuideline(r: Readonly<Record<string, unknown>>): void {
    const id = str(r.guideline_id);
    const markdown = typeof r.markdown === 'string' ? r.markdown : null;
    if (id === null || markdown === null || this.guidelineRaw.get(id) === markdown) return;
    const c = this.context;
    if (this.guidelineRaw.has(id)) {
      const old = c.guidelineTexts.findIndex((g) => g.guideline_id === id);
      if (old >= 0) {
        if (c.guidelineByText.get(c.guidelineTexts[old]!.text) === id) c.guidelineByText.delete(c.guidelineTexts[old]!.text);
        c.guidelineTexts.splice(old, 1);
      }
    }
    this.guidelineRaw.set(id, markdown);
    const text = normaliseText(markdown);
    if (text === '') return;
    c.guidelineByText.set(text, id);
    // Longest first, as createAgentContext orders them (the substring fallback wants the longest match).
    let at = c.guidelineTexts.findIndex((g) => g.text.length < text.length);
    if (at < 0) at = c.guidelineTexts.length;
    c.guidelineTexts.splice(at, 0, { guideline_id: id, text });
  }

  private addTree(r: Readonly<Record<string, unknown>>): void {
    const id = str(r.guideline_id);
    if (id === null) return;
    let raw: string;
    let tree: ReasoningTree;
    if (typeof r.tree_json === 'string') {
      raw = r.tree_json;
      if (this.treeRaw.get(id) === raw) return;
      try {
        tree = JSON.parse(raw) as ReasoningTree;
      } catch {
        return;
      }
    } else if (r.tree !== null && typeof r.tree === 'object') {
      tree = r.tree as ReasoningTree;
      raw = JSON.stringify(tree);
      if (this.treeRaw.get(id) === raw) return;
    } else return;
    if (tree === null || typeof tree !== 'object' || typeof tree.decision_tree !== 'object' || tree.decision_tree === null) return;
    this.treeRaw.set(id, raw);
    this.context.trees.set(id, tree);
  }

  private addCdp(r: Readonly<Record<string, unknown>>): void {
    const id = str(r.cdp_id);
    const guideline = str(r.guideline_id);
    if (id === null || guideline === null || !Array.isArray(r.steps) || typeof r.conclusion !== 'string') return;
    const raw = JSON.stringify(r);
    if (this.cdpRaw.get(id) === raw) return;
    const c = this.context;
    const old = c.cdps.get(id);
    if (old) removeFrom(c.cdpsByGuideline, old.guideline_id, (x) => x.cdp_id !== id);
    const cdp = r as unknown as Cdp;
    this.cdpRaw.set(id, raw);
    c.cdps.set(id, cdp);
    const list = c.cdpsByGuideline.get(guideline) ?? [];
    list.push(cdp);
    c.cdpsByGuideline.set(guideline, list);
  }

  private addVignette(r: Readonly<Record<string, unknown>>): void {
    const id = str(r.cdp_id);
    const vignette = typeof r.vignette === 'string' ? r.vignette : null;
    if (id === null || vignette === null || this.vignetteRaw.get(id) === vignette) return;
    const c = this.context;
    const old = c.vignetteOf.get(id);
    if (old !== undefined) {
      c.vignetteOf.delete(id);
      removeFrom(c.cdpsByVignette, old, (x) => x !== id);
    }
    this.vignetteRaw.set(id, vignette);
    const text = normaliseText(vignette);
    if (text === '') return;
    c.vignetteOf.set(id, text);
    const list = c.cdpsByVignette.get(text) ?? [];
    if (!list.includes(id)) list.push(id);
    c.cdpsByVignette.set(text, list);
  }
}

/** The world of this process: task stages add to it, the run's offline handlers read it. */
export const agentWorld = new AgentWorld();

/**
 * Offline handlers for the simulated models (default: the default simulated roster), answering
 * from `world` as it is when each call arrives. Register them in the run's LLM client.
 */
export function worldHandlers(
  names: readonly string[] = SIMULATED_ROSTER.map((m) => m.name),
  world: AgentWorld = agentWorld,
): Record<string, OfflineHandler> {
  return offlineHandlers(world.context, names);
}
