/**
 * The one options object a configuration is built from: `defineDag((options) => …)`. The CLI makes
 * it from the command line once (pipeline/cli/invocation.mjs), a program or a test with
 * `optionsFor` (pipeline/cli/options-for.ts); a configuration reads nothing else of its environment, so two option objects give
 * two DAGs in one process, and the no-op fingerprint, which hashes the options, knows everything
 * the DAG depends on.
 */
/** The options as flags give them (commander's values: strings, a switch, the repeated --set). */
export interface CliFlags {
  config?: string;
  store?: string;
  warehouse?: string;
  corpus?: string;
  models?: string;
  limit?: string;
  reports?: string;
  simulated?: boolean;
  set: string[];
  callCache?: string;
}

/** One model in every role, as CDP_LLM_BASE_URL, CDP_LLM_MODEL, … give it (checked by the project). */
export interface OneModel {
  baseURL: string;
  model: string | null;
  contextWindow: string | null;
  concurrency: string | null;
}

/** What the command line and the store decide (plain values: the fingerprint hashes them). */
export interface ResolvedOptions {
  /** The configuration file, its name ("dag" for dag.config.ts, "cpgbench" for cpgbench.config.ts) and its directory. */
  config: string;
  name: string;
  root: string;
  /** Absolute paths: the store, the warehouse, where reports go. */
  store: string;
  warehouse: string;
  reports: string;
  /** The corpus directory (given, remembered by the store, or the configuration's default); null if none. */
  corpus: string | null;
  /** The models file given or remembered; null: the project's default lookup (models.json at the root). */
  models: string | null;
  /** At most this many cases (a smoke run). */
  limit: number | null;
  /** Run the simulated stand-ins beside real models. */
  simulated: boolean;
  /** `--set stage.param=value` overrides, in order (the runner applies them to the resolved DAG). */
  sets: readonly string[];
  /** The durable LLM call cache every store shares; null: data/llm-cache (Workspace.llmCache). */
  callCache: string | null;
  llm: OneModel | null;
}

/**
 * The environment variables a models file names (API keys, endpoints, timeouts). Reads are
 * recorded for the no-op fingerprint: values by hash, and `has` by presence only, so a key's
 * value never enters the options, the fingerprint or the DAG.
 */
export interface EnvView {
  get(name: string): string | undefined;
  has(name: string): boolean;
}

export interface Options extends ResolvedOptions {
  env: EnvView;
}

/** Defaults a configuration declares for itself: `defineDag(build, { corpus: 'data/sample' })`. */
export interface ConfigDefaults {
  corpus?: string;
}

/** What every option is when nothing gives it (zx's `defaults`); locations follow the configuration's name. */
export const defaults = {
  corpus: null,
  models: null,
  limit: null,
  simulated: false,
  sets: [],
  callCache: null,
  llm: null,
} satisfies Partial<ResolvedOptions>;

/** An environment view that records what is read (for the no-op fingerprint). */
export function recordingEnv(
  env: Readonly<Record<string, string | undefined>>,
): EnvView & { reads(): { values: string[]; present: string[] } } {
  const values = new Set<string>();
  const present = new Set<string>();
  return {
    get(name) {
      values.add(name);
      return env[name];
    },
    has(name) {
      present.add(name);
      return !!env[name];
    },
    reads: () => ({ values: [...values].sort(), present: [...present].sort() }),
  };
}
