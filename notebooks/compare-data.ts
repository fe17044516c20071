/**
 * Two runs side by side (pure): per (setting, judge, metric, model) each run's mean with its n and
 * failures by kind, computed as model_summary computes them (the same code: the failure policy each
 * run's model_summary records, applied to its per-case rows; stages/report/policy-values.ts), the
 * difference B − A over the cases both means use, with the values they use, and a paired-bootstrap
 * CI, and the cases that moved most, each with a link into the case viewer. Runs are two stores, or
 * two states of one store (before and after a param change).
 */
import type { BootstrapOptions } from '../stages/stats/bootstrap.ts';
import { pairedDifference } from '../stages/stats/paired-bootstrap.ts';
import type { PolicyCell } from '../stages/evaluate/failure-policy.ts';
import { policyValues, summaryPolicy, valuesByCase, type PolicyValues } from '../stages/report/policy-values.ts';

type Row = Record<string, unknown>;

export interface RunRows {
  pathway_metrics: readonly Row[];
  outcome_scores?: readonly Row[];
  /** The run's predicted_pathways (its `failure` column): without it every case counts as scored or unscored. */
  predicted_pathways?: readonly Row[];
  /** The run's model_summary, for the failure policy its means used ('worst' when absent). */
  model_summary?: readonly Row[];
}

export interface MovedCase {
  cdp_id: string;
  a: number;
  b: number;
  delta: number;
  /** Opens the case in run B's case viewer. */
  link: string;
}

export interface CompareRow {
  setting: string;
  judge: string;
  metric: string;
  model: string;
  /** The flags of the model and the judge, as the runs' rows carry them (run B's where it has the cell). */
  simulated: boolean;
  judge_simulated: boolean | null;
  a_mean: number | null;
  b_mean: number | null;
  a_n: number;
  b_n: number;
  /** The cell's failures of every kind (answer, server, patient, missing, unscored). */
  a_failures: number;
  b_failures: number;
  /** "n=37 · answer 2 · server 1", as the reports print a cell. */
  a_counts: string;
  b_counts: string;
  a_policy: string;
  b_policy: string;
  n_common: number;
  diff: number | null;
  ci_low: number | null;
  ci_high: number | null;
  moved: MovedCase[];
}

export const COMPARE_METRICS = ['dtw_pcc', 'ot_pcc', 'lnds_pcs', 'acc'] as const;

function runValues(run: RunRows): PolicyValues {
  const policy = (run.model_summary ?? []).map((r) => ({ policy: r.policy == null ? null : String(r.policy) }));
  return policyValues({ ...run }, summaryPolicy(policy));
}

const mean = (c: PolicyCell | undefined) => (c && c.values.length ? c.values.reduce((s, v) => s + v, 0) / c.values.length : null);
const failures = (c: PolicyCell | undefined) => (c ? Object.values(c.kinds).reduce((a, b) => a + b, 0) : 0);
const KIND_LABELS = ['answer', 'server', 'patient', 'missing', 'unscored'] as const;
const countsOf = (c: PolicyCell | undefined) =>
  [`n=${c?.values.length ?? 0}`, ...KIND_LABELS.filter((k) => (c?.kinds[k] ?? 0) > 0).map((k) => `${k} ${c!.kinds[k]}`)].join(' · ');
const label = (v: PolicyValues) => (v.options.commonCases ? `${v.options.policy}+common` : v.options.policy);

export function caseLink(setting: string, model: string, cdp_id: string, judge: string): string {
  return `./case-viewer.html#${new URLSearchParams({ setting, model, cdp_id, judge }).toString()}`;
}

export function compareRuns(a: RunRows, b: RunRows, opts: BootstrapOptions & { moved?: number } = {}): CompareRow[] {
  const pa = runValues(a),
    pb = runValues(b);
  const metric = (k: string) => (JSON.parse(k) as string[])[2]!;
  // A key with failures only is kept: its row shows n = 0 beside the failures.
  const keys = [...new Set([...pa.cells.keys(), ...pb.cells.keys()])]
    .filter((k) => (COMPARE_METRICS as readonly string[]).includes(metric(k)))
    .sort();
  return keys.map((k) => {
    const [setting, judge, m, model] = JSON.parse(k) as string[];
    const ca = pa.cells.get(k),
      cb = pb.cells.get(k);
    const va = valuesByCase(ca),
      vb = valuesByCase(cb);
    // B − A: positive means the second run's value is higher.
    const d = va && vb ? pairedDifference(vb, va, { ...opts, guidelineOf: pb.guidelineOf }) : null;
    const moved =
      va && vb
        ? [...va.keys()]
            .filter((id) => vb.has(id) && vb.get(id) !== va.get(id))
            .map((id) => ({
              cdp_id: id,
              a: va.get(id)!,
              b: vb.get(id)!,
              delta: vb.get(id)! - va.get(id)!,
              link: caseLink(setting!, model!, id, judge!),
            }))
            .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || (x.cdp_id < y.cdp_id ? -1 : 1))
            .slice(0, opts.moved ?? 5)
        : [];
    return {
      setting: setting!,
      judge: judge!,
      metric: m!,
      model: model!,
      simulated: (cb ?? ca)?.simulated ?? false,
      judge_simulated: (cb ?? ca)?.judge_simulated ?? null,
      a_mean: mean(ca),
      b_mean: mean(cb),
      a_n: ca?.values.length ?? 0,
      b_n: cb?.values.length ?? 0,
      a_failures: failures(ca),
      b_failures: failures(cb),
      a_counts: countsOf(ca),
      b_counts: countsOf(cb),
      a_policy: label(pa),
      b_policy: label(pb),
      n_common: d?.n ?? 0,
      diff: d?.diff ?? null,
      ci_low: d?.ciLow ?? null,
      ci_high: d?.ciHigh ?? null,
      moved,
    };
  });
}
