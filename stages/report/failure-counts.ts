/**
 * How the report layer prints a cell's failures (issue 20 item 4): its n with the failures by kind
 * in one compact cell ("n=37 · answer 2 · server 1"), whether it is incomplete and how to complete
 * it, and the failure policy its mean was computed under, read from model_summary's rows.
 */
import type { SummaryRow } from './summary-rows.ts';

type Counts = Pick<SummaryRow, 'n' | 'answer_failures' | 'server_failures' | 'patient_failures' | 'missing_cases' | 'unscored'>;

const KINDS = [
  ['answer', 'answer_failures'],
  ['server', 'server_failures'],
  ['patient', 'patient_failures'],
  ['missing', 'missing_cases'],
  ['unscored', 'unscored'],
] as const;

/** "n=37 · answer 2 · server 1": the cases in the mean, then every kind of failure the cell has. */
export function countsText(c: Partial<Counts> | undefined): string {
  const parts = [`n=${c?.n ?? 0}`];
  for (const [label, col] of KINDS) if ((c?.[col] ?? 0) > 0) parts.push(`${label} ${c![col]}`);
  return parts.join(' · ');
}

export const RETRY_COMMAND = 'cdp run --retry-failed';

/** What keeps cells of one setting incomplete, e.g. "20 server failures, 3 patient failures"; null when complete. */
export function incompleteWhat(cells: readonly (SummaryRow | undefined)[]): string | null {
  const mine = cells.filter((c): c is SummaryRow => !!c && c.incomplete);
  if (!mine.length) return null;
  // Cells of one setting share their cases: the largest count of each kind is the setting's.
  const most = (col: 'server_failures' | 'patient_failures' | 'unscored') => Math.max(0, ...mine.map((c) => c[col]));
  const parts = (
    [
      [most('server_failures'), 'server failure'],
      [most('patient_failures'), 'patient failure'],
      [most('unscored'), 'unscored case'],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
  return parts.join(', ') || 'cases left out';
}

const SETTING_WORDS: Record<string, string> = { single: 'single-turn', multi: 'multi-turn' };

/**
 * "incomplete: 20 server failures — retry with `cdp run --retry-failed`" (per setting when the
 * cells span several: "single-turn 20 server failures; multi-turn 3 patient failures"); null when complete.
 */
export function incompleteNote(cells: readonly (SummaryRow | undefined)[]): string | null {
  const settings = [...new Set(cells.filter((c): c is SummaryRow => !!c).map((c) => c.setting))];
  const per = settings.flatMap((s) => {
    const what = incompleteWhat(cells.filter((c) => c?.setting === s));
    return what === null ? [] : [settings.length > 1 ? `${SETTING_WORDS[s] ?? s} ${what}` : what];
  });
  return per.length ? `incomplete: ${per.join('; ')} — retry with \`${RETRY_COMMAND}\`` : null;
}

/** "covers 10 of 40 test cases" when some test cases of the cell have no prediction (an import); null otherwise. */
export function coverageNote(c: SummaryRow | undefined): string | null {
  if (!c || c.missing_cases <= 0) return null;
  return `covers ${c.cases - c.missing_cases} of ${c.cases} test cases`;
}

/** The policies the rows were computed under, in order of appearance. */
export function policiesOf(rows: readonly Pick<SummaryRow, 'policy'>[]): string[] {
  return [...new Set(rows.map((r) => r.policy).filter((p): p is string => p !== null))];
}

const POLICY_TEXT: Record<string, string> = {
  worst: 'answer failures (unreadable or cut-off answers) and missing cases score the worst value',
  exclude: 'answer failures and missing cases are left out of the mean',
};

/** What the counts beside n mean, for a caption. */
export const KINDS_SENTENCE =
  'Beside n (cases in the mean), the failures by kind: answer (unreadable or cut off), server (a call that failed), ' +
  'patient (the patient could not go on), missing (an imported set without the case), unscored (the judge failed).';

/**
 * The caption's sentence on the failure policy the rows record: what each kind does to the mean.
 * Several policies (rows of several runs) are each named.
 */
export function policySentence(rows: readonly Pick<SummaryRow, 'policy'>[]): string {
  const policies = policiesOf(rows);
  if (!policies.length) return 'Failure policy: not recorded in model_summary.';
  const said = policies.map((p) => {
    const [base, common] = p.split('+');
    const what = POLICY_TEXT[base!] ?? `policy ${base}`;
    const on = common ? '; every model of a comparison is taken on the cases in all their means' : '';
    return `${p}: ${what}; server and patient failures and unscored cases are left out of the mean and mark it incomplete${on}`;
  });
  return `Failure policy ${said.join('; and ')}.`;
}
