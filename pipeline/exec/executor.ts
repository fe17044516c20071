/**
 * Runs a resolved DAG: sources and stages in dependency order, independent stages concurrently
 * up to `jobs`, each reused when its key is unchanged. Row-mapped stages memoize unit by unit
 * and commit finished units in batches, so a killed run resumes where it stopped. A failing
 * stage marks its descendants not-run; the other branches finish.
 */
import { existsSync, renameSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { DuckDBInstance, DuckDBConnection } from '@duckdb/node-api';
import type { ResolvedDag, ResolvedStage } from '../dag/validate.ts';
import { FILE_SOURCE_COLUMNS, type Row } from '../dag/define.ts';
import { missingLlm, type StageContext, type StageLlm } from '../dag/stage.ts';
import { StatCache } from '../hash/stat-cache.ts';
import { CodeHasher } from '../hash/code-identity.ts';
import { hashValue } from '../hash/canonical.ts';
import { artifactPaths, readRows, iterRows, writeArtifact, hashRows, checkArtifact, type ArtifactCheck } from '../store/artifacts.ts';
import { loadLedger, writeLedger, type Ledger, type LedgerEntry, type KeyComponents, type RowFacts } from '../store/ledger.ts';
import { RowStore } from '../store/row-store.ts';
import { LineWriter } from '../store/lines.ts';
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
}

