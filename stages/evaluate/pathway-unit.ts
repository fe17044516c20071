/**
 * What the judging stages share about one (judge × predicted pathway) unit: the key columns
 * copied from the driving row, the judge (its name and whether it is a simulated stand-in, from
 * its spec), and the refusal of rows that cannot be judged.
 */
import type { Row } from '../../pipeline/stage.ts';
import type { JudgeSetting } from '../judge/judge-step-scores.ts';
import { judgeSpecOf, type JudgeSpec } from '../roster/judge-spec.ts';

export const UNIT_COLUMNS = {
  setting: 'VARCHAR',
  model: 'VARCHAR',
  cdp_id: 'VARCHAR',
  guideline_id: 'VARCHAR',
  language: 'VARCHAR',
  simulated: 'BOOLEAN',
  judge: 'VARCHAR',
  judge_simulated: 'BOOLEAN',
} as const;

/**
 * The judging stages' `failure_kind` (the runner's generic label of a failure row): 'upstream' for
 * a pathway that cannot be judged (its case failed before judging: counted where it failed),
 * 'judge' when the judge itself failed.
 */
export const FAILURE_KIND_COLUMN = { failure_kind: 'VARCHAR' } as const;

export function unitBase(row: Row, judge: Pick<JudgeSpec, 'name' | 'simulated'>): Row {
  return {
    setting: row.setting,
    model: row.model,
    cdp_id: row.cdp_id,
    guideline_id: row.guideline_id,
    language: row.language,
    simulated: row.simulated === true,
    judge: judge.name,
    judge_simulated: judge.simulated,
  };
}

/** The unit's judge: the crossed element of the param 'judges'. */
export function judgeOf(cross: unknown): JudgeSpec {
  return judgeSpecOf(cross, "the crossed judge (param 'judges', crossed as 'judge')");
}

/** A real judge's calls are never spent on a simulated agent's pathway (no row: not a failure). */
export function skipsPathway(judge: JudgeSpec, row: Row): boolean {
  return !judge.simulated && row.simulated === true;
}

export function settingOf(row: Row): JudgeSetting {
  if (row.setting !== 'single' && row.setting !== 'multi')
    throw new RangeError(
      `predicted pathway ${String(row.cdp_id)} has setting ${JSON.stringify(row.setting)}; expected 'single' or 'multi'`,
    );
  return row.setting;
}

/** Why a pathway cannot be judged, or null. */
export function unusable(row: Row): string | null {
  return row.usable === true ? null : `pathway not judged: ${String(row.reason ?? 'marked unusable')}`;
}

export const stringArray = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
