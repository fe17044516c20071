/**
 * A pure stage as a worker runs it, for row units and partitions alike: its module imported once
 * by its path and kept (synchronous from then on, so that the pool's inline timing in task.ts
 * measures the work, not an import), and the context its code runs in there — the stage's params,
 * no LLM client (a pure stage calls none: the client, its cache and memo live on the main
 * thread), and its log lines collected to go back with the rows.
 */
import { pathToFileURL } from 'node:url';
import { missingLlm, type StageContext, type StageImpl } from '../dag/stage.ts';
import { fileResolver, type SourcePlace } from '../exec/source-files.ts';

const loading = new Map<string, Promise<StageImpl>>();
const loaded = new Map<string, StageImpl>();
const NEVER = new AbortController().signal;

/** A module the main thread has loaded already: the inline path then calls it without an import. */
export function knownStage(module: string, impl: StageImpl): void {
  loaded.set(module, impl);
}

/** The stage module, checked by `problem` (a message when it is not the kind the caller runs). */
export function stageModule(module: string, problem: (impl: StageImpl | undefined) => string | null): StageImpl | Promise<StageImpl> {
  const impl = loaded.get(module);
  if (impl) return impl;
  let p = loading.get(module);
  if (!p) {
    p = import(pathToFileURL(module).href).then((m: { default?: StageImpl }) => {
      const wrong = problem(m.default);
      if (wrong) throw new Error(`internal: ${module} ${wrong}`);
      loaded.set(module, m.default!);
      return m.default!;
    });
    loading.set(module, p);
  }
  return p;
}

export interface WorkerStageShared {
  stage: string;
  root: string;
  /** The file sources the stage reads, so that `ctx.file` resolves a path as on the main thread. */
  files: readonly SourcePlace[];
  params: Record<string, unknown>;
  persist: boolean;
  retrying: readonly string[];
}

export function workerContext(shared: WorkerStageShared, logs: string[], partition?: string): StageContext {
  return {
    stage: shared.stage,
    params: shared.params,
    root: shared.root,
    file: fileResolver(shared.stage, shared.files),
    llm: missingLlm(shared.stage),
    log: (m) => logs.push(m),
    signal: NEVER,
    persist: shared.persist,
    retrying: shared.retrying,
    ...(partition === undefined ? {} : { partition }),
  };
}
