/**
 * Runs a resolved DAG: sources and stages in dependency order, independent stages concurrently
 * up to `jobs`, each reused when its key is unchanged. Row-mapped stages memoize unit by unit
 * and commit finished units in batches, so a killed run resumes where it stopped. A failing
 * stage marks its descendants not-run; the other branches finish.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { DuckDBInstance, DuckDBConnection } from '@duckdb/node-api';
import type { ResolvedDag, ResolvedStage } from '../dag/validate.ts';
import { FILE_SOURCE_COLUMNS, type Row } from '../dag/define.ts';
import { missingLlm, type StageContext, type StageLlm } from '../dag/stage.ts';
import { absentInputs, guardInputs } from '../dag/inputs.ts';
import { StatCache } from '../hash/stat-cache.ts';
import { CodeHasher } from '../hash/code-identity.ts';
import {
  readRows,
  iterRows,
  iterSegment,
  segmentLines,
  segmentPaths,
  writeArtifact,
  hashParts,
  hashRows,
  checkArtifact,
  ledgerEntryProblem,
  type ArtifactCheck,
  StoredLine,
  type ArtifactPart,
  type SegmentRef,
} from '../store/artifacts.ts';
import { unitsPath } from '../store/unit-keys.ts';
import {
  loadLedger,
  writeLedger,
  type Ledger,
  type LedgerEntry,
  type KeyComponents,
  type RowFacts,
  type RowStageRecord,
} from '../store/ledger.ts';
import { checkReads, projectRows, rowsForStage, type ProjectionInput } from './projected-rows.ts';
import { runRowStage, type Input } from './row-stage.ts';
import { runPartitionedStage, type PartitionedEnv } from './partitioned-stage.ts';
import { artifactFacts, reusedFacts, rowFacts } from './row-facts.ts';
import { LineWriter } from '../store/lines.ts';
import { tempPathFor } from '../store/atomic.ts';
import { errorMessage } from '../store/disk-full.ts';
import { acquireRunLock } from '../store/run-lock.ts';
import { appendRunRecords, refreshWarehouse, type RunRecord } from '../store/warehouse.ts';
import { sourceRows } from './sources.ts';
import { stageComponents, keyOf, explainStaleness } from './keys.ts';
import { decideReuse } from './decide.ts';
import { Semaphore } from './semaphore.ts';
import type { Workspace } from './workspace.ts';

export type StageStatus = 'ran' | 'reused' | 'failed' | 'not-run' | 'would-run';

/** With its facts (RowFacts): the most common reasons of its failure rows and its coverage. */
export interface StageResult extends RowFacts {
  stage: string;
  status: StageStatus;
  rowsComputed: number;
  rowsReused: number;
  rowsFailed: number;
  /** Calls sent to models (cached ones included), not those answered by offline providers. */
  llmCalls: number;
  llmCached: number;
  /** The stage's LLM client counters as the client reports them (calls, offline, cached, failed, tokens, cost). */
  counters: Record<string, number>;
  tokensIn: number;
  tokensOut: number;
  seconds: number;
  /** Why it ran (or would run). */
  reasons?: string[];
  error?: string;
  /** When it ran over an artifact of the same stage: that artifact's failure rows and rows by kind (what a retry cleared). */
  previous?: { rowsFailed: number; failureKinds?: RowFacts['failureKinds'] };
  /** The stage's `requiresRows` sentence, when it has no row but failure rows. */
  empty?: string;
  /** A partitioned table stage's partitions computed and taken from its memo (rowsComputed/rowsReused count their rows). */
  partitions?: { computed: number; reused: number };
}

export interface RunSummary {
  ok: boolean;
  stages: StageResult[];
  /** Problems with the store itself (a corrupt ledger, a warehouse that could not be refreshed), also written to stderr. */
  warnings?: string[];
}

/** What the runner needs of an LLM client: a per-stage view whose counters it can read. */
export interface LlmLike {
  forStage(stage: string): StageLlm;
}

