/**
 * The bounds `cdp sql` runs under: a DuckDB memory limit and a time limit, each with a documented
 * default and a flag, and the sentence that says which one stopped a query.
 *
 * The time limit counts DuckDB's time only: while the rows already read are being written (to a
 * slow pipe, a pager), the clock stops, so `cdp sql … | less` is not cut off by a reader.
 */

/** `--memory-limit`: DuckDB's own default is 80% of RAM, which one careless `string_agg` reaches. */
export const DEFAULT_MEMORY_LIMIT = '4GB';
/** `--timeout`: long enough for a scan of a paper-scale warehouse, short enough to stop a cross join. */
export const DEFAULT_TIMEOUT = '60s';

export interface SqlBounds {
  /** As DuckDB's `memory_limit` reads it, e.g. "4GB". */
  memoryLimit: string;
  /** As shown to the user, e.g. "4 GB". */
  memoryShown: string;
  /** Milliseconds of DuckDB time; null for no limit. */
  timeoutMs: number | null;
  timeoutShown: string;
}

const MEMORY = /^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;
const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A memory size as DuckDB reads it: a number and a unit (decimal or binary), e.g. 512MB, 4GB, 2GiB. */
export function parseMemoryLimit(text: string): { duckdb: string; shown: string } {
  const m = MEMORY.exec(text.trim());
  if (!m || Number(m[1]) <= 0) {
    throw new Error(`--memory-limit must be a size such as 512MB, 4GB or 2GiB, got "${text}"`);
  }
  const unit = UNITS.find((u) => u.toLowerCase() === m[2].toLowerCase())!;
  return { duckdb: `${m[1]}${unit}`, shown: `${m[1]} ${unit}` };
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/i;
const MS_PER = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** A duration: 90, 90s, 500ms, 2m, 1h; 0 or "none" for no limit. */
export function parseTimeout(text: string): { ms: number | null; shown: string } {
  const t = text.trim();
  if (/^(0+(\.0*)?\s*(ms|s|m|h)?|none)$/i.test(t)) return { ms: null, shown: 'none' };
  const m = DURATION.exec(t);
  if (!m) throw new Error(`--timeout must be a duration such as 30s, 500ms, 5m or 1h (or none), got "${text}"`);
  const unit = (m[2]?.toLowerCase() ?? 's') as keyof typeof MS_PER;
  return { ms: Number(m[1]) * MS_PER[unit], shown: `${m[1]} ${unit}` };
}

export function sqlBounds(o: { memoryLimit?: string; timeout?: string } = {}): SqlBounds {
  const memory = parseMemoryLimit(o.memoryLimit ?? DEFAULT_MEMORY_LIMIT);
  const time = parseTimeout(o.timeout ?? DEFAULT_TIMEOUT);
  return { memoryLimit: memory.duckdb, memoryShown: memory.shown, timeoutMs: time.ms, timeoutShown: time.shown };
}

/** The query stopped at one of its bounds; the message names the bound and the flag that moves it. */
export class SqlStopped extends Error {
  constructor(
    readonly bound: 'timeout' | 'memory',
    message: string,
  ) {
    super(message);
  }
}

const after = (rows: number | undefined) => (rows ? ` after ${rows} rows` : '');

export function timedOut(b: SqlBounds, rows?: number): SqlStopped {
  return new SqlStopped(
    'timeout',
    `the query was stopped after ${b.timeoutShown} (--timeout)${after(rows)}; give it longer with --timeout 5m (or --timeout none), or narrow it (a WHERE, a LIMIT, fewer joined rows)`,
  );
}

export function outOfMemory(b: SqlBounds, rows?: number): SqlStopped {
  return new SqlStopped(
    'memory',
    `the query ran out of memory at the ${b.memoryShown} limit (--memory-limit)${after(rows)}; raise it with --memory-limit 8GB, or make its result smaller (aggregate, LIMIT, fewer columns)`,
  );
}

/** Whether a DuckDB error is its memory limit being reached. */
export function isOutOfMemory(message: string): boolean {
  return /^Out of Memory Error\b/.test(message);
}

/**
 * DuckDB's time, measured between `run()` and `pause()`: when the time left runs out while it
 * runs, `interrupt` is called once and `fired` says so.
 */
export class QueryClock {
  fired = false;
  private left: number | null;
  private timer: NodeJS.Timeout | null = null;
  private since = 0;

  constructor(
    limitMs: number | null,
    private readonly interrupt: () => void,
  ) {
    this.left = limitMs;
  }

  run(): void {
    if (this.left === null || this.timer || this.fired) return;
    this.since = performance.now();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.fired = true;
      this.interrupt();
    }, this.left);
  }

  pause(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.left = Math.max(0, this.left! - (performance.now() - this.since));
  }
}
