/**
 * The CPGBench reproduction scorecard (pure). Only real models that declare the paper model
 * they stand for (`"paper"` in the models file) are compared, under the paper's name. Because
 * our prompts are not the paper's (it prints none), values are shown beside the paper's but the
 * claim is about orderings: for each table and task, how many pairs of compared models are in
 * the paper's order, and Kendall's τ-b between the two rankings.
 */
import { kendallTauB } from '../../stats/correlation.ts';
import type { ReportTable } from '../../report/report-table.ts';
import { fixed2, pct } from '../../report/format.ts';
import type { RateRow } from '../results/rates.ts';
import type { PublishedRate } from './published.ts';
import { REPORT_TASKS, TASK_LABEL, lookup } from './rate-rows.ts';

export interface ScoreValue {
  table: string;
  task: string;
  paperModel: string;
  runModel: string | null;
  paper: number;
  ours: number | null;
}

export function scoreValues(
  published: readonly PublishedRate[],
  rows: readonly RateRow[],
  judge: string | null,
  paperNames: Record<string, string>,
): ScoreValue[] {
  const at = lookup(rows, judge);
  const byPaper = new Map(Object.entries(paperNames).map(([run, paper]) => [paper, run]));
  const real = new Set(rows.filter((r) => !r.simulated).map((r) => r.model));
  return published.map((p) => {
    const run = byPaper.get(p.model);
    const cell = run && real.has(run) ? at(run, p.task, p.grouping, p.grouping === 'overall' ? 'all' : 'safety-critical') : undefined;
    return {
      table: p.table,
      task: p.task,
      paperModel: p.model,
      runModel: cell ? run! : null,
      paper: p.value,
      ours: cell ? cell.rate * 100 : null,
    };
  });
}

export interface Ordering {
  table: string;
  task: string;
  models: number;
  pairs: number;
  sameOrder: number;
  tau: number | null;
}

export function orderings(values: readonly ScoreValue[]): Ordering[] {
  const out: Ordering[] = [];
  for (const table of [...new Set(values.map((v) => v.table))]) {
    for (const task of REPORT_TASKS) {
      const vs = values.filter((v) => v.table === table && v.task === task && v.ours !== null);
      let pairs = 0,
        same = 0;
      for (let i = 0; i < vs.length; i++)
        for (let j = i + 1; j < vs.length; j++) {
          pairs++;
          if (Math.sign(vs[i]!.paper - vs[j]!.paper) === Math.sign(vs[i]!.ours! - vs[j]!.ours!)) same++;
        }
      const tau =
        vs.length >= 2
          ? kendallTauB(
              Float64Array.from(vs, (v) => v.paper),
              Float64Array.from(vs, (v) => v.ours!),
            )
          : null;
      out.push({ table, task, models: vs.length, pairs, sameOrder: same, tau: tau !== null && Number.isFinite(tau) ? tau : null });
    }
  }
  return out;
}

export function scorecardTables(values: readonly ScoreValue[], simulatedOnly: boolean, judge: string | null): ReportTable[] {
  const compared = new Set(values.filter((v) => v.ours !== null).map((v) => v.paperModel));
  const claim = simulatedOnly
    ? 'The evaluated models are simulated stand-ins: nothing is compared with the paper (no claim).'
    : compared.size
      ? `Compared: ${[...compared].join(', ')} (models that declare "paper"), judged by ${judge ?? 'no judge'}.`
      : 'No evaluated model declares "paper" in the models file: nothing is compared.';
  const note =
    ' Our prompts were written for this project (the paper prints none of its fourteen), so values can differ; the claim is the ordering.';
  const title = `CPGBench reproduction scorecard${simulatedOnly ? ' — simulated stand-ins, no claim' : ''}`;
  return [
    {
      name: 'cpgbench_scorecard',
      title,
      caption: claim + note,
      columns: ['Table', 'Task', 'Paper model', 'Run model', 'Paper (%)', 'Ours (%)', 'Ours − paper (pp)'],
      rows: values.map((v) => [
        v.table,
        TASK_LABEL[v.task as keyof typeof TASK_LABEL],
        v.paperModel,
        v.runModel ?? '—',
        v.paper.toFixed(2),
        v.ours === null ? '—' : pct(v.ours / 100),
        v.ours === null ? '—' : pct((v.ours - v.paper) / 100),
      ]),
    },
    {
      name: 'cpgbench_scorecard_orderings',
      title: `${title}: orderings`,
      caption: `${claim} For each table and task: the pairs of compared models whose order matches the paper's, and Kendall's τ-b between the two rankings (none with fewer than two models).`,
      columns: ['Table', 'Task', 'Models compared', "Pairs in the paper's order", "Kendall's τ-b"],
      rows: orderings(values).map((o) => [
        o.table,
        TASK_LABEL[o.task as keyof typeof TASK_LABEL],
        String(o.models),
        o.pairs ? `${o.sameOrder} of ${o.pairs}` : '—',
        fixed2(o.tau),
      ]),
    },
  ];
}