export type RunEvent =
  | { type: 'stage-start'; stage: string; total: number | null; reasons: string[] }
  | { type: 'stage-progress'; stage: string; done: number; total: number }
  | { type: 'stage-end'; result: StageResult };

export interface RunOptions {
  /** Stages to bring up to date, with whatever they need; all when empty. */
  targets?: string[];
  force?: boolean;
  dryRun?: boolean;
  /**
   * Compute what is stale but persist nothing: no artifacts, memo, ledger, runs or warehouse.
   * `cdp estimate` runs this way with an LLM client that counts its misses instead of sending them.
   */
  ephemeral?: boolean;
  retryFailed?: boolean;
  /** Failure kinds to ask again besides failure rows (`cdp run --retry-answers`: ['answer']); see StageContext.retrying. */
  retryKinds?: string[];
  jobs?: number;
  waitSeconds?: number;
  /**
   * The run's LLM client, or a factory called when the first stage actually runs, so that a
   * run that reuses everything never loads it.
   */
  llm?: LlmLike | (() => Promise<LlmLike | undefined>);
  /** Extra warehouse views (name → SQL relation), e.g. the LLM call log. */
  extraViews?: () => Record<string, string>;
  onEvent?: (e: RunEvent) => void;
  signal?: AbortSignal;
  /**
   * `cdp verify`: every artifact reused is hashed in full and its ledger entry checked against its
   * segments; what does not match is rebuilt (with `dryRun`, only reported: `cdp status --verify`).
   * A stage stale for another reason is not run, only reported, as in a dry run.
   */
  verify?: boolean;
}

interface Outcome {
  ok: boolean;
  hash: string;
  /** The artifact's segments in the store; null when its rows are only in memory (an ephemeral run) or not made (a dry run). */
  segments: readonly SegmentRef[] | null;
  /** Set when the node will rerun in a dry run, so descendants know their inputs will change. */
  pending?: boolean;
}

const NONE: Outcome = { ok: false, hash: '', segments: null };

export class UnknownStageError extends Error {}

export function selectNodes(dag: ResolvedDag, targets: string[] | undefined): Set<string> {
  if (!targets?.length) return new Set(dag.order);
  const selected = new Set<string>();
  const stack: string[] = [];
  for (const t of targets) {
    if (!dag.graph.hasNode(t)) {
      throw new UnknownStageError(`unknown stage '${t}'; stages are: ${[...dag.stages.keys()].join(', ')}`);
    }
    stack.push(t);
  }
  while (stack.length) {
    const n = stack.pop()!;
    if (selected.has(n)) continue;
    selected.add(n);
    for (const p of dag.graph.predecessors(n) ?? []) stack.push(p);
  }
  return selected;
}

export async function runDag(dag: ResolvedDag, ws: Workspace, opts: RunOptions = {}): Promise<RunSummary> {
  const lock = opts.dryRun || opts.ephemeral ? null : await acquireRunLock(ws.lock, { waitSeconds: opts.waitSeconds });
  try {
    return await new Execution(dag, ws, opts).run();
  } finally {
    lock?.release();
  }
}

class Execution {
  private readonly ledger: Ledger;
  private readonly stat: StatCache;
  private readonly code: CodeHasher;
  private readonly outcomes = new Map<string, Promise<Outcome>>();
  private readonly rowsCache = new Map<string, Row[]>();
  /** Per input, the columns every selected table stage reading it declares, and those rows once read. */
  private readonly readsUnion = new Map<string, Set<string>>();
  private readonly projectedCache = new Map<string, Row[]>();
  private readonly results: StageResult[] = [];
  private readonly records: RunRecord[] = [];
  private readonly runId = new Date().toISOString().replace(/[-:.TZ]/g, '') + '-' + randomBytes(3).toString('hex');
  private duckInstance: Promise<{ db: DuckDBInstance; con: DuckDBConnection }> | null = null;
  private ledgerWrite: Promise<void> = Promise.resolve();
  private readonly warnings: string[] = [];

