/**
 * Cases whose construction failed (issue 20 item 4): no usable vignette (a failure row, or an
 * empty one) or no usable narrative (a failure row, or fewer statements than the CDP has decision
 * steps, so there is no single-turn reference). Such a case is no test case at all: test_cases
 * leaves it out, whatever `excludeFlagged` says, and qc_summary counts it — it is never charged
 * to an evaluated model as one of its failures. Pure: rows in, reasons out.
 */
import type { Row } from '../../pipeline/stage.ts';

/** The columns of vignettes and narratives the verdict needs. */
export const CONSTRUCTION_READS = {
  vignettes: ['cdp_id', 'vignette', 'error'],
  narratives: ['cdp_id', 'steps', 'error'],
};

function vignetteProblem(v: Row | undefined): string | null {
  if (!v) return 'no vignette';
  if (v.error != null) return `no usable vignette: ${String(v.error)}`;
  return typeof v.vignette === 'string' && v.vignette.trim() !== '' ? null : 'no usable vignette: it is empty';
}

function narrativeProblem(n: Row | undefined, steps: number): string | null {
  if (!n) return 'no narrative';
  if (n.error != null) return `no usable narrative: ${String(n.error)}`;
  const statements = Array.isArray(n.steps) ? n.steps.filter((s) => typeof s === 'string').length : 0;
  return statements >= steps ? null : `no usable narrative: ${statements} statements for ${steps} decision step${steps === 1 ? '' : 's'}`;
}

/** Each case of `cases` whose construction failed, by cdp_id, with why. */
export function constructionFailures(cases: readonly Row[], vignettes: readonly Row[], narratives: readonly Row[]): Map<string, string> {
  const byId = (rows: readonly Row[]) => new Map(rows.filter((r) => r.cdp_id != null).map((r) => [String(r.cdp_id), r]));
  const v = byId(vignettes),
    n = byId(narratives);
  const out = new Map<string, string>();
  for (const c of cases) {
    const id = String(c.cdp_id);
    // `length` is the number of decision steps (a summary reads only it); else the steps themselves.
    const steps = typeof c.length === 'number' ? c.length : Array.isArray(c.steps) ? c.steps.length : 0;
    const why = [vignetteProblem(v.get(id)), narrativeProblem(n.get(id), steps)].filter((x) => x !== null);
    if (why.length) out.set(id, why.join('; '));
  }
  return out;
}
