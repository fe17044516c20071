/**
 * The rows of stages' inputs read by this run, held for the stages that read them: an input's
 * rows are kept only until its last consumer is done. Several table stages often read one wide
 * input, each a few columns: one projection with all their columns (projected-rows.ts) is read
 * once and shared, not once per stage.
 */
import { FILE_SOURCE_COLUMNS, type Row } from '../dag/define.ts';
import type { ResolvedDag } from '../dag/validate.ts';
import { readRows, type SegmentRef } from '../store/artifacts.ts';
import { projectedSegment } from '../store/segment-projections.ts';
import { checkReads, projectRows, rowsForStage, type ProjectionInput } from './projected-rows.ts';
import type { Input } from './runner-types.ts';

export class InputRows {
  private readonly cache = new Map<string, Row[]>();
  private readonly projectedCache = new Map<string, Row[]>();
  /** Per input, the columns every selected table stage reading it declares. */
  private readonly readsUnion = new Map<string, Set<string>>();
  private readonly consumers = new Map<string, number>();

  constructor(
    private readonly dag: ResolvedDag,
    private readonly store: string,
    selected: ReadonlySet<string>,
  ) {
    for (const name of selected)
      for (const p of dag.graph.predecessors(name) ?? []) this.consumers.set(p, (this.consumers.get(p) ?? 0) + 1);
    for (const name of selected) {
      const stage = dag.stages.get(name);
      if (stage?.impl.kind !== 'table') continue;
      for (const [local, columns] of Object.entries(stage.impl.reads ?? {})) {
        const from = stage.decl.inputs?.[local];
        if (!from) continue;
        let union = this.readsUnion.get(from);
        if (!union) this.readsUnion.set(from, (union = new Set()));
        for (const c of columns) union.add(c);
      }
    }
  }

  /** A stage is done: the inputs it was the last consumer of are dropped. */
  release(name: string): void {
    for (const p of this.dag.graph.predecessors(name) ?? []) {
      const left = (this.consumers.get(p) ?? 1) - 1;
      this.consumers.set(p, left);
      if (left <= 0) {
        this.cache.delete(p);
        this.projectedCache.delete(p);
      }
    }
  }

  has(name: string): boolean {
    return this.cache.has(name);
  }

  /** Rows a run that persists nothing keeps in memory for its readers. */
  keep(name: string, rows: Row[]): void {
    this.cache.set(name, rows);
  }

  rows(name: string, segments: readonly SegmentRef[] | null): Row[] {
    let rows = this.cache.get(name);
    if (!rows) {
      if (!segments) throw new Error(`internal: the rows of '${name}' are neither in memory nor in the store`);
      rows = readRows(this.store, name, segments);
      this.cache.set(name, rows);
    }
    return rows;
  }

  /** An input's rows with only the columns table stages read (projected-rows.ts), shared by them. */
  projected(stage: string, local: string, input: Input, columns: readonly string[]): Row[] {
    const cached = this.cache.get(input.from);
    const fromStore = !cached && !!input.segments;
    const known = this.dag.stages.get(input.from)?.columns ?? FILE_SOURCE_COLUMNS;
    const source: ProjectionInput = { from: input.from, columns: known, rows: () => cached ?? input.rows() };
    checkReads(stage, local, source, columns);
    let rows = this.projectedCache.get(input.from);
    if (!rows) {
      const union = this.readsUnion.get(input.from) ?? columns;
      rows = fromStore ? this.fromProjections(input, [...union].sort()) : projectRows(source, union);
      this.projectedCache.set(input.from, rows);
    }
    return rowsForStage(stage, local, source, columns, rows);
  }

  /** Segment by segment, each from its projection beside it when an earlier run left one (segment-projections.ts). */
  private fromProjections(input: Input, columns: readonly string[]): Row[] {
    const rows: Row[] = [];
    for (const seg of input.segments!) for (const r of projectedSegment(this.store, input.from, seg, columns)) rows.push(r);
    return rows;
  }
}