  constructor(
    private readonly dag: ResolvedDag,
    private readonly ws: Workspace,
    private readonly opts: RunOptions,
  ) {
    const { ledger, warning } = loadLedger(ws.ledger);
    this.ledger = ledger;
    if (warning) {
      // Kept aside rather than overwritten by this run's ledger: it may be worth a look.
      const persist = !opts.dryRun && !opts.ephemeral && existsSync(ws.ledger);
      if (persist) renameSync(ws.ledger, `${ws.ledger}.corrupt`);
      this.warn(`${warning}: every stage counts as never run${persist ? `; the damaged file is kept as ${ws.ledger}.corrupt` : ''}`);
    }
    this.stat = new StatCache(ws.statCache);
    this.code = new CodeHasher(dag.root, this.stat);
  }

  async run(): Promise<RunSummary> {
    const selected = selectNodes(this.dag, this.opts.targets);
    const jobs = new Semaphore(Math.max(1, this.opts.jobs ?? this.dag.config.jobs ?? 2));
    // Input rows read for a stage are kept for its siblings only until the last consumer is done.
    const consumers = new Map<string, number>();
    for (const name of selected) for (const p of this.dag.graph.predecessors(name) ?? []) consumers.set(p, (consumers.get(p) ?? 0) + 1);
    const release = (name: string) => {
      for (const p of this.dag.graph.predecessors(name) ?? []) {
        const left = (consumers.get(p) ?? 1) - 1;
        consumers.set(p, left);
        if (left <= 0) {
          this.rowsCache.delete(p);
          this.projectedCache.delete(p);
        }
      }
    };
    // Several table stages often read one wide input, each a few columns: one projection with all
    // their columns is read once and shared, not once per stage.
    for (const name of selected) {
      const stage = this.dag.stages.get(name);
      if (stage?.impl.kind !== 'table') continue;
      for (const [local, columns] of Object.entries(stage.impl.reads ?? {})) {
        const from = stage.decl.inputs?.[local];
        if (!from) continue;
        let union = this.readsUnion.get(from);
        if (!union) this.readsUnion.set(from, (union = new Set()));
        for (const c of columns) union.add(c);
      }
    }
    for (const name of this.dag.order) {
      if (!selected.has(name)) continue;
      this.outcomes.set(
        name,
        this.node(name, jobs).finally(() => release(name)),
      );
    }
    await Promise.all(this.outcomes.values());
    // An ephemeral run (cdp estimate) leaves the store exactly as it found it, stat cache included.
    if (!this.opts.ephemeral) {
      try {
        this.stat.save();
      } catch (err) {
        // A cache: losing it costs the next run some hashing, nothing else.
        this.warn(`the stat cache was not saved: ${errorMessage(err, { dir: this.ws.statCache, what: `writing ${this.ws.statCache}` })}`);
      }
    }
    if (this.duckInstance) {
      const { db, con } = await this.duckInstance;
      con.closeSync();
      db.closeSync();
    }
    let warehouseOk = true;
    if (!this.opts.dryRun && !this.opts.ephemeral) {
      if (this.ledgerDirty) await this.saveLedger({ now: true });
      await this.ledgerWrite;
      appendRunRecords(this.ws.runsLog, this.records, (m) => this.warn(m));
      try {
        await this.refreshWarehouse();
      } catch (err) {
        // The stages' results are safe in the store; only the views are behind. Not ok, so no
        // no-op fingerprint is written and the next run tries the refresh again.
        warehouseOk = false;
        const why = errorMessage(err, { dir: this.ws.warehouse, what: `writing ${this.ws.warehouse}` });
        this.warn(`the warehouse ${this.ws.warehouse} could not be refreshed (${why}); rerun \`cdp run\` to rebuild it`);
      }
    }
    const order = new Map(this.dag.order.map((n, i) => [n, i]));
    const stages = this.results.sort((a, b) => order.get(a.stage)! - order.get(b.stage)!);
    if (!this.opts.dryRun && !this.opts.ephemeral) this.markEmpty(stages);
    const ok = warehouseOk && stages.every((s) => s.status !== 'failed' && s.status !== 'not-run');
    return { ok, stages, ...(this.warnings.length ? { warnings: this.warnings } : {}) };
  }