interface Outcome {
  ok: boolean;
  hash: string;
  ndjson: string;
  /** Set when the node will rerun in a dry run, so descendants know their inputs will change. */
  pending?: boolean;
}

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
        if (left <= 0) this.rowsCache.delete(p);
      }
    };
    for (const name of this.dag.order) {
      if (!selected.has(name)) continue;
      this.outcomes.set(
        name,
        this.node(name, jobs).finally(() => release(name)),
      );
    }
    await Promise.all(this.outcomes.values());
    // An ephemeral run (cdp estimate) leaves the store exactly as it found it, stat cache included.
    if (!this.opts.ephemeral) this.stat.save();
    if (this.duckInstance) {
      const { db, con } = await this.duckInstance;
      con.closeSync();
      db.closeSync();
    }
    let warehouseOk = true;
    if (!this.opts.dryRun && !this.opts.ephemeral) {
      if (this.ledgerDirty) await this.saveLedger();
      appendRunRecords(this.ws.runsLog, this.records);
      try {
        await this.refreshWarehouse();
      } catch (err) {
        // The stages' results are safe in the store; only the views are behind. Not ok, so no
        // no-op fingerprint is written and the next run tries the refresh again.
        warehouseOk = false;
        this.warn(`the warehouse ${this.ws.warehouse} could not be refreshed (${(err as Error).message}); rerun \`cdp run\` to rebuild it`);
      }
    }
    const order = new Map(this.dag.order.map((n, i) => [n, i]));
    const stages = this.results.sort((a, b) => order.get(a.stage)! - order.get(b.stage)!);
    const ok = warehouseOk && stages.every((s) => s.status !== 'failed' && s.status !== 'not-run');
    return { ok, stages, ...(this.warnings.length ? { warnings: this.warnings } : {}) };
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
    const check = checkArtifact(artifactPaths(this.ws.store, name, entry.artifact), entry.files);
    if (check.ok && check.restat && !this.opts.dryRun && !this.opts.ephemeral) {
      entry.files = check.restat;
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
    const views = new Map<string, string>();
    for (const name of this.dag.order) {
      const e = this.ledger.entries[name];
      if (!e) continue;
      const p = artifactPaths(this.ws.store, name, e.artifact).parquet;
      if (existsSync(p)) views.set(name, p);
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

  private rows(name: string, ndjson: string): Row[] {
    let rows = this.rowsCache.get(name);
    if (!rows) {
      rows = readRows(ndjson);
      this.rowsCache.set(name, rows);
    }
    return rows;
  }

  private saveLedger(): Promise<void> {
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
      return { ok: false, hash: '', ndjson: '' };
    }
    const inputHashes: KeyComponents['inputs'] = {};
    inputs.forEach(([local, from], i) => (inputHashes[local] = { from, hash: upstream[i].hash }));
    const pendingInputs = inputs.filter((_, i) => upstream[i].pending).map(([local, from]) => ({ local, from }));

    let components: KeyComponents;
    try {
      components = stageComponents(stage, this.code, inputHashes);
    } catch (err) {
      this.finish(name, { status: 'failed', error: (err as Error).message }, started);
      return { ok: false, hash: '', ndjson: '' };
    }
    const key = keyOf(components);
    const prev = this.ledger.entries[name];
    const paths = prev ? artifactPaths(this.ws.store, name, prev.artifact) : null;
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
      staleness: () => explainStaleness(components, prev),
    });
    if (!decision.run) {
      const looks = reusedFacts(prev!, stage.decl.covers, paths!.ndjson);
      this.finish(name, { status: 'reused', rowsReused: prev!.rows, rowsFailed: prev!.failed, ...looks }, started, key, components);
      return { ok: true, hash: prev!.artifact, ndjson: paths!.ndjson };
    }
    const { reasons } = decision;
    const forced = reasons[0] === '--force';
    if (this.opts.dryRun) {
      this.finish(name, { status: 'would-run', reasons }, started, key, components);
      // Rebuilding a damaged artifact under an unchanged key gives back the rows the key names:
      // its descendants' keys stay as they are.
      return decision.rebuildOnly ? { ok: true, hash: prev!.artifact, ndjson: '' } : { ok: true, hash: key, ndjson: '', pending: true };
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
      return { ok: false, hash: '', ndjson: '' };
    }
    const ctx: StageContext = {
      stage: name,
      params: stage.decl.params ?? {},
      root: this.dag.root,
      llm: llmView ?? missingLlm(name),
      log: (m) => process.stderr.write(`[${name}] ${m}\n`),
      signal: this.opts.signal ?? new AbortController().signal,
      persist: !this.opts.ephemeral,
    };
    try {
      const inputRows: Record<string, () => Row[]> = {};
      inputs.forEach(([local, from], i) => (inputRows[local] = () => this.rows(from, upstream[i].ndjson)));
      let out: { rows: Iterable<Row>; computed: number; reused: number; units?: string[] };
      if (stage.impl.kind === 'table') {
        this.emit({ type: 'stage-start', stage: name, total: null, reasons });
        const all = Object.fromEntries(Object.entries(inputRows).map(([k, f]) => [k, f()]));
        const rows = await stage.impl.run(all, ctx);
        if (!Array.isArray(rows)) throw new Error(`stage '${name}' must return an array of rows, got ${typeof rows}`);
        out = { rows, computed: rows.length, reused: 0 };
      } else {
        out = await this.rowStage(name, stage, components, inputRows, ctx, reasons, forced);
      }
      const done = await this.commit(name, out.rows, stage.columns, prev, { key, components, covers: stage.decl.covers });
      if (out.units && done.ndjson) writeUnitKeys(join(this.ws.store, 'artifacts', name, `${done.hash}.units`), out.units);
      const counted = readCounters(llmView);
      const status = { status: 'ran' as const, rowsComputed: out.computed, rowsReused: out.reused, rowsFailed: done.failed, reasons };
      this.finish(name, { ...status, ...done.facts, ...counted }, started, key, components);
      return { ok: true, hash: done.hash, ndjson: done.ndjson };
    } catch (err) {
      const e = err as Error;
      this.finish(name, { status: 'failed', error: e.message, reasons, ...readCounters(llmView) }, started, key, components);
      return { ok: false, hash: '', ndjson: '' };
    } finally {
      jobs.release();
    }
  }

  private async source(name: string): Promise<Outcome> {
    const started = new Date();
    const src = this.dag.config.sources[name];
    try {
      const rows = sourceRows(this.dag.root, src, this.stat);
      const { hash } = hashRows(rows, FILE_SOURCE_COLUMNS, name);
      const paths = artifactPaths(this.ws.store, name, hash);
      const prev = this.ledger.entries[name];
      // A source's key is its artifact's hash: a function of its files alone.
      const sameKey = prev?.artifact === hash;
      const stale = prev ? 'files changed' : 'never ran';
      const check: ArtifactCheck = sameKey ? this.verify(name, prev) : { ok: false, reason: stale };
      const decision = decideReuse({ sameKey, check, staleness: () => [stale] });
      if (this.opts.dryRun) {
        // Rewriting a source's artifact changes nothing downstream, so a dry run has no pending hash.
        const reasons = decision.run ? decision.reasons : undefined;
        this.finish(name, { status: decision.run ? 'would-run' : 'reused', rowsReused: rows.length, reasons }, started, hash);
        return { ok: true, hash, ndjson: existsSync(paths.ndjson) ? paths.ndjson : '' };
      }
      if (!rows.length) throw new Error(`source '${name}' matches no files (patterns: ${src.patterns.join(', ')})`);
      if (!decision.run) {
        this.finish(name, { status: 'reused', rowsReused: rows.length }, started, hash);
        return { ok: true, hash, ndjson: paths.ndjson };
      }
      const done = await this.commit(name, rows, FILE_SOURCE_COLUMNS, prev, { key: hash, components: null });
      // An ephemeral run of a source states no reason (as before): nothing is written.
      const shown = this.opts.ephemeral ? {} : { reasons: decision.reasons };
      this.finish(name, { status: 'ran', rowsComputed: rows.length, ...shown }, started, hash);
      return { ok: true, hash: done.hash, ndjson: done.ndjson };
    } catch (err) {
      this.finish(name, { status: 'failed', error: (err as Error).message }, started);
      return { ok: false, hash: '', ndjson: '' };
    }
  }

  /**
   * The one commit path of sources and stages: the artifact, then its ledger entry, then the
   * rows kept for this run's readers. An ephemeral run persists nothing: the rows are kept in
   * memory under the hash they would have (ndjson '' says there is no file).
   */
  private async commit(
    name: string,
    rows: Iterable<Row>,
    columns: ResolvedStage['columns'],
    prev: LedgerEntry | undefined,
    entry: { key: string; components: KeyComponents | null; covers?: string },
  ): Promise<{ hash: string; ndjson: string; failed: number; facts: RowFacts }> {
    if (this.opts.ephemeral) {
      // Nothing is written, so this run's readers get the rows from memory (and no failed rows are recorded).
      const kept = [...rows];
      this.rowsCache.set(name, kept);
      return { hash: hashRows(kept, columns, name).hash, ndjson: '', failed: 0, facts: rowFacts(kept, entry.covers) };
    }
    // Rows stream from the stage (or its memo) into the artifact; their facts are tallied on the way.
    const tally = new RowTally(entry.covers);
    const artifact = await writeArtifact(this.ws.store, name, tally.through(rows), columns, this.duck, prev);
    this.ledger.entries[name] = {
      key: entry.key,
      components: entry.components,
      artifact: artifact.hash,
      files: artifact.files,
      rows: artifact.rows,
      failed: tally.failed,
      facts: tally.facts(),
      finishedAt: new Date().toISOString(),
    };
    await this.saveLedger();
    return { hash: artifact.hash, ndjson: artifact.ndjson, failed: tally.failed, facts: tally.facts() };
  }

  private async rowStage(
    name: string,
    stage: ResolvedStage,
    components: KeyComponents,
    inputRows: Record<string, () => Row[]>,
    ctx: StageContext,
    reasons: string[],
    forced: boolean,
  ): Promise<{ rows: Iterable<Row>; computed: number; reused: number; units: string[] }> {
    const fe = stage.forEach!;
    if (stage.impl.kind !== 'row') throw new Error('unreachable');
    const impl = stage.impl;
    const driving = inputRows[fe.input]();
    const joinNames = Object.keys(fe.join ?? {});
    const wholeNames = Object.keys(inputRows).filter((n) => n !== fe.input && !joinNames.includes(n));
    // Only whole inputs, params, code and shape are shared by every unit; the driving and joined
    // rows enter each unit's own key, so a new driving row leaves the others' keys untouched.
    const common = hashValue({
      code: components.code.hash,
      params: components.params.hash,
      whole: Object.fromEntries(wholeNames.map((n) => [n, components.inputs[n].hash])),
      shape: components.shape,
    });
    const joinIndex = new Map<string, Map<string, { rows: Row[]; hashes: string[] }>>();
    for (const j of joinNames) {
      const col = fe.join![j];
      const idx = new Map<string, { rows: Row[]; hashes: string[] }>();
      for (const r of inputRows[j]()) {
        const k = hashValue(r[col] ?? null);
        let bucket = idx.get(k);
        if (!bucket) idx.set(k, (bucket = { rows: [], hashes: [] }));
        bucket.rows.push(r);
        bucket.hashes.push(hashValue(r));
      }
      joinIndex.set(j, idx);
    }
    const whole = Object.fromEntries(wholeNames.map((n) => [n, inputRows[n]()]));
    const crossValues: unknown[] = fe.cross ? (stage.decl.params![fe.cross.param] as unknown[]) : [undefined];

    type Plan = { key: string; row: Row; cross: unknown; joined: Record<string, Row[]>; upstreamError: string | null };
    const plans: Plan[] = [];
    for (const row of driving) {
      const rowHash = hashValue(row);
      const joined: Record<string, Row[]> = {};
      const joinedHashes: Record<string, string[]> = {};
      for (const j of joinNames) {
        const bucket = joinIndex.get(j)!.get(hashValue(row[fe.join![j]] ?? null));
        joined[j] = bucket?.rows ?? [];
        joinedHashes[j] = bucket?.hashes ?? [];
      }
      const upstreamError =
        row.error != null ? `upstream '${stage.decl.inputs![fe.input]}' failed for this row: ${String(row.error)}` : null;
      for (const cross of crossValues) {
        const key = hashValue({ c: common, r: rowHash, x: cross === undefined ? null : hashValue(cross), j: joinedHashes });
        plans.push({ key, row, cross, joined, upstreamError });
      }
    }

    const store = new RowStore(join(this.ws.store, 'units', name));
    const memo = store.load();
    // A unit's rows stay on disk in the memo until the artifact is written; only failures made
    // here (and, in a run that persists nothing, computed rows) are held in memory.
    const results: (Row[] | null)[] = new Array(plans.length).fill(null);
    const todo: number[] = [];
    let reused = 0;
    plans.forEach((p, i) => {
      if (p.upstreamError) {
        results[i] = [failureRow(stage, p, p.upstreamError)];
        return;
      }
      const hit = forced || !memo.has(p.key) ? undefined : this.opts.retryFailed ? memo.get(p.key) : [];
      if (hit && !hit.some((r) => r.error != null)) reused++;
      else todo.push(i);
    });

    this.emit({ type: 'stage-start', stage: name, total: plans.length, reasons });
    let done = plans.length - todo.length;
    this.emit({ type: 'stage-progress', stage: name, done, total: plans.length });
    const writer = this.opts.ephemeral ? null : store.writer();
    const commitEvery = Math.max(1, stage.decl.commitEvery ?? 50);
    let sinceCommit = 0;
    let lastCommit = Date.now();
    const signal = ctx.signal;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < todo.length && !signal.aborted) {
        const i = todo[next++];
        const p = plans[i];
        let rows: Row[];
        try {
          const got = await impl.run({ row: p.row, cross: p.cross, joined: p.joined, whole }, ctx);
          rows = Array.isArray(got) ? got : [got];
          checkRows(name, stage, rows);
        } catch (err) {
          rows = [failureRow(stage, p, (err as Error).message || String(err))];
        }
        if (writer) memo.add(p.key, writer.append(p.key, rows));
        else results[i] = rows;
        done++;
        sinceCommit++;
        if (sinceCommit >= commitEvery || Date.now() - lastCommit > 1000) {
          writer?.commit();
          sinceCommit = 0;
          lastCommit = Date.now();
        }
        this.emit({ type: 'stage-progress', stage: name, done, total: plans.length });
      }
    };
    try {
      const width = Math.max(1, Math.min(stage.decl.concurrency ?? 4, todo.length));
      await Promise.all(Array.from({ length: width }, worker));
    } finally {
      writer?.close();
    }
    if (signal.aborted) throw new Error(`interrupted after ${done} of ${plans.length} units; finished units are kept, rerun to resume`);
    const keys = plans.map((p) => p.key);
    function* rowsInOrder(): Generator<Row> {
      try {
        for (let i = 0; i < keys.length; i++) yield* results[i] ?? memo.get(keys[i]) ?? [];
      } finally {
        memo.close();
      }
    }
    return { rows: rowsInOrder(), computed: todo.length, reused, units: keys };
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

