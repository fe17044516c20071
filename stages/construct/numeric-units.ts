/**
 * Units the threshold parser recognises after a number. Only durations convert between one
 * another (a guideline may say "12 weeks" in one node and "3 months" in the next); other units
 * are compared by identity, because converting e.g. mg/dL to mmol/L depends on the analyte.
 * `integer` marks units whose values are reported as whole numbers (ages, durations, mmHg,
 * counts), which the value picker respects.
 */

export interface UnitInfo {
  /** Canonical spelling used in keys and output. */
  canonical: string;
  /** Values in one family can be converted (`factor` to the family's base unit) or compared. */
  family: string;
  factor: number;
  integer: boolean;
  /** Lowest plausible value (quantities are non-negative unless a threshold is negative). */
  min?: number;
  max?: number;
}

const DAY = 1;
const u = (canonical: string, family: string, factor: number, integer: boolean, extra: Partial<UnitInfo> = {}): UnitInfo => ({
  canonical,
  family,
  factor,
  integer,
  ...extra,
});

const TABLE: Array<[string[], UnitInfo]> = [
  [['minutes', 'minute', 'mins', 'min', '分钟'], u('minutes', 'duration', DAY / 1440, true)],
  [['hours', 'hour', 'hrs', 'hr', 'h', '小时', '个小时'], u('hours', 'duration', DAY / 24, true)],
  [['days', 'day', 'd', '天', '日'], u('days', 'duration', DAY, true)],
  [['weeks', 'week', 'wks', 'wk', '周', '个星期', '星期'], u('weeks', 'duration', 7 * DAY, true)],
  [['months', 'month', 'mo', '个月', '月'], u('months', 'duration', 30.4375 * DAY, true)],
  [['years old', 'year-old', 'years', 'year', 'yrs', 'yr', 'y', '年'], u('years', 'duration', 365.25 * DAY, true, { max: 120 })],
  [['岁'], u('岁', 'duration', 365.25 * DAY, true, { max: 120 })],
  [['mmhg', 'mm hg'], u('mmHg', 'mmHg', 1, true, { max: 300 })],
  [['cmh2o'], u('cmH2O', 'cmH2O', 1, false)],
  [['kpa'], u('kPa', 'kPa', 1, false)],
  [['kg/m²', 'kg/m2', 'kg/m^2', 'kg m-2', 'kg·m-2', 'kg/㎡'], u('kg/m²', 'kg/m²', 1, false, { max: 80 })],
  [['mme/day', 'mme/d', 'mme per day', 'mme'], u('MME/day', 'MME/day', 1, true)],
  [['mg/day', 'mg/d', 'mg per day'], u('mg/day', 'mg/day', 1, false)],
  [['g/day', 'g/d', 'g per day'], u('g/day', 'g/day', 1, false)],
  [
    ['th percentile', 'st percentile', 'nd percentile', 'rd percentile', 'th centile', 'percentile', 'centile'],
    u('th percentile', 'percentile', 1, true, { max: 100 }),
  ],
  [['mg/kg'], u('mg/kg', 'mg/kg', 1, false)],
  [['mg/dl'], u('mg/dL', 'mg/dL', 1, false)],
  [['g/dl'], u('g/dL', 'g/dL', 1, false)],
  [['mg/l'], u('mg/L', 'mg/L', 1, false)],
  [['g/l'], u('g/L', 'g/L', 1, false)],
  [['mmol/l'], u('mmol/L', 'mmol/L', 1, false)],
  [['μmol/l', 'µmol/l', 'umol/l'], u('μmol/L', 'μmol/L', 1, false)],
  [['meq/l'], u('mEq/L', 'mEq/L', 1, false)],
  [['ng/ml'], u('ng/mL', 'ng/mL', 1, false)],
  [['pg/ml'], u('pg/mL', 'pg/mL', 1, false)],
  [['μg/l', 'µg/l', 'ug/l'], u('μg/L', 'μg/L', 1, false)],
  [['miu/l'], u('mIU/L', 'mIU/L', 1, false)],
  [['iu/l'], u('IU/L', 'IU/L', 1, false)],
  [['u/l'], u('U/L', 'U/L', 1, false)],
  [['ml/min/1.73 m²', 'ml/min/1.73m²', 'ml/min/1.73 m2', 'ml/min/1.73m2', 'ml/min'], u('mL/min/1.73 m²', 'eGFR', 1, true)],
  [['×10^9/l', 'x10^9/l', '×10⁹/l', 'x10⁹/l', '× 10^9/l', 'x 10^9/l', '× 10⁹/l', '10^9/l', '10⁹/l'], u('×10^9/L', '×10^9/L', 1, false)],
  [['×10^12/l', 'x10^12/l', '×10¹²/l', '10^12/l'], u('×10^12/L', '×10^12/L', 1, false)],
  [['cells/μl', 'cells/µl', 'cells/ul', '/μl', '/µl', '/ul', '/mm³', '/mm3'], u('/μL', '/μL', 1, true)],
  [['beats/min', 'beats per minute', 'bpm', '次/分', '次/min'], u('/min', 'rate', 1, true)],
  [['breaths/min'], u('breaths/min', 'breaths', 1, true)],
  [['%'], u('%', '%', 1, false, { max: 100 })],
  [['kg'], u('kg', 'kg', 1, false)],
  [['cm'], u('cm', 'cm', 1, false)],
  [['mm'], u('mm', 'mm', 1, false)],
  [['mg'], u('mg', 'mg', 1, false)],
  [['°c', '℃'], u('°C', '°C', 1, false, { min: 25, max: 45 })],
  [['times', 'time', 'episodes', 'episode', '次'], u('times', 'count', 1, true)],
  [['points', 'point', '分'], u('points', 'points', 1, true)],
];

/** Aliases longest first, so "mg/dl" wins over "mg" and "years old" over "years". */
const ALIASES: Array<[string, UnitInfo]> = TABLE.flatMap(([names, info]) => names.map((n): [string, UnitInfo] => [n, info])).sort(
  (a, b) => b[0].length - a[0].length,
);

const ASCII_WORD = /^[a-z]/;

/**
 * The unit at the start of `text` (whitespace allowed before it), or null. English word units
 * must end at a word boundary so that "d" does not match the start of "daily".
 */
export function matchUnit(text: string): { unit: UnitInfo; length: number } | null {
  // "a 7-day supply", "a 70-year-old": a hyphen may join the number and a word unit.
  const lead = /^(?:-(?=[a-z])|[ \t]*)/i.exec(text)![0].length;
  const rest = text.slice(lead).toLowerCase();
  for (const [alias, info] of ALIASES) {
    if (!rest.startsWith(alias)) continue;
    const next = rest.charAt(alias.length);
    if (ASCII_WORD.test(alias.charAt(alias.length - 1)) && /[a-z0-9]/.test(next)) continue;
    // A bare "h"/"d"/"y"/"mo" is only a unit right after the number ("48 h", not "48 and h").
    if (alias.length <= 2 && ASCII_WORD.test(alias) && lead > 1) continue;
    return { unit: info, length: lead + alias.length };
  }
  return null;
}

/** Converts `x` expressed in `from` into `to`; both must share a family. */
export function convert(x: number, from: UnitInfo, to: UnitInfo): number {
  if (from.family !== to.family) {
    throw new Error(`cannot convert ${from.canonical} to ${to.canonical}: different quantities; compare only within one family`);
  }
  return (x * from.factor) / to.factor;
}

export const NO_UNIT: UnitInfo = u('', 'none', 1, false);
