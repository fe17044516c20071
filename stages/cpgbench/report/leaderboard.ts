/**
 * The CPGBench leaderboard (pure): models ranked by the average of the three rates (Table 1's
 * "Average") under the report's judge, real models first and simulated stand-ins ranked apart;
 * each with its three rates, and the paired difference of the average to the next model of its
 * group over the same items, with a paired-bootstrap CI (stages/stats/paired-bootstrap.ts),
 * which says whether the rank is real. The paired bootstrap is the rates' own (the resamples,
 * seed and level their rows record: rate-rows.ts recordedBootstrap), and the caption says which.
 */
import type { BootstrapOptions } from '../../stats/bootstrap.ts';
import { discreteBootstrap } from '../../stats/discrete-bootstrap.ts';
import type { PairedDifference } from '../../stats/paired-bootstrap.ts';
import type { ReportTable } from '../../report/report-table.ts';
import { diffCell } from '../../report/leaderboard.ts';
import { TASKS, type CellOutcomes, type Item, type RateRow } from '../results/rates.ts';
import { rateCell } from './rate-cells.ts';
import { REPORT_TASKS, SIMULATED_TITLE, TASK_LABEL, boardOrder, lookup, type RecordedBootstrap } from './rate-rows.ts';

export interface BoardEntry {
  rank: number;
  model: string;
  simulated: boolean;
  judge: string | null;
  cells: RateRow[];
  next: { model: string; diff: PairedDifference | null } | null;
}

/**
 * Each model's per-item average of the three tasks under `judge`, as its average rate uses them:
 * an answer failure or a missing judgement counts 0, an item with a server failure or unscored
 * is left out (the paired differences then use the items both models have).
 */
export function itemAverages(
  items: readonly Item[],
  cells: readonly CellOutcomes[],
  judge: string | null,
): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const c of cells.filter((x) => x.judge === judge)) {
    const m = new Map<string, number>();
    for (const i of items) {
      const os = TASKS.map((t) => c.outcomes[t].get(i.recommendation_id));
      if (os.some((o) => o === 'server' || o === 'unscored')) continue;
      m.set(i.recommendation_id, os.filter((o) => o === 1).length / TASKS.length);
    }
    out.set(c.model, m);
  }
  return out;
}

/**
 * The paired difference of two models' per-item averages over their common items: the case
 * bootstrap of the differences (paired-bootstrap.ts's definition), drawn by level counts since
 * the differences are thirds from −1 to 1.
 */
export function pairedAverageDifference(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  opts: BootstrapOptions = {},
): PairedDifference | null {
  const common = [...a.keys()].filter((k) => b.has(k)).sort();
  if (!common.length) return null;
  const d = Float64Array.from(common, (k) => Math.round((a.get(k)! - b.get(k)!) * 3) / 3);
  const r = discreteBootstrap(d, opts);
  const mean = (m: ReadonlyMap<string, number>) => common.reduce((s, k) => s + m.get(k)!, 0) / common.length;
  return { n: common.length, diff: r.mean, ciLow: r.ciLow, ciHigh: r.ciHigh, meanA: mean(a), meanB: mean(b), resampled: 'cases' };
}

export function leaderboard(
  rows: readonly RateRow[],
  averages: Map<string, Map<string, number>>,
  judge: string | null,
  opts: BootstrapOptions = {},
): BoardEntry[] {
  const at = lookup(rows, judge);
  const order = boardOrder(rows, judge);
  const sim = (m: string) => rows.some((r) => r.model === m && r.simulated);
  const out: BoardEntry[] = [];
  for (const group of [false, true]) {
    const ranked = order.filter((m) => sim(m) === group);
    ranked.forEach((model, i) => {
      const next = ranked[i + 1];
      const a = averages.get(model),
        b = next ? averages.get(next) : undefined;
      out.push({
        rank: i + 1,
        model,
        simulated: group,
        judge,
        cells: REPORT_TASKS.flatMap((t) => at(model, t, 'overall', 'all') ?? []),
        next: next ? { model: next, diff: a && b ? pairedAverageDifference(a, b, opts) : null } : null,
      });
    });
  }
  return out;
}

export function leaderboardTable(entries: readonly BoardEntry[], bootstrap: RecordedBootstrap | null): ReportTable {
  const share = entries.length && entries.every((e) => e.simulated) ? 'all' : entries.some((e) => e.simulated) ? 'some' : 'none';
  return {
    name: 'cpgbench_leaderboard',
    title: `CPGBench leaderboard: models ranked by the average of the three rates (judge: ${entries[0]?.judge ?? 'none'})${SIMULATED_TITLE[share]}`,
    caption:
      'Real models ranked by the average rate (higher is better), then the simulated stand-ins ranked apart. Each rate in % with its case and guideline CIs and its counts. ' +
      `Δ average to next: the paired difference (this model − the next of its group) in percentage points over the same items, with a ${pairedText(bootstrap)}; a CI containing 0 means the two ranks are not distinguishable on these items.`,
    columns: ['Rank', 'Model', ...REPORT_TASKS.map((t) => TASK_LABEL[t]), 'Next model', 'Δ average to next (pp)'],
    rows: entries.map((e) => [
      e.simulated ? `sim ${e.rank}` : String(e.rank),
      e.model,
      ...REPORT_TASKS.map((t) => rateCell(e.cells.find((c) => c.task === t))),
      e.next?.model ?? '',
      diffCell(e.next?.diff),
    ]),
  };
}

/** The paired bootstrap as the rates' rows record it. */
const pairedText = (b: RecordedBootstrap | null) =>
  b
    ? `${Math.round(b.level * 1000) / 10}% paired-bootstrap CI (${b.resamples} resamples, seed ${b.seed}, the rates' bootstrap)`
    : 'paired-bootstrap CI (no rate rows record its settings)';