/**
 * What the run summary says of a stage's rows, gathered one row at a time as they stream past:
 * the failures, their most common reasons and the coverage.
 */
export class RowTally {
  failed = 0;
  private readonly reasons = new Map<string, { reason: string; count: number; example: string }>();
  private readonly seen = new Set<string>();

  constructor(private readonly covers?: string) {}

  add(r: Row): void {
    if (r.error != null) {
      this.failed++;
      const example = String(r.error);
      // "context overflow (120345 tokens > window 32768)" and its siblings are one reason.
      const reason = example.replace(/\d+(\.\d+)?/g, 'N');
      const g = this.reasons.get(reason) ?? { reason, count: 0, example };
      g.count++;
      this.reasons.set(reason, g);
    } else if (this.covers && r[this.covers] != null) this.seen.add(String(r[this.covers]));
  }

  *through(rows: Iterable<Row>): Generator<Row> {
    for (const r of rows) {
      this.add(r);
      yield r;
    }
  }

  facts(): RowFacts {
    const failureReasons = [...this.reasons.values()].sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1)).slice(0, 3);
    const covers = this.covers;
    return {
      ...(failureReasons.length ? { failureReasons } : {}),
      ...(covers ? { covered: { column: covers, count: this.seen.size } } : {}),
    };
  }
}