  /** A stage that declares `requiresRows` and holds nothing but failure rows says so. */
  private markEmpty(stages: StageResult[]): void {
    for (const s of stages) {
      const need = this.dag.stages.get(s.stage)?.decl.requiresRows;
      const e = this.ledger.entries[s.stage];
      if (need && e && (s.status === 'ran' || s.status === 'reused') && e.rows - e.failed === 0) s.empty = need;
    }
  }

  private warn(message: string): void {
    this.warnings.push(message);
    process.stderr.write(`warning: ${message}\n`);
  }

  private ledgerDirty = false;

  /**
   * Whether a ledger entry's artifact is intact; a file whose stat changed but whose content did
   * not gets its new stat recorded (in a run that persists), so the next check is a stat again.
   */
  private verify(name: string, entry: LedgerEntry | undefined): ArtifactCheck {
    if (!entry) return { ok: false, reason: 'never ran' };
    const problem = this.opts.verify ? ledgerEntryProblem(entry) : null;
    if (problem) return { ok: false, reason: problem };
    const check = checkArtifact(this.ws.store, name, entry.segments, this.opts.verify);
    if (check.ok && check.restat && !this.opts.dryRun && !this.opts.ephemeral) {
      entry.segments = check.restat;
      this.ledgerDirty = true;
    }
    return check;
  }

  private llmPromise: Promise<LlmLike | undefined> | null = null;

  private llmClient(): Promise<LlmLike | undefined> {
    const l = this.opts.llm;
    this.llmPromise ??= typeof l === 'function' ? l() : Promise.resolve(l);
    return this.llmPromise;
  }

  private duck = async (): Promise<DuckDBConnection> => {
    this.duckInstance ??= (async () => {
      // Loaded on first use: a no-op rerun never needs DuckDB, and loading it costs a second.
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const db = await DuckDBInstance.create(':memory:', { threads: '2' });
      return { db, con: await db.connect() };
    })();
    return (await this.duckInstance).con;
  };

  private async refreshWarehouse(): Promise<void> {
    const views = new Map<string, string[]>();
    for (const name of this.dag.order) {
      const e = this.ledger.entries[name];
      if (!e?.segments?.length) continue;
      const files = e.segments.map((seg) => segmentPaths(this.ws.store, name, seg.hash).parquet);
      if (files.every((f) => existsSync(f))) views.set(name, files);
    }
    await refreshWarehouse({
      warehouse: this.ws.warehouse,
      storeDir: this.ws.store,
      views,
      runsLog: this.ws.runsLog,
      extra: this.opts.extraViews?.() ?? {},
      statePath: join(this.ws.store, 'warehouse-state.json'),
    });
  }

  private rows(name: string, segments: readonly SegmentRef[] | null): Row[] {
    let rows = this.rowsCache.get(name);
    if (!rows) {
      if (!segments) throw new Error(`internal: the rows of '${name}' are neither in memory nor in the store`);
      rows = readRows(this.ws.store, name, segments);
      this.rowsCache.set(name, rows);
    }
    return rows;
  }

  /** An input's rows with only the columns table stages read (projected-rows.ts), shared by them. */
  private projectedRows(stage: string, local: string, input: Input, columns: readonly string[]): Row[] {
    const cached = this.rowsCache.get(input.from);
    const lines = cached || !input.segments ? null : () => this.segmentsLines(input);
    const known = this.dag.stages.get(input.from)?.columns ?? FILE_SOURCE_COLUMNS;
    const source: ProjectionInput = { from: input.from, columns: known, lines, rows: () => cached ?? input.rows() };
    checkReads(stage, local, source, columns);
    let rows = this.projectedCache.get(input.from);
    if (!rows) {
      rows = projectRows(source, this.readsUnion.get(input.from) ?? columns);
      this.projectedCache.set(input.from, rows);
    }
    return rowsForStage(stage, local, source, columns, rows);
  }

  private *segmentsLines(input: Input): Generator<string> {
    for (const seg of input.segments!) yield* segmentLines(this.ws.store, input.from, seg.hash);
  }

  private lastLedgerWrite = 0;

