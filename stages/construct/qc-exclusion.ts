/**
 * Which cases QC leaves out of the task settings (paper §3.1: problematic cases are excluded;
 * issue 11 item 5), and why. Pure: rows of `qc` and `qc_inspection` in, reasons out.
 *
 * - Deterministic checks (`qc`): a case with any problem — of its CDP, its vignette or its
 *   narrative (the narrative is the single-turn reference) — is flagged, with the problem kinds.
 *   A `qc` failure row (no vignette to check) flags nothing: the task stages already report that
 *   case as a failure of its own.
 * - LLM inspection (`qc_inspection`, only when a builder model is configured): a verdict
 *   `consistent = false` flags the case. An inspection that could not judge (a failure row)
 *   flags nothing: an unreadable verdict is no evidence against the case.
 */
import type { Row } from '../../pipeline/stage.ts';

export type FlagSource = 'checks' | 'inspection';

export interface QcFlag {
  cdp_id: string;
  sources: FlagSource[];
  /** The deterministic problem kinds, then "inspection: <problems>" when the inspector objected. */
  reasons: string[];
}

/** Every flagged case by cdp_id, in the order the cases first appear. */
export function qcFlags(qc: readonly Row[], inspection: readonly Row[] = []): Map<string, QcFlag> {
  const flags = new Map<string, QcFlag>();
  const flag = (id: string, source: FlagSource, reasons: string[]) => {
    const f = flags.get(id) ?? { cdp_id: id, sources: [], reasons: [] };
    if (!f.sources.includes(source)) f.sources.push(source);
    f.reasons.push(...reasons);
    flags.set(id, f);
  };
  for (const r of qc) {
    if (r.error != null) continue;
    const problems = Array.isArray(r.problems) ? (r.problems as { kind?: unknown }[]) : [];
    if (r.cdp_ok === false || r.vignette_ok === false || r.narrative_ok === false || problems.length > 0) {
      const kinds = [...new Set(problems.map((p) => String(p.kind)))];
      flag(String(r.cdp_id), 'checks', kinds.length ? kinds : ['a QC scope marked not ok']);
    }
  }
  for (const r of inspection) {
    if (r.error != null || r.consistent !== false) continue;
    const said = Array.isArray(r.problems) ? (r.problems as unknown[]).map(String).join('; ') : '';
    flag(String(r.cdp_id), 'inspection', [`inspection: ${said || 'inconsistent'}`]);
  }
  return flags;
}

export interface ExclusionCounts {
  /** Test cases (of the rows given) flagged by the deterministic checks. */
  byChecks: number;
  /** Test cases flagged by the LLM inspection. */
  byInspection: number;
  /** Test cases flagged by either (each counted once). */
  flagged: number;
}

export function exclusionCounts(testIds: Iterable<string>, flags: ReadonlyMap<string, QcFlag>): ExclusionCounts {
  const counts: ExclusionCounts = { byChecks: 0, byInspection: 0, flagged: 0 };
  for (const id of new Set(testIds)) {
    const f = flags.get(id);
    if (!f) continue;
    counts.flagged++;
    if (f.sources.includes('checks')) counts.byChecks++;
    if (f.sources.includes('inspection')) counts.byInspection++;
  }
  return counts;
}
