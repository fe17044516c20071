/**
 * The LLM client of one `cdp run`: the run's models, the offline stand-ins' providers, the
 * project's durable call cache (shared by every store; the store keeps its own part of the log
 * under `<store>/llm/`), and the `llm_calls` view of the calls this store used. In estimate mode a real model's
 * miss is answered by the stand-in for its role, so every stage after it is estimated too
 * (trees → vignettes → both settings → judges), not only the first.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { formatEstimate } from '../../pipeline/llm/estimate-report.ts';
import type { ChatRequest, ModelSpec } from '../../pipeline/llm/types.ts';
import { readServerWindows, windowFact, type WindowFact } from '../../pipeline/llm/server-windows.ts';
import { estimateAssumptions, formatPlanWithAssumptions } from './estimate-assumptions.ts';
import type { RunLlm } from '../../pipeline/cli/config-exports.ts';
import { CURATED_BUILDER_NAME } from '../agents/curated-builder.ts';
import { ORACLE_NAME } from '../agents/oracle.ts';
import { WALKER_NAME } from '../agents/lexical-walker.ts';
import { DEFAULT_SIMULATED_EVALUATED } from '../agents/roster.ts';
import { PATIENT_NAME } from '../agents/offline-patient.ts';
import { VIGNETTE_GENERATOR } from '../agents/writers/vignette-writer.ts';
import { NARRATIVE_GENERATOR } from '../agents/writers/narrative-writer.ts';
import { SIMULATED_JUDGE_NAMES } from '../agents/judges/simulated-judges.ts';
import type { ThreadPool } from '../../pipeline/threads/pool.ts';
import { threadedProviders } from '../../pipeline/threads/threaded-providers.ts';
import { offlineStandIns } from './offline-providers.ts';

const OFFLINE_PROVIDERS_MODULE = fileURLToPath(new URL('./offline-providers.ts', import.meta.url));
import { llmCallsViews } from './llm-views.ts';
import type { RunModels } from './run-roster.ts';

/**
 * Which offline model answers in place of a real one while estimating, by stage and role. Each
 * evaluated model gets its own simulated agent (the oracle, then the perturbation agents in
 * turn): identical stand-in answers would make the judges' prompts identical across models and
 * be counted once, where real models' different answers are judged one by one.
 */
export function estimateStandIns(evaluated: readonly string[]): (req: ChatRequest) => string | undefined {
  const agents = DEFAULT_SIMULATED_EVALUATED.filter((a) => a !== WALKER_NAME);
  const agentOf = (model: string) => agents[Math.max(0, evaluated.indexOf(model)) % agents.length] ?? ORACLE_NAME;
  return (req) => {
    switch (req.stage) {
      case 'trees':
        return CURATED_BUILDER_NAME;
      case 'vignettes':
        return VIGNETTE_GENERATOR;
      case 'narratives':
        return NARRATIVE_GENERATOR;
      case 'predictions_single':
        return agentOf(req.model);
      case 'dialogues_multi':
        // The agents ask (about) the reference questions: the reference CDPs' lengths set the dialogues'.
        return req.role === 'patient' ? PATIENT_NAME : agentOf(req.model);
      case 'step_scores':
      case 'outcome_scores':
        return SIMULATED_JUDGE_NAMES[0];
      default:
        return undefined;
    }
  };
}

/**
 * Each server-backed model's context window and where it comes from: the models file, the server
 * (recorded by `cdp models --check`, server-windows.ts), or the default assumed.
 */
export function modelWindows(storeDir: string, models: RunModels): WindowFact[] {
  const recorded = readServerWindows(storeDir);
  return models.declared.filter((m) => m.provider !== 'offline').map((m) => windowFact(m, !!m.windowAssumed, recorded));
}

/** The roster with the windows servers reported in place of assumed (or larger declared) ones. */
function withServerWindows(roster: readonly ModelSpec[], windows: readonly WindowFact[]): ModelSpec[] {
  const served = new Map(windows.filter((w) => w.source === 'server').map((w) => [w.model, w.window!]));
  return roster.map((m) => (served.has(m.name) ? { ...m, contextWindow: served.get(m.name)! } : m));
}

export interface RunLlmOptions {
  /** The project's call cache, shared by every store (Workspace.llmCache). */
  cacheDir: string;
  mode?: 'live' | 'estimate';
  /** Where the "waiting for the server" progress lines go (default: stderr). */
  progress?: (line: string) => void;
  /** The run's worker threads: the offline stand-ins answer there when it may use them. */
  threads?: ThreadPool;
}

export function runLlm(storeDir: string, models: RunModels, o: RunLlmOptions): RunLlm {
  const mode = o.mode ?? 'live';
  const threads = o.threads;
  const windows = modelWindows(storeDir, models);
  // The simulated agents answer from each call's unit context: no state is shared with the
  // stages, so with worker threads they answer there (offline-providers.ts), in-process otherwise.
  const standIns = offlineStandIns();
  const offlineHandlers = threads?.threaded
    ? threadedProviders(threads, standIns, OFFLINE_PROVIDERS_MODULE, 'answerOfflineCall')
    : standIns;
  const client = createLlmClient({
    cacheDir: o.cacheDir,
    storeLogDir: join(storeDir, 'llm'),
    ...(o.progress ? { progress: o.progress } : {}),
    roster: withServerWindows(models.roster, windows),
    offlineHandlers,
    mode,
    estimateStandIn: estimateStandIns(models.evaluated.map((m) => m.name)),
  });
  return {
    client,
    estimate: (facts) => {
      const plan = formatEstimate(client.estimateReport());
      return facts ? formatPlanWithAssumptions(estimateAssumptions(facts, models, windows), plan) : plan;
    },
    estimateRows: () => client.estimateReport(),
    estimateAssumptions: (facts) => estimateAssumptions(facts, models, windows),
    windows: () => windows,
    views: () => llmCallsViews(storeDir, o.cacheDir),
    close: () => client.close(),
  };
}
