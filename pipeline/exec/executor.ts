/**
 * Runs a resolved DAG: sources and stages in dependency order, independent stages concurrently
 * up to `jobs`, each reused when its key is unchanged. Row-mapped stages memoize unit by unit
 * and commit finished units in batches, so a killed run resumes where it stopped. A failing
 * stage marks its descendants not-run; the other branches finish. A stage's node is decided
 * (reuse, or why it runs), prepared (its slot, LLM view, context and inputs), then run by the
 * runner of its kind (the dispatch in `runKind`) and committed.
 */
import { randomBytes } from 'node:crypto';
import type { ResolvedDag, ResolvedStage } from '../dag/validate.ts';
import { missingLlm, type StageContext, type StageLlm } from '../dag/stage.ts';
import { StatCache } from '../hash/stat-cache.ts';
import { CodeHasher } from '../hash/code-identity.ts';
import { iterRows, checkArtifact, ledgerEntryProblem, type ArtifactCheck, type ArtifactPart } from '../store/artifacts.ts';
import { unitsPath, writeUnitKeys } from '../store/unit-keys.ts';
import type { Ledger, LedgerEntry, KeyComponents } from '../store/ledger.ts';
import { runRowStage } from './row-stage.ts';
import { runPartitionedTableStage, runTableStage, stageOnWorkers } from './table-stage.ts';
import type { PartitionedEnv } from './partitioned-stage.ts';
import { commitInMemory } from './memory-commit.ts';
import { reusedFacts } from './row-summary.ts';
import { commitArtifact, type CommitEntry, type Committed } from './artifact-commit.ts';
import { errorMessage } from '../store/disk-full.ts';
import { acquireRunLock } from '../store/run-lock.ts';
import type { RunRecord } from '../store/warehouse.ts';
import { InputRows } from './input-rows.ts';
import { LedgerWrites, openLedger } from './ledger-writes.ts';
import { LazyDuck } from './run-warehouse.ts';
import { closeRun } from './run-close.ts';
import { runSource } from './source-node.ts';
import { fileResolver, sourcePlaces, sourcesRead, type FileResolver } from './source-files.ts';
import { stageComponents, keyOf, explainStaleness } from './keys.ts';
import { decideReuse } from './reuse-decision.ts';
import { JobSlots, criticalPaths } from '../concurrency/job-slots.ts';
import { readStageSeconds, writeStageSeconds } from '../store/stage-seconds.ts';
import type { Workspace } from './workspace.ts';
import { markEmpty, readCounters, runRecord, stageResult } from './run-record.ts';
import { selectNodes } from './select-nodes.ts';
import { ThreadPool } from '../threads/pool.ts';
import type {
  Go,
  Input,
  LlmLike,
  Outcome,
  Ready,
  RowStageEnv,
  RunEvent,
  RunOptions,
  RunSummary,
  StageOutput,
  StageResult,
  StageStatus,
} from './runner-types.ts';

export type { LlmLike, RunEvent, RunOptions, RunSummary, StageResult, StageStatus } from './runner-types.ts';
export { selectNodes, UnknownStageError } from './select-nodes.ts';