  /**
   * Writes the ledger, at most once a second while stages finish (and once more at the end of the
   * run): a stage whose entry a kill loses is rebuilt from its memo, unit for unit, so writing the
   * whole ledger after every one of 200 stages buys nothing but time.
   */
  private saveLedger(opts: { now?: boolean } = {}): Promise<void> {
    this.ledgerDirty = true;
    if (!opts.now && Date.now() - this.lastLedgerWrite < 1000) return this.ledgerWrite;
    this.lastLedgerWrite = Date.now();
    this.ledgerDirty = false;
    // Serialised so that concurrent stages never interleave two writes of the file.
    this.ledgerWrite = this.ledgerWrite.then(() => writeLedger(this.ws.ledger, this.ledger));
    return this.ledgerWrite;
  }

  private async node(name: string, jobs: Semaphore): Promise<Outcome> {
    if (this.dag.sources.has(name)) return this.source(name);
    const stage = this.dag.stages.get(name)!;
    const inputs = Object.entries(stage.decl.inputs ?? {});
    const upstream = await Promise.all(inputs.map(([, from]) => this.outcomes.get(from)!));
    const started = new Date();
    const failedInputs = inputs.filter((_, i) => !upstream[i].ok).map(([, from]) => from);
    if (failedInputs.length) {
      this.finish(
        name,
        { status: 'not-run', error: `not run: upstream ${failedInputs.map((f) => `'${f}'`).join(', ')} failed or did not run` },
        started,
      );
      return NONE;
    }
    const inputHashes: KeyComponents['inputs'] = {};
    inputs.forEach(([local, from], i) => (inputHashes[local] = { from, hash: upstream[i].hash }));
    const pendingInputs = inputs.filter((_, i) => upstream[i].pending).map(([local, from]) => ({ local, from }));

    let components: KeyComponents;
    try {
      components = stageComponents(stage, this.code, inputHashes);
    } catch (err) {
      this.finish(name, { status: 'failed', error: (err as Error).message }, started);
      return NONE;
    }
    const key = keyOf(components);
    const prev = this.ledger.entries[name];
    const sameKey = prev?.key === key;
    // Only an artifact that would be reused is worth checking.
    const check: ArtifactCheck = sameKey ? this.verify(name, prev) : { ok: false, reason: 'key changed' };
    const decision = decideReuse({
      sameKey,
      check,
      pendingInputs,
      // --force applies to the stages named (all when none are), not to what they need.
      forced: !!this.opts.force && (!this.opts.targets?.length || this.opts.targets.includes(name)),
      retryFailed: this.opts.retryFailed,
      failedRows: prev?.failed,
      retryKinds: this.opts.retryKinds,
      kinds: prev?.facts?.failureKinds,
      staleness: () => explainStaleness(components, prev),
    });
    if (!decision.run) {
      const looks = reusedFacts(prev!, stage.decl.covers, () => iterRows(this.ws.store, name, prev!.segments!));
      this.finish(name, { status: 'reused', rowsReused: prev!.rows, rowsFailed: prev!.failed, ...looks }, started, key, components);
      return { ok: true, hash: prev!.artifact, segments: prev!.segments! };
    }
    const { reasons } = decision;
    const forced = reasons[0] === '--force';
    if (this.opts.dryRun || (this.opts.verify && !decision.rebuildOnly)) {
      this.finish(name, { status: 'would-run', reasons }, started, key, components);
      // Rebuilding a damaged artifact under an unchanged key gives back the rows the key names:
      // its descendants' keys stay as they are.
      return decision.rebuildOnly
        ? { ok: true, hash: prev!.artifact, segments: null }
        : { ok: true, hash: key, segments: null, pending: true };
    }

    await jobs.acquire();
    let llmView: StageLlm | undefined;
    try {
      llmView = (await this.llmClient())?.forStage(name);
    } catch (err) {
      jobs.release();
      this.finish(
        name,
        { status: 'failed', error: `the LLM client could not be created: ${(err as Error).message}`, reasons },
        started,
        key,
        components,
      );
      return NONE;
    }
    const ctx: StageContext = {
      stage: name,
      params: stage.decl.params ?? {},
      root: this.dag.root,
      llm: llmView ?? missingLlm(name),
      log: (m) => process.stderr.write(`[${name}] ${m}\n`),
      signal: this.opts.signal ?? new AbortController().signal,
      persist: !this.opts.ephemeral,
      retrying: this.opts.retryKinds ?? [],
    };
    try {
      const inputs$: Record<string, Input> = {};
      inputs.forEach(([local, from], i) => {
        const segments = upstream[i].segments;
        inputs$[local] = { from, segments, rows: () => this.rows(from, segments) };
      });
      let out: {
        parts: Iterable<ArtifactPart>;
        computed: number;
        reused: number;
        record?: () => RowStageRecord;
        units?: Map<number, string[]>;
        unitRows?: Map<number, number[]>;
        durable?: Promise<void>;
      };
      let partitions: StageResult['partitions'];
      let partitionKeys: string[] | undefined;
      if (stage.impl.kind === 'table') {
        this.emit({ type: 'stage-start', stage: name, total: null, reasons });
        const reads = stage.impl.reads ?? {};
        const all = Object.fromEntries(
          Object.entries(inputs$).map(([k, f]) => [k, reads[k] ? this.projectedRows(name, k, f, reads[k]) : f.rows()]),
        );
        // A declared optional input the config leaves out is handed over as no rows, never left undefined.
        for (const k of absentInputs(stage.impl.inputs, stage.decl.inputs).whole) all[k] = [];
        if (stage.impl.partition) {
          const env = this.partitionedEnv(name, forced);
          const p = await runPartitionedStage(env, stage.impl, components, all, ctx);
          p.durable.catch(() => {});
          out = { parts: [{ rows: p.rows, chunk: true }], computed: p.rowsComputed, reused: p.rowsReused, durable: p.durable };
          partitions = p.partitions;
          partitionKeys = p.keys;
        } else {
          const rows = await stage.impl.run(guardInputs(name, 'input', all, Object.keys(all)), ctx);
          if (!Array.isArray(rows)) throw new Error(`stage '${name}' must return an array of rows, got ${typeof rows}`);
          out = { parts: [{ rows, chunk: true }], computed: rows.length, reused: 0 };
        }
      } else {
        const env = {
          store: this.ws.store,
          retryFailed: !!this.opts.retryFailed,
          retryKinds: this.opts.retryKinds ?? [],
          ephemeral: !!this.opts.ephemeral,
          inMemory: (from: string) => this.rowsCache.has(from),
          emit: (e: RunEvent) => this.emit(e),
          warn: (m: string) => this.warn(m),
          fullChecks: !!this.opts.verify,
        };
        out = await runRowStage(env, name, stage, components, inputs$, ctx, reasons, forced, prev);
        // Awaited in commit; a rejection before that is not an unhandled one.
        out.durable?.catch(() => {});
      }
      const record = out.record?.();
      const done = await this.commit(name, out.parts, stage.columns, prev, {
        key,
        components,
        covers: stage.decl.covers,
        record,
        durable: out.durable,
        partitionKeys,
      });
      if (record && done.segments) {
        for (const [at, keys] of out.units ?? []) {
          writeUnitKeys(unitsPath(this.ws.store, name, done.segments[at].hash, record.from[at]), keys, out.unitRows?.get(at));
        }
      }
      const counted = readCounters(llmView);
      const previous = prev ? { rowsFailed: prev.failed, failureKinds: prev.facts?.failureKinds } : undefined;
      const status = {
        status: 'ran' as const,
        rowsComputed: out.computed,
        rowsReused: out.reused,
        rowsFailed: done.failed,
        reasons,
        previous,
        ...(partitions ? { partitions } : {}),
      };
      this.finish(name, { ...status, ...done.facts, ...counted }, started, key, components);
      return { ok: true, hash: done.hash, segments: done.segments };
    } catch (err) {
      const error = errorMessage(err, { dir: this.dag.root, what: `stage '${name}' was writing` });
      this.finish(name, { status: 'failed', error, reasons, ...readCounters(llmView) }, started, key, components);
      return NONE;
    } finally {
      jobs.release();
    }
  }

