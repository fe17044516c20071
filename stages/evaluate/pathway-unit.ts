/**
 * What the judging stages share about one (judge × predicted pathway) unit: the key columns
 * copied from the driving row, and the refusal of rows that cannot be judged.
 */
import type { Row } from '../../pipeline/stage.ts';
import type { JudgeSetting } from '../judge/judge-step-scores.ts';

export const UNIT_COLUMNS = {
  setting: 'VARCHAR',
  model: 'VARCHAR',
  cdp_id: 'VARCHAR',
  guideline_id: 'VARCHAR',
  language: 'VARCHAR',
  simulated: 'BOOLEAN',
  judge: 'VARCHAR',
} as const;

/**
 * The judging stages' `failure_kind` (the runner's generic label of a failure row): 'upstream' for
 * a pathway that cannot be judged (its case failed before judging: counted where it failed),
 * 'judge' when the judge itself failed.
 */
export const FAILURE_KIND_COLUMN = { failure_kind: 'VARCHAR' } as const;

export function unitBase(row: Row, judge: unknown): Row {
  return {
    setting: row.setting,
    model: row.model,
    cdp_id: row.cdp_id,
    guideline_id: row.guideline_id,
    language: row.language,
    simulated: row.simulated === true,
    judge,
  };
}

export function judgeName(cross: unknown): string {
  if (typeof cross !== 'string' || cross === '')
    throw new TypeError(`the crossed judge must be a roster model name, got ${JSON.stringify(cross)}; cross the param 'judges' as 'judge'`);
  return cross;
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
