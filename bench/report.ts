/**
 * The shape every benchmark returns. `bench/run.ts` prints these and writes them, with the
 * machine and the date, into bench/RESULTS.md. A row compares a measurement with a
 * reference measured in the same run (ratio = value / reference, so for times < 1 is better)
 * and, where the issue sets one, a target.
 */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** What the value is compared with, measured in the same run (for example Snakemake's time). */
  reference?: { name: string; value: number };
  /** The target as text ("< 1 s", ">= 3x faster") and whether this run met it. */
  target?: { text: string; met: boolean };
  note?: string;
}

export interface BenchReport {
  title: string;
  rows: BenchRow[];
  /** Free text printed under the table: workload, parameters, caveats. */
  notes?: string[];
}

export type Bench = () => Promise<BenchReport>;