  private partitionedEnv(name: string, forced: boolean): PartitionedEnv {
    return {
      store: this.ws.store,
      forced,
      retryFailed: !!this.opts.retryFailed,
      retryKinds: this.opts.retryKinds ?? [],
      ephemeral: !!this.opts.ephemeral,
      progress: (done, total) => this.emit({ type: 'stage-progress', stage: name, done, total }),
    };
  }

  private async source(name: string): Promise<Outcome> {
    const started = new Date();
    const src = this.dag.config.sources[name];
    try {
      const rows = sourceRows(this.dag.root, src, this.stat);
      const { hash } = hashRows(rows, FILE_SOURCE_COLUMNS, name);
      const prev = this.ledger.entries[name];
      // A source's key is its artifact's hash: a function of its files alone.
      const sameKey = prev?.artifact === hash;
      const stale = prev ? 'files changed' : 'never ran';
      const check: ArtifactCheck = sameKey ? this.verify(name, prev) : { ok: false, reason: stale };
      const decision = decideReuse({ sameKey, check, staleness: () => [stale] });
      if (this.opts.dryRun || (this.opts.verify && decision.run && !decision.rebuildOnly)) {
        // Rewriting a source's artifact changes nothing downstream, so a dry run has no pending hash.
        const reasons = decision.run ? decision.reasons : undefined;
        this.finish(name, { status: decision.run ? 'would-run' : 'reused', rowsReused: rows.length, reasons }, started, hash);
        return { ok: true, hash, segments: sameKey && check.ok ? prev!.segments! : null };
      }
      if (!rows.length) throw new Error(`source '${name}' matches no files (patterns: ${src.patterns.join(', ')})`);
      if (!decision.run) {
        this.finish(name, { status: 'reused', rowsReused: rows.length }, started, hash);
        return { ok: true, hash, segments: prev!.segments! };
      }
      const done = await this.commit(name, [{ rows, chunk: true }], FILE_SOURCE_COLUMNS, prev, { key: hash, components: null });
      // An ephemeral run of a source states no reason (as before): nothing is written.
      const shown = this.opts.ephemeral ? {} : { reasons: decision.reasons };
      this.finish(name, { status: 'ran', rowsComputed: rows.length, ...shown }, started, hash);
      return { ok: true, hash: done.hash, segments: done.segments };
    } catch (err) {
      this.finish(
        name,
        { status: 'failed', error: errorMessage(err, { dir: this.ws.store, what: `source '${name}' was written` }) },
        started,
      );
      return NONE;
    }
  }

