/**
 * Number formatting for reports, fixed so that the same data always prints the same bytes.
 * Stored values are fractions; the paper prints percentages with two decimals.
 */
import { countsText } from './failure-counts.ts';

/** Hundredths of a percent, as an integer: the one rounding every report shares (half away from zero). */
export function pctHundredths(fraction: number): number {
  const x = fraction * 10000;
  // toPrecision(12) first so 0.44605 stored as 0.44604999… rounds as written, not as stored.
  const clean = Number(x.toPrecision(12));
  return Math.sign(clean) * Math.round(Math.abs(clean));
}

/** Hundredths as a fixed 2-decimal string ("-0.05", "44.61"). */
export function hundredthsText(h: number): string {
  const sign = h < 0 ? '-' : '';
  const a = Math.abs(h);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

/** A fraction as a percentage with 2 decimals: 0.44612 → "44.61"; null/NaN → "—". */
export function pct(fraction: number | null | undefined): string {
  if (fraction == null || !Number.isFinite(fraction)) return '—';
  return hundredthsText(pctHundredths(fraction));
}

/** The paper's CI cell: "44.61 (44.07–45.16)". */
export function pctWithCi(mean: number | null | undefined, low: number | null | undefined, high: number | null | undefined): string {
  if (mean == null || !Number.isFinite(mean)) return '—';
  return low == null || high == null || !Number.isFinite(low) || !Number.isFinite(high)
    ? pct(mean)
    : `${pct(mean)} (${pct(low)}–${pct(high)})`;
}

/** A CI alone: "(44.07–45.16)", or "—" when undefined (e.g. the cluster CI over one guideline). */
export function pctCi(low: number | null | undefined, high: number | null | undefined): string {
  if (low == null || high == null || !Number.isFinite(low) || !Number.isFinite(high)) return '—';
  return `(${pct(low)}–${pct(high)})`;
}

/** A plain number with 2 decimals (correlations); null → "—". */
export function fixed2(x: number | null | undefined): string {
  if (x == null || !Number.isFinite(x)) return '—';
  const h = Number((x * 100).toPrecision(12));
  return hundredthsText(Math.sign(h) * Math.round(Math.abs(h)));
}

/** An integer as is, anything else with 2 decimals (length statistics: "6", "6.51"). */
export function count2(x: number | null | undefined): string {
  if (x == null || !Number.isFinite(x)) return '—';
  return Number.isInteger(x) ? String(x) : fixed2(x);
}

/** A mean with its CI and its counts: "44.61 (44.07–45.16) n=120 · answer 3"; "—" when not run. */
export function pctCell(
  c: ({ mean: number; ci_low: number | null; ci_high: number | null } & Parameters<typeof countsText>[0]) | undefined,
): string {
  if (!c || !Number.isFinite(c.mean)) return '—';
  return `${pctWithCi(c.mean, c.ci_low, c.ci_high)} ${countsText(c)}`;
}
