/**
 * The QC counts of a benchmark export, counted from the exported `cases` rows themselves, so the
 * dataset card states exactly what the rows hold: checked by the deterministic checks (passed,
 * flagged, not checked), inspected by an LLM (inconsistent, not judged), and excluded from the
 * task settings. A case is flagged by the checks as `qc-exclusion.ts` flags it: any scope not ok
 * or any problem listed. Pure.
 */
type Row = Record<string, unknown>;

export interface QcCounts {
  cases: number;
  checked: number;
  passed: number;
  flagged: number;
  notChecked: number;
  inspected: number;
  inconsistent: number;
  notJudged: number;
  excluded: number;
}

const listed = (v: unknown) => Array.isArray(v) && v.length > 0;

export function qcCounts(cases: readonly Row[]): QcCounts {
  const c: QcCounts = {
    cases: cases.length,
    checked: 0,
    passed: 0,
    flagged: 0,
    notChecked: 0,
    inspected: 0,
    inconsistent: 0,
    notJudged: 0,
    excluded: 0,
  };
  for (const r of cases) {
    if (r.qc_error != null || r.qc_cdp_ok == null) c.notChecked++;
    else {
      c.checked++;
      const flagged = r.qc_cdp_ok === false || r.qc_vignette_ok === false || r.qc_narrative_ok === false || listed(r.qc_problems);
      if (flagged) c.flagged++;
      else c.passed++;
    }
    if (r.qc_inspection_error != null) c.notJudged++;
    else if (typeof r.qc_inspection_consistent === 'boolean') {
      c.inspected++;
      if (r.qc_inspection_consistent === false) c.inconsistent++;
    }
    if (r.excluded === true) c.excluded++;
  }
  return c;
}

/** The card's QC line. */
export function qcLine(c: QcCounts): string {
  const checks =
    `${c.checked} checked by the deterministic checks: ${c.passed} passed, ${c.flagged} flagged ` +
    '(`qc_cdp_ok`, `qc_vignette_ok`, `qc_narrative_ok`, `qc_problems`)' +
    (c.notChecked ? `; ${c.notChecked} not checked (\`qc_error\`)` : '');
  const inspection =
    c.inspected + c.notJudged === 0
      ? 'no LLM inspection in this build'
      : `${c.inspected} inspected by an LLM (\`qc_inspector\`): ${c.inconsistent} found inconsistent (\`qc_inspection_problems\`)` +
        (c.notJudged ? `, ${c.notJudged} could not be judged (\`qc_inspection_error\`)` : '');
  return (
    `- QC: of the ${c.cases} cases, ${checks}; ${inspection}; ${c.excluded} test case${c.excluded === 1 ? '' : 's'} ` +
    'excluded from the task settings (`excluded`, `exclusion_reasons`).'
  );
}