  /**
   * The one commit path of sources and stages: the artifact, then its ledger entry, then the
   * rows kept for this run's readers. An ephemeral run persists nothing: the rows are kept in
   * memory under the hash they would have (no segments says there is no file).
   */
  private async commit(
    name: string,
    parts: Iterable<ArtifactPart>,
    columns: ResolvedStage['columns'],
    prev: LedgerEntry | undefined,
    entry: {
      key: string;
      components: KeyComponents | null;
      covers?: string;
      record?: RowStageRecord;
      durable?: Promise<void>;
      partitionKeys?: string[];
    },
  ): Promise<{ hash: string; segments: SegmentRef[] | null; failed: number; facts: RowFacts }> {
    if (this.opts.ephemeral) {
      // Nothing is written, so this run's readers get the rows from memory (and no failed rows are recorded).
      const kept: Row[] = [];
      const replay: ArtifactPart[] = [];
      for (const p of parts) {
        const rows =
          'reuse' in p
            ? [...iterSegment(this.ws.store, name, p.reuse.hash)]
            : [...p.rows].map((r) => (r instanceof StoredLine ? r.row() : r));
        kept.push(...rows);
        replay.push('reuse' in p ? p : { rows, chunk: p.chunk });
      }
      this.rowsCache.set(name, kept);
      return { hash: hashParts(replay, columns, name).hash, segments: null, failed: 0, facts: rowFacts(kept, entry.covers) };
    }
    const artifact = await writeArtifact(this.ws.store, name, parts, columns, this.duck, prev?.segments, {
      covers: entry.covers,
      fullChecks: this.opts.verify,
    });
    // The stage is done only once the units it computed are on disk too.
    await entry.durable;
    // Summed from what each segment recorded when it was written: a reused segment is not read.
    const { failed, facts } = artifactFacts(this.ws.store, name, artifact.segments, entry.covers);
    const record = entry.record;
    this.ledger.entries[name] = {
      key: entry.key,
      components: entry.components,
      artifact: artifact.hash,
      segments: artifact.segments,
      ...(record ? { rowStage: record } : {}),
      ...(entry.partitionKeys ? { partitionKeys: entry.partitionKeys } : {}),
      rows: artifact.rows,
      failed,
      facts,
      finishedAt: new Date().toISOString(),
    };
    await this.saveLedger();
    return { hash: artifact.hash, segments: artifact.segments, failed, facts };
  }