const NONE: Outcome = { ok: false, hash: '', segments: null };

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
  private readonly ledgerWrites: LedgerWrites;
  private readonly duck = new LazyDuck();
  private inputRows!: InputRows;
  private jobs!: JobSlots;
  private readonly results: StageResult[] = [];
  private readonly records: RunRecord[] = [];
  private readonly runId = new Date().toISOString().replace(/[-:.TZ]/g, '') + '-' + randomBytes(3).toString('hex');
  private readonly warnings: string[] = [];
  /** Per stage that ran, the seconds it held a job slot (the next run's critical-path weights). */
  private readonly slotSeconds = new Map<string, number>();
  /** Created here unless the caller gives one; it starts no thread until a stage's work calls for it. */
  private readonly threads: ThreadPool;

  constructor(
    private readonly dag: ResolvedDag,
    private readonly ws: Workspace,
    private readonly opts: RunOptions,
  ) {
    this.ledger = openLedger(ws.ledger, !opts.dryRun && !opts.ephemeral, (m) => this.warn(m));
    this.ledgerWrites = new LedgerWrites(ws.ledger, this.ledger);
    this.stat = new StatCache(ws.statCache);
    this.code = new CodeHasher(dag.root, this.stat);
    this.threads = opts.threads ?? new ThreadPool({ size: opts.workers ?? dag.config.workers });
  }

  async run(): Promise<RunSummary> {
    try {
      return await this.runAll();
    } finally {
      if (!this.opts.threads) await this.threads.close();
    }
  }

  private async runAll(): Promise<RunSummary> {
    const selected = selectNodes(this.dag, this.opts.targets);
    const lastSeconds = readStageSeconds(this.ws.stageSeconds);
    const paths = criticalPaths(
      selected,
      (n) => this.dag.graph.successors(n) ?? [],
      selected,
      (n) => lastSeconds.get(n),
    );
    const jobs = (this.jobs = new JobSlots(Math.max(1, this.opts.jobs ?? this.dag.config.jobs ?? 2), (n) => paths.get(n) ?? 0));
    // Input rows read for a stage are kept for its siblings only until the last consumer is done.
    this.inputRows = new InputRows(this.dag, this.ws.store, selected);
    for (const name of this.dag.order) {
      if (!selected.has(name)) continue;
      this.outcomes.set(
        name,
        this.node(name, jobs).finally(() => this.inputRows.release(name)),
      );
    }
    await Promise.all(this.outcomes.values());
    if (!this.opts.dryRun && !this.opts.ephemeral) {
      try {
        writeStageSeconds(this.ws.stageSeconds, lastSeconds, this.slotSeconds);
      } catch (err) {
        this.warn(
          `could not record the stages' times in ${this.ws.stageSeconds} (${(err as Error).message}); the next run schedules without them`,
        );
      }
    }
    const warehouseOk = await closeRun({
      ws: this.ws,
      stat: this.stat,
      duck: this.duck,
      ledger: this.ledger,
      ledgerWrites: this.ledgerWrites,
      records: this.records,
      order: this.dag.order,
      extraViews: this.opts.dryRun || this.opts.ephemeral ? {} : (this.opts.extraViews?.() ?? {}),
      dryRun: !!this.opts.dryRun,
      ephemeral: !!this.opts.ephemeral,
      warn: (m) => this.warn(m),
    });
    const order = new Map(this.dag.order.map((n, i) => [n, i]));
    const stages = this.results.sort((a, b) => order.get(a.stage)! - order.get(b.stage)!);
    if (!this.opts.dryRun && !this.opts.ephemeral) markEmpty(stages, this.dag, this.ledger);
    const ok = warehouseOk && stages.every((s) => s.status !== 'failed' && s.status !== 'not-run');
    return { ok, stages, ...(this.warnings.length ? { warnings: this.warnings } : {}), threads: this.threads.stats() };
  }

  private warn(message: string): void {
    this.warnings.push(message);
    process.stderr.write(`warning: ${message}\n`);
  }

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
      this.ledgerWrites.dirty = true;
    }
    return check;
  }

  private llmPromise: Promise<LlmLike | undefined> | null = null;

  private llmClient(): Promise<LlmLike | undefined> {
    const l = this.opts.llm;
    this.llmPromise ??= typeof l === 'function' ? l() : Promise.resolve(l);
    return this.llmPromise;
  }

  private async node(name: string, jobs: JobSlots): Promise<Outcome> {
    if (this.dag.sources.has(name)) return this.source(name);
    const go = await this.decide(name);
    if ('outcome' in go) return go.outcome;
    await jobs.acquire(name);
    const slotted = performance.now();
    try {
      const ready = await this.prepare(go);
      return 'outcome' in ready ? ready.outcome : await this.runNode(go, ready);
    } finally {
      this.slotSeconds.set(name, (performance.now() - slotted) / 1000);
      jobs.release();
    }
  }

  /** Reuse, not run, would run, or run (with why): every outcome but the last is finished here. */
  private async decide(name: string): Promise<{ outcome: Outcome } | Go> {
    const stage = this.dag.stages.get(name)!;
    const inputs = Object.entries(stage.decl.inputs ?? {});
    const upstream = await Promise.all(inputs.map(([, from]) => this.outcomes.get(from)!));
    const started = new Date();
    const failedInputs = inputs.filter((_, i) => !upstream[i].ok).map(([, from]) => from);
    if (failedInputs.length) {
      const error = `not run: upstream ${failedInputs.map((f) => `'${f}'`).join(', ')} failed or did not run`;
      this.finish(name, { status: 'not-run', error }, started);
      return { outcome: NONE };
    }
    const inputHashes: KeyComponents['inputs'] = {};
    inputs.forEach(([local, from], i) => (inputHashes[local] = { from, hash: upstream[i].hash }));
    let components: KeyComponents;
    try {
      components = stageComponents(stage, this.code, inputHashes);
    } catch (err) {
      this.finish(name, { status: 'failed', error: (err as Error).message }, started);
      return { outcome: NONE };
    }
    const key = keyOf(components);
    const prev = this.ledger.entries[name];
    const sameKey = prev?.key === key;
    const decision = decideReuse({
      sameKey,
      // Only an artifact that would be reused is worth checking.
      check: sameKey ? this.verify(name, prev) : { ok: false, reason: 'key changed' },
      pendingInputs: inputs.filter((_, i) => upstream[i].pending).map(([local, from]) => ({ local, from })),
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
      return { outcome: { ok: true, hash: prev!.artifact, segments: prev!.segments! } };
    }
    const { reasons } = decision;
    if (this.opts.dryRun || (this.opts.verify && !decision.rebuildOnly)) {
      this.finish(name, { status: 'would-run', reasons }, started, key, components);
      // Rebuilding a damaged artifact under an unchanged key gives back the rows the key names:
      // its descendants' keys stay as they are.
      const outcome = decision.rebuildOnly
        ? { ok: true, hash: prev!.artifact, segments: null }
        : { ok: true, hash: key, segments: null, pending: true };
      return { outcome };
    }
    const upstreamInputs = inputs.map(([local, from], i) => ({ local, from, segments: upstream[i].segments }));
    return { name, stage, inputs: upstreamInputs, started, key, components, prev, reasons, forced: reasons[0] === '--force' };
  }

  /** The stage's LLM view (the client is created on the first stage that runs), its context and its inputs. */
  private async prepare(go: Go): Promise<{ outcome: Outcome } | Ready> {
    const { name, stage, reasons, started, key, components } = go;
    let llm: StageLlm | undefined;
    try {
      llm = (await this.llmClient())?.forStage(name);
    } catch (err) {
      const error = `the LLM client could not be created: ${(err as Error).message}`;
      this.finish(name, { status: 'failed', error, reasons }, started, key, components);
      return { outcome: NONE };
    }
    const ctx: StageContext = {
      stage: name,
      params: stage.decl.params ?? {},
      root: this.dag.root,
      file: this.fileResolverOf(name),
      llm: llm ?? missingLlm(name),
      log: (m) => process.stderr.write(`[${name}] ${m}\n`),
      signal: this.opts.signal ?? new AbortController().signal,
      persist: !this.opts.ephemeral,
      retrying: this.opts.retryKinds ?? [],
    };
    const inputs: Record<string, Input> = {};
    for (const { local, from, segments } of go.inputs) inputs[local] = { from, segments, rows: () => this.inputRows.rows(from, segments) };
    return { llm, ctx, inputs };
  }

  /** `ctx.file` of a stage: the file sources it reads, directly or through its inputs (source-files.ts). */
  private fileResolverOf(name: string): FileResolver {
    const { root, config, graph, sources } = this.dag;
    const read = sourcesRead(name, (n) => graph.predecessors(n) ?? undefined, sources);
    return fileResolver(name, sourcePlaces(root, config.sources, read));
  }

  /** Runs a decided, prepared stage and commits its artifact, its units files and its result. */
  private async runNode(go: Go, ready: Ready): Promise<Outcome> {
    const { name, stage, prev, key, components, reasons, started } = go;
    try {
      const out = await this.runKind(go, ready);
      const record = out.record?.();
      const done = await this.commit(name, out.parts, stage.columns, prev, {
        key,
        components,
        covers: stage.decl.covers,
        record,
        durable: out.durable,
        partitionKeys: out.partitionKeys,
      });
      if (record && done.segments) {
        for (const [at, keys] of out.units ?? []) {
          writeUnitKeys(unitsPath(this.ws.store, name, done.segments[at].hash, record.from[at]), keys, out.unitRows?.get(at));
        }
      }
      const previous = prev ? { rowsFailed: prev.failed, failureKinds: prev.facts?.failureKinds } : undefined;
      const status = {
        status: 'ran' as const,
        rowsComputed: out.computed,
        rowsReused: out.reused,
        rowsFailed: done.failed,
        reasons,
        previous,
        ...(out.partitions ? { partitions: out.partitions } : {}),
      };
      this.finish(name, { ...status, ...done.facts, ...readCounters(ready.llm) }, started, key, components);
      return { ok: true, hash: done.hash, segments: done.segments };
    } catch (err) {
      const error = errorMessage(err, { dir: this.dag.root, what: `stage '${name}' was writing` });
      this.finish(name, { status: 'failed', error, reasons, ...readCounters(ready.llm) }, started, key, components);
      return NONE;
    }
  }

  /** The runner of the stage's kind. */
  private async runKind(go: Go, ready: Ready): Promise<StageOutput> {
    const { name, stage, reasons } = go;
    const { ctx, inputs } = ready;
    switch (stage.impl.kind) {
      case 'table': {
        const projected = (local: string, input: Input, columns: readonly string[]) =>
          this.inputRows.projected(name, local, input, columns);
        const job = { name, stage, inputs, ctx, reasons, projected, emit: (e: RunEvent) => this.emit(e) };
        if (!stage.impl.partition)
          return runTableStage(
            job,
            stage.impl.pure ? { ...stageOnWorkers(this.dag, stage), threads: this.threads, away: this.away } : undefined,
          );
        return runPartitionedTableStage(job, this.partitionedEnv(name, stage, go.forced), go.components);
      }
      case 'row': {
        const job = { name, stage, components: go.components, inputs, ctx, reasons, forced: go.forced, prev: go.prev };
        const out = await runRowStage(this.rowEnv(), job);
        // Awaited in commit; a rejection before that is not an unhandled one.
        out.durable.catch(() => {});
        return out;
      }
    }
  }

  private partitionedEnv(name: string, stage: ResolvedStage, forced: boolean): PartitionedEnv {
    return {
      ...stageOnWorkers(this.dag, stage),
      threads: this.threads,
      store: this.ws.store,
      forced,
      retryFailed: !!this.opts.retryFailed,
      retryKinds: this.opts.retryKinds ?? [],
      ephemeral: !!this.opts.ephemeral,
      progress: (done, total) => this.emit({ type: 'stage-progress', stage: name, done, total }),
      away: this.away,
    };
  }

  /** A stage's job slot lent out while it waits on the worker pool (JobSlots.away). */
  private readonly away = <T>(work: Promise<T>): Promise<T> => this.jobs.away(work);

  private rowEnv(): RowStageEnv {
    return {
      store: this.ws.store,
      retryFailed: !!this.opts.retryFailed,
      retryKinds: this.opts.retryKinds ?? [],
      ephemeral: !!this.opts.ephemeral,
      inMemory: (from: string) => this.inputRows.has(from),
      emit: (e: RunEvent) => this.emit(e),
      warn: (m: string) => this.warn(m),
      fullChecks: !!this.opts.verify,
      threads: this.threads,
      joinedBytesPerGroup: this.opts.joinedBytesPerGroup,
    };
  }

  private source(name: string): Promise<Outcome> {
    const o = this.opts;
    const run = { root: this.dag.root, store: this.ws.store, stat: this.stat, ledger: this.ledger };
    return runSource(
      {
        ...run,
        dryRun: !!o.dryRun,
        verifying: !!o.verify,
        ephemeral: !!o.ephemeral,
        verify: (n, e) => this.verify(n, e),
        commit: (n, parts, columns, prev, entry) => this.commit(n, parts, columns, prev, entry),
        finish: (n, r, started, key) => this.finish(n, r, started, key),
      },
      name,
      this.dag.config.sources[name]!,
    );
  }

  /**
   * The one commit path of sources and stages (artifact-commit.ts). An ephemeral run persists
   * nothing: the rows are kept in memory for this run's readers, under the hash they would have.
   */
  private async commit(
    name: string,
    parts: Iterable<ArtifactPart>,
    columns: ResolvedStage['columns'],
    prev: LedgerEntry | undefined,
    entry: CommitEntry,
  ): Promise<Committed> {
    if (this.opts.ephemeral) {
      const kept = commitInMemory(this.ws.store, name, parts, columns, entry.covers);
      this.inputRows.keep(name, kept.rows);
      return { hash: kept.hash, segments: null, failed: 0, facts: kept.facts };
    }
    const target = { store: this.ws.store, ledger: this.ledger, ledgerWrites: this.ledgerWrites, duck: this.duck };
    return commitArtifact({ ...target, fullChecks: !!this.opts.verify }, name, parts, columns, prev, entry);
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
    const result = stageResult(name, r, started, ended);
    this.results.push(result);
    this.emit({ type: 'stage-end', result });
    const record = runRecord(this.runId, result, { started, ended }, key, components);
    if (record) this.records.push(record);
  }
}
