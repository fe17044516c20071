/**
 * How a model's failures enter the means of model_summary (issue 11 item 3). One policy for both
 * kinds of model failure, so a failed call and an unreadable answer can never be treated apart:
 *
 * - 'worst' (default): the case scores the metric's worst value, as an empty pathway does
 *   (DTW-PCC 1, OT-PCC 1, LNDS-PCS 0, accuracy 0, SR failure). SR is then k / every test case,
 *   as in the paper (§4.1).
 * - 'exclude': the case is left out of the mean (and counted in `excluded`).
 *
 * A patient failure is not the evaluated model's: it is left out under both policies and counted
 * apart. A case that cannot be scored for a reason that is no model's (a judge that failed, a case
 * without a reference) is left out as well. `commonCases` then restricts every cell to the cases
 * that every model of its (setting, judge, metric) completed, so models are compared on one set.
 */

export const FAILURE_POLICIES = ['worst', 'exclude'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];

/** What went wrong with one case of one model: its call, its answer, or the simulated patient. */
export const CASE_FAILURES = ['failed-call', 'unreadable', 'patient'] as const;
export type CaseFailure = (typeof CASE_FAILURES)[number];

export const WORST_VALUES = { dtw_pcc: 1, ot_pcc: 1, lnds_pcs: 0, acc: 0, sr: 0, sr_strict: 0 } as const satisfies Record<string, number>;
export type PolicyMetric = keyof typeof WORST_VALUES;

export interface PolicyOptions {
  policy: FailurePolicy;
  commonCases: boolean;
}

/** One case's contribution to one cell, before the policy. `value` is null when nothing was scored. */
export interface Entry {
  caseId: string;
  guideline: string;
  value: number | null;
  failure: CaseFailure | null;
}

export interface CellKey {
  setting: string;
  judge: string | null;
  metric: PolicyMetric;
  model: string;
  simulated: boolean;
}

export interface CellEntries extends CellKey {
  entries: Entry[];
}

/** A cell after the policy: the values of the mean, and the count of every case it left out. */
export interface PolicyCell extends CellKey {
  values: number[];
  guidelines: string[];
  /** Cases of the model in this cell that were failed calls or unreadable answers. */
  failures: number;
  /** Cases in this cell that are not in the mean, for any reason: entries = n + excluded. */
  excluded: number;
  patientFailures: number;
}

export function checkPolicyOptions(p: { failurePolicy?: unknown; commonCases?: unknown }): PolicyOptions {
  const policy = p.failurePolicy ?? 'worst';
  if (!FAILURE_POLICIES.includes(policy as FailurePolicy)) {
    const allowed = FAILURE_POLICIES.map((x) => `'${x}'`).join(', ');
    throw new RangeError(`model_summary: param failurePolicy is ${JSON.stringify(policy)}; use one of ${allowed}`);
  }
  const commonCases = p.commonCases ?? false;
  if (typeof commonCases !== 'boolean') {
    throw new TypeError(`model_summary: param commonCases is ${JSON.stringify(commonCases)}; use true or false`);
  }
  return { policy: policy as FailurePolicy, commonCases };
}

/** The policy's name as printed beside every mean, e.g. 'worst' or 'exclude+common'. */
export function policyLabel(o: PolicyOptions): string {
  return o.commonCases ? `${o.policy}+common` : o.policy;
}

const isModelFailure = (f: CaseFailure | null) => f === 'failed-call' || f === 'unreadable';

/** The value the entry contributes under the policy, or null when it is left out. */
export function admittedValue(e: Entry, metric: PolicyMetric, policy: FailurePolicy): number | null {
  if (isModelFailure(e.failure)) return policy === 'worst' ? WORST_VALUES[metric] : null;
  if (e.failure === 'patient') return null;
  return e.value;
}

/** Whether the model completed the case: scored, and neither a model failure nor a patient one. */
const completed = (e: Entry) => e.failure === null && e.value !== null;

export function applyFailurePolicy(cells: readonly CellEntries[], o: PolicyOptions): PolicyCell[] {
  // The models compared in one comparison: every model of a (setting, judge, metric).
  const groupOf = (c: CellKey) => JSON.stringify([c.setting, c.judge, c.metric]);
  const common = new Map<string, Set<string>>();
  if (o.commonCases) {
    for (const c of cells) {
      const done = new Set(c.entries.filter(completed).map((e) => e.caseId));
      const sofar = common.get(groupOf(c));
      common.set(groupOf(c), sofar ? new Set([...sofar].filter((id) => done.has(id))) : done);
    }
  }
  return cells.map((c) => {
    const keep = o.commonCases ? common.get(groupOf(c))! : null;
    const values: number[] = [],
      guidelines: string[] = [];
    for (const e of c.entries) {
      const v = admittedValue(e, c.metric, o.policy);
      if (v === null || (keep && !keep.has(e.caseId))) continue;
      values.push(v);
      guidelines.push(e.guideline);
    }
    return {
      setting: c.setting,
      judge: c.judge,
      metric: c.metric,
      model: c.model,
      simulated: c.simulated,
      values,
      guidelines,
      failures: c.entries.filter((e) => isModelFailure(e.failure)).length,
      excluded: c.entries.length - values.length,
      patientFailures: c.entries.filter((e) => e.failure === 'patient').length,
    };
  });
}
