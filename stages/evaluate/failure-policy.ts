/**
 * How a case that was not scored as the model answered it enters the means of model_summary
 * (issue 20 item 4). Every test case of a model in a setting ends in exactly one of: scored, or a
 * failure of one kind (predicted_pathways' `failure` column):
 *
 * - 'answer': the model's answer could not be read, or it ran past max_tokens (finish_reason
 *   'length'). The model's own result.
 * - 'server': a call failed (HTTP error, timeout, connection, refusal before sending, context
 *   overflow, an empty or cut-off 200): no answer exists. Retryable (`cdp run --retry-failed`).
 * - 'patient': the simulated or real patient could not go on (multi-turn). Not the model's;
 *   retryable.
 * - 'missing': an imported prediction set has no prediction for this test case.
 *
 * A case the model answered but that could not be scored for a reason that is no model's (the
 * judge failed; a case without a reference) is counted as 'unscored'.
 *
 * Policies (param `failurePolicy` of model_summary; `commonCases` on top of either):
 * - 'worst' (default): answer failures and missing cases score the metric's worst value, as an
 *   empty pathway does (DTW-PCC 1, OT-PCC 1, LNDS-PCS 0, accuracy 0, SR failure). Server and
 *   patient failures, and unscored cases, are left out of the mean: they are not results, and a
 *   retry can still turn them into results. A cell with any of them is *incomplete*.
 * - 'exclude': answer failures and missing cases are left out too (the mean over the cases the
 *   model answered readably).
 * - commonCases: every cell of one (setting, judge, metric) keeps only the cases that are in the
 *   mean of every model there (after the policy), so the models are compared on one set. Under
 *   'worst' an answer failure stays in that set (scored worst); under 'exclude' it leaves it.
 *
 * The paired differences of the leaderboard and of the compare notebook take their per-case
 * values from `applyFailurePolicy` too, so a difference is always over the values its means use.
 */

export const FAILURE_POLICIES = ['worst', 'exclude'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];

/** The kinds of failure of one case of one model (predicted_pathways.failure). */
export const CASE_FAILURES = ['answer', 'server', 'patient', 'missing'] as const;
export type CaseFailure = (typeof CASE_FAILURES)[number];

/** Every count a cell keeps: the four kinds, and the cases nobody could score. */
export const COUNT_KINDS = [...CASE_FAILURES, 'unscored'] as const;
export type CountKind = (typeof COUNT_KINDS)[number];

/** Kinds that leave the mean under every policy and make the cell incomplete: a retry may still score them. */
export const OUTSTANDING_KINDS: readonly CountKind[] = ['server', 'patient', 'unscored'];

/** Kinds each policy scores as the metric's worst value (the others leave the mean). */
const SCORED_WORST: Record<FailurePolicy, readonly CaseFailure[]> = { worst: ['answer', 'missing'], exclude: [] };

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
  /** The judge's roster flag, as its rows carry it; null for a cell without a judge (SR). */
  judge_simulated: boolean | null;
}

export interface CellEntries extends CellKey {
  entries: Entry[];
}

export type KindCounts = Record<CountKind, number>;

/** A cell after the policy: the values of its mean with their cases, and the count of every case it left out. */
export interface PolicyCell extends CellKey {
  values: number[];
  /** The case of each value (parallel to `values`): what a paired difference pairs on. */
  caseIds: string[];
  guidelines: string[];
  /** Every case of the cell (the model's test cases in this cell): n + excluded. */
  cases: number;
  /** Cases of the cell by kind of failure (and unscored). */
  kinds: KindCounts;
  /** Cases in this cell that are not in the mean, for any reason: cases = n + excluded. */
  excluded: number;
  /** Some case left the mean for a reason a retry may remove (server, patient, unscored). */
  incomplete: boolean;
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

/** The options a label names (model_summary's `policy` column), so a report applies the policy its means used. */
export function parsePolicyLabel(label: string): PolicyOptions {
  const [policy, common, ...rest] = label.split('+');
  if (rest.length || (common !== undefined && common !== 'common') || !FAILURE_POLICIES.includes(policy as FailurePolicy)) {
    throw new RangeError(`failure policy "${label}" is none of worst, exclude, worst+common, exclude+common; rerun model_summary`);
  }
  return { policy: policy as FailurePolicy, commonCases: common === 'common' };
}

/** What kind of count an entry adds to, or null when it was scored. */
export function countKind(e: Entry): CountKind | null {
  if (e.failure !== null) return e.failure;
  return e.value === null ? 'unscored' : null;
}

/** The value the entry contributes under the policy, or null when it is left out. */
export function admittedValue(e: Entry, metric: PolicyMetric, policy: FailurePolicy): number | null {
  if (e.failure === null) return e.value;
  return SCORED_WORST[policy].includes(e.failure) ? WORST_VALUES[metric] : null;
}

const zeroCounts = (): KindCounts => ({ answer: 0, server: 0, patient: 0, missing: 0, unscored: 0 });

export function applyFailurePolicy(cells: readonly CellEntries[], o: PolicyOptions): PolicyCell[] {
  // The models compared in one comparison: every model of a (setting, judge, metric).
  const groupOf = (c: CellKey) => JSON.stringify([c.setting, c.judge, c.metric]);
  const common = new Map<string, Set<string>>();
  if (o.commonCases) {
    for (const c of cells) {
      const kept = new Set(c.entries.filter((e) => admittedValue(e, c.metric, o.policy) !== null).map((e) => e.caseId));
      const sofar = common.get(groupOf(c));
      common.set(groupOf(c), sofar ? new Set([...sofar].filter((id) => kept.has(id))) : kept);
    }
  }
  return cells.map((c) => {
    const keep = o.commonCases ? common.get(groupOf(c))! : null;
    const values: number[] = [],
      caseIds: string[] = [],
      guidelines: string[] = [];
    const kinds = zeroCounts();
    for (const e of c.entries) {
      const kind = countKind(e);
      if (kind) kinds[kind]++;
      const v = admittedValue(e, c.metric, o.policy);
      if (v === null || (keep && !keep.has(e.caseId))) continue;
      values.push(v);
      caseIds.push(e.caseId);
      guidelines.push(e.guideline);
    }
    const { setting, judge, metric, model, simulated, judge_simulated } = c;
    return {
      ...{ setting, judge, metric, model, simulated, judge_simulated },
      values,
      caseIds,
      guidelines,
      cases: c.entries.length,
      kinds,
      excluded: c.entries.length - values.length,
      incomplete: OUTSTANDING_KINDS.some((k) => kinds[k] > 0),
    };
  });
}