/**
 * The facts of a reused stage: those the ledger recorded when its rows were written, so a reuse
 * reads no artifact; a ledger written before facts were recorded (or for another `covers`
 * column) has them read back from the artifact, and only when there is something to say.
 */
export function reusedFacts(prev: LedgerEntry, covers: string | undefined, ndjson: string): RowFacts {
  if (prev.facts && (prev.facts.covered?.column ?? undefined) === (covers ?? undefined)) return prev.facts;
  return prev.failed > 0 || covers ? rowFacts(iterRows(ndjson), covers) : {};
}

/** What the run summary says of a stage's rows: its most common failure reasons and its coverage. */
export function rowFacts(rows: Iterable<Row>, covers?: string): RowFacts {
  const t = new RowTally(covers);
  for (const r of rows) t.add(r);
  return t.facts();
}

/** The unit keys of an artifact, one a line, written in batches (a paper-scale stage has 700k). */
function writeUnitKeys(path: string, keys: string[]): void {
  const out = new LineWriter(path);
  for (const k of keys) out.write(k);
  out.close();
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

function checkRows(name: string, stage: ResolvedStage, rows: Row[]): void {
  for (const r of rows) {
    if (r === null || typeof r !== 'object' || Array.isArray(r))
      throw new Error(`stage '${name}' returned a row that is not an object: ${JSON.stringify(r)}`);
    for (const k of Object.keys(r)) {
      if (!(k in stage.columns)) throw new Error(`stage '${name}' returned column '${k}', which its columns do not declare`);
    }
  }
}

/**
 * A unit's failure as a row: the driving row's values for columns the output shares, the
 * crossed element under its declared column, and the reason.
 */
function failureRow(stage: ResolvedStage, unit: { row: Row; cross: unknown }, reason: string): Row {
  const out: Row = {};
  for (const col of Object.keys(stage.columns)) if (col in unit.row && col !== 'error') out[col] = unit.row[col];
  const cross = stage.forEach?.cross;
  if (cross && cross.as in stage.columns) {
    const v = unit.cross as { name?: unknown } | string | number;
    out[cross.as] = typeof v === 'object' && v !== null && 'name' in v ? v.name : v;
  }
  out.error = reason;
  return out;
}
