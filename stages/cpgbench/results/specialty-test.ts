/**
 * CPGBench §2.4: "a chi-square test of independence across 24 specialties for each model" — here
 * for every model × judge × task: the specialties × (correct, not correct) table of the rates'
 * items (an answer failure or a missing judgement counts as not correct, a server failure or an
 * unscored item is left out, as in the rates), tested with chiSquareIndependence
 * (stages/stats/chi-square.ts, checked against SciPy). Items of unknown specialty are left out.
 */
import { chiSquareIndependence } from '../../stats/chi-square.ts';
import { TASKS, type CellOutcomes, type Item, type Task } from './rates.ts';

export interface SpecialtyTestRow {
  model: string;
  judge: string;
  simulated: boolean;
  task: Task;
  specialties: number;
  n: number;
  statistic: number | null;
  df: number | null;
  p: number | null;
  min_expected: number | null;
  /** Why there is no test (one specialty, one outcome), else null. */
  reason: string | null;
}

export function specialtyTests(items: readonly Item[], cells: readonly CellOutcomes[]): SpecialtyTestRow[] {
  const bySpecialty = new Map<string, Item[]>();
  for (const i of items) {
    if (i.specialty === null) continue;
    if (!bySpecialty.has(i.specialty)) bySpecialty.set(i.specialty, []);
    bySpecialty.get(i.specialty)!.push(i);
  }
  // In the items' order (cpg_outcomes: by guideline): the float sum of the χ² terms is that order's.
  const groups = [...bySpecialty.values()];
  return cells.flatMap((cell) =>
    TASKS.map((task) => {
      const table = groups.map((list) => {
        const counted = list.map((i) => cell.outcomes[task].get(i.recommendation_id)).filter((o) => o !== 'server' && o !== 'unscored');
        const correct = counted.filter((o) => o === 1).length;
        return [correct, counted.length - correct];
      });
      const r = chiSquareIndependence(table);
      const base = { model: cell.model, judge: cell.judge, simulated: cell.simulated, task, specialties: groups.length };
      const n = table.reduce((s, [a, b]) => s + a! + b!, 0);
      if (!r.ok) return { ...base, n, statistic: null, df: null, p: null, min_expected: null, reason: r.reason };
      const v = r.value;
      return { ...base, n, statistic: v.statistic, df: v.df, p: v.p, min_expected: v.minExpected, reason: null };
    }),
  );
}
