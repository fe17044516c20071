/**
 * The typed vocabulary of `dag.config.ts`: file sources, stages with their inputs and params,
 * and whether a stage maps row by row. A config is plain data (built from the options, see
 * definition.ts); nothing here runs anything.
 */

/** A DuckDB column type: 'VARCHAR', 'DOUBLE', 'INTEGER', 'BOOLEAN', 'VARCHAR[]', 'STRUCT(a VARCHAR)[]', 'JSON', … */
export type ColumnType = string;
export type Columns = Record<string, ColumnType>;
export type Row = Record<string, unknown>;

/**
 * Files matched by globs; a source's rows are {path, sha256, size}. Without a base, the patterns
 * and the paths are relative to the project root (absolute for files outside it). With one, they
 * are relative to the base, and the base is in no key: the same files under another directory
 * are the same rows, so moving a data set reruns nothing. A stage reads a row's file through
 * `ctx.file(path)`, which knows the bases.
 */
export interface FileSource {
  kind: 'files';
  patterns: string[];
  /** The directory the patterns and the rows' paths are relative to: absolute, or relative to the project root. */
  base?: string;
}

/**
 * `files('data/published/table*.csv')`, or, for a data set that may live anywhere, with the
 * folder it lives in: `files({ base: corpusDir }, 'guidelines/**\/*.pdf', 'guidelines.csv')`.
 */
export function files(first: string | { base: string }, ...rest: string[]): FileSource {
  const patterns = typeof first === 'string' ? [first, ...rest] : rest;
  if (!patterns.length) throw new Error('files() needs at least one glob pattern, e.g. files("data/sample/**/*.pdf")');
  if (typeof first === 'string') return { kind: 'files', patterns };
  if (!first.base) throw new Error('files({ base }) needs a directory, e.g. files({ base: corpusDir }, "guidelines/**/*.pdf")');
  const absolute = patterns.filter((p) => p.startsWith('/'));
  if (absolute.length)
    throw new Error(
      `files({ base: '${first.base}' }): ${absolute.join(', ')} must be relative to the base; drop the base or the leading directories`,
    );
  return { kind: 'files', patterns, base: first.base };
}

/** Columns every file source provides. */
export const FILE_SOURCE_COLUMNS: Columns = { path: 'VARCHAR', sha256: 'VARCHAR', size: 'BIGINT' };

/**
 * How a row-mapped stage forms its units of work. Each unit is one row of `input`, times one
 * element of the `cross` param's array when given; with `join`, the unit also receives the rows of
 * other inputs whose `column` equals the unit row's, and only those rows enter the unit's key.
 */
export interface ForEach {
  input: string;
  /** Units are (row × element of params[cross.param]); that param leaves the stage-wide key. */
  cross?: { param: string; as: string };
  /** input name → column shared with the driving row. */
  join?: Record<string, string>;
}

export interface StageDecl {
  name: string;
  /** The stage's code, relative to the project root. Its default export is a tableStage or rowStage. */
  module: string;
  /** Local name → name of a source or stage. */
  inputs?: Record<string, string>;
  params?: Record<string, unknown>;
  /** Present for row-mapped stages; a string is shorthand for { input }. */
  forEach?: string | ForEach;
  /** Units in flight at once for a row-mapped stage (LLM-bound stages want more); see `laneWidths`. */
  concurrency?: number;
  /**
   * For a row-mapped stage that crosses a param whose elements are served apart (models, each
   * with its own declared concurrency): units in flight per element, by its `name` (or the
   * element itself when it is a string). Each listed element's units run in a lane of their own,
   * so units waiting on one element's server never hold up another's; units of an element not
   * listed share `concurrency`. Not part of the key (pipeline/exec/unit-lanes.ts).
   */
  laneWidths?: Record<string, number>;
  /** Commit finished units to disk every this many units (and at least every second). */
  commitEvery?: number;
  /**
   * A column whose distinct values the run summary counts ("covered 5 cdp_id"), so a smoke run
   * shows how much of the data each stage saw. Not part of the key.
   */
  covers?: string;
  /**
   * What it means when this stage has no row but failure rows, e.g. "no test case left: …". The
   * run then says so and ends with exit code 4 (nothing to evaluate), whatever else it did.
   * Not part of the key.
   */
  requiresRows?: string;
}

export interface DagConfig {
  sources: Record<string, FileSource>;
  /** In any order; the runner orders them by their inputs. */
  stages: StageDecl[];
  /** Stages running at once. Default 2. */
  jobs?: number;
  /**
   * Worker threads for the units of stages declared pure (and the offline stand-ins' answers).
   * Default os.availableParallelism(); 1 computes everything on the main thread. `--workers N`
   * overrides it. Not part of any key: results are the same for every value.
   */
  workers?: number;
  /**
   * Problems the configuration found while it was built (a models file that does not validate, a
   * role nobody plays): `cdp run` and `cdp estimate` refuse to start and print them, while the
   * commands that only show the configuration still work.
   */
  problems?: string[];
  /** Worth knowing before a run (printed by `cdp run` and `cdp estimate`). */
  warnings?: string[];
}

/** `stage('cdps', { module: 'stages/construct/cdps.stage.ts', inputs: { trees: 'trees' } })` */
export function stage(name: string, decl: Omit<StageDecl, 'name'>): StageDecl {
  return { name, ...decl };
}

export function normaliseForEach(f: StageDecl['forEach']): ForEach | undefined {
  if (f === undefined) return undefined;
  return typeof f === 'string' ? { input: f } : f;
}