  private emit(e: RunEvent): void {
    this.opts.onEvent?.(e);
  }

  private finish(
    name: string,
    r: Partial<StageResult> & { status: StageStatus },
    started: Date,
    key: string | null = null,
    components?: KeyComponents,
  ): void {
    const ended = new Date();
    const result: StageResult = {
      stage: name,
      rowsComputed: 0,
      rowsReused: 0,
      rowsFailed: 0,
      llmCalls: 0,
      llmCached: 0,
      counters: {},
      tokensIn: 0,
      tokensOut: 0,
      seconds: (ended.getTime() - started.getTime()) / 1000,
      ...r,
    };
    this.results.push(result);
    this.emit({ type: 'stage-end', result });
    if (r.status === 'would-run') return;
    this.records.push({
      run_id: this.runId,
      stage: name,
      status: r.status,
      key,
      inputs: components ? Object.fromEntries(Object.entries(components.inputs).map(([k, v]) => [k, v.hash])) : {},
      params: components?.params.value ?? null,
      started_at: started.toISOString(),
      ended_at: ended.toISOString(),
      seconds: result.seconds,
      rows_computed: result.rowsComputed,
      rows_reused: result.rowsReused,
      rows_failed: result.rowsFailed,
      llm_calls: result.llmCalls,
      llm_cached: result.llmCached,
      counters: result.counters,
      tokens_in: result.tokensIn,
      tokens_out: result.tokensOut,
      error: result.error ?? null,
    });
  }
}

/** The unit keys of an artifact, one a line, written in batches (a paper-scale stage has 700k). */
function writeUnitKeys(path: string, keys: string[], rows?: number[]): void {
  // Renamed into place whole, but not fsynced: a units file is checked against its segment's rows
  // before it is used (row-stage.ts), and one lost to a crash only makes the memo serve those units.
  const tmp = tempPathFor(path);
  try {
    const out = new LineWriter(tmp);
    try {
      keys.forEach((k, i) => out.write(rows ? `${k}\t${rows[i]}` : k));
    } finally {
      out.close({ sync: false });
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * The stage view's counters, passed on as a generic report (every finite number it holds); the
 * summary's own columns are read from it: calls answered in-process (`offline`) are not LLM calls.
 */
function readCounters(view: unknown): Pick<StageResult, 'llmCalls' | 'llmCached' | 'counters' | 'tokensIn' | 'tokensOut'> {
  const v = view as { counters?: unknown } | undefined;
  const raw = typeof v?.counters === 'function' ? (v.counters as () => unknown)() : v?.counters;
  const counters: Record<string, number> = {};
  if (raw && typeof raw === 'object') {
    for (const [k, n] of Object.entries(raw)) if (typeof n === 'number' && Number.isFinite(n)) counters[k] = n;
  }
  const n = (k: string) => counters[k] ?? 0;
  return {
    llmCalls: n('calls') - n('offline'),
    llmCached: n('cached'),
    counters,
    tokensIn: n('inputTokens'),
    tokensOut: n('outputTokens'),
  };
}
