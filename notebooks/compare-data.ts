/**
 * Two runs side by side (pure): per (setting, judge, metric, model) each run's mean over its own
 * scored cases (n) and its failed rows (failures: an error instead of a value), the difference B − A over the cases both scored with a paired-bootstrap CI, and
 * the cases that moved most, each with a link into the case viewer. Runs are two stores, or two
 * states of one store (before and after a param change).
 */
import type { BootstrapOptions } from '../stages/stats/bootstrap.ts';
import { pairedDifference } from '../stages/stats/paired-bootstrap.ts';

type Row = Record<string, unknown>;

export interface RunRows {
  pathway_metrics: readonly Row[];
  outcome_scores?: readonly Row[];
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
  a_mean: number | null;
  b_mean: number | null;
  a_n: number;
  b_n: number;
  /** Rows of the run with an error instead of a value (a failed judging, an unusable pathway). */
  a_failures: number;
  b_failures: number;
  n_common: number;
  diff: number | null;
  ci_low: number | null;
  ci_high: number | null;
  moved: MovedCase[];
}

export const COMPARE_METRICS = ['dtw_pcc', 'ot_pcc', 'lnds_pcs', 'acc'] as const;

/** (setting, judge, metric, model) → cdp_id → value, over the scored rows of one run. */
function perCase(run: RunRows): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  const put = (r: Row, metric: string, v: unknown) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return;
    const k = JSON.stringify([r.setting, r.judge, metric, r.model]);
    if (!out.has(k)) out.set(k, new Map());
    out.get(k)!.set(String(r.cdp_id), v);
  };
  for (const r of run.pathway_metrics) if (r.error == null) for (const m of ['dtw_pcc', 'ot_pcc', 'lnds_pcs']) put(r, m, r[m]);
  for (const r of run.outcome_scores ?? []) if (r.error == null && typeof r.correct === 'boolean') put(r, 'acc', r.correct ? 1 : 0);
  return out;
}

/** (setting, judge, metric, model) → rows with an error, keyed like perCase. */
function failuresOf(run: RunRows): Map<string, number> {
  const out = new Map<string, number>();
  const add = (r: Row, metric: string) => {
    const k = JSON.stringify([r.setting, r.judge, metric, r.model]);
    out.set(k, (out.get(k) ?? 0) + 1);
  };
  for (const r of run.pathway_metrics) if (r.error != null) for (const m of ['dtw_pcc', 'ot_pcc', 'lnds_pcs']) add(r, m);
  for (const r of run.outcome_scores ?? []) if (r.error != null) add(r, 'acc');
  return out;
}

const mean = (m: Map<string, number> | undefined) => (m && m.size ? [...m.values()].reduce((s, v) => s + v, 0) / m.size : null);

export function caseLink(setting: string, model: string, cdp_id: string, judge: string): string {
  return `./case-viewer.html#${new URLSearchParams({ setting, model, cdp_id, judge }).toString()}`;
}

export function compareRuns(a: RunRows, b: RunRows, opts: BootstrapOptions & { moved?: number } = {}): CompareRow[] {
  const ca = perCase(a),
    cb = perCase(b);
  const fa = failuresOf(a),
    fb = failuresOf(b);
  // A key with failures only is kept: its row shows n = 0 beside the failures.
  const keys = [...new Set([...ca.keys(), ...cb.keys(), ...fa.keys(), ...fb.keys()])].sort();
  return keys.map((k) => {
    const [setting, judge, metric, model] = JSON.parse(k) as string[];
    const va = ca.get(k),
      vb = cb.get(k);
    // B − A: positive means the second run's value is higher.
    const d = va && vb ? pairedDifference(vb, va, opts) : null;
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
      metric: metric!,
      model: model!,
      a_mean: mean(va),
      b_mean: mean(vb),
      a_n: va?.size ?? 0,
      b_n: vb?.size ?? 0,
      a_failures: fa.get(k) ?? 0,
      b_failures: fb.get(k) ?? 0,
      n_common: d?.n ?? 0,
      diff: d?.diff ?? null,
      ci_low: d?.ciLow ?? null,
      ci_high: d?.ciHigh ?? null,
      moved,
    };
  });
}
