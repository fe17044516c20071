/**
 * The settings a run used, as data: each stage that uses a setting records the value in its
 * rows (cdps: the split rule; dialogues_multi: the turn cap; step_scores: judge runs;
 * outcome_scores: the cut-off; pathway_metrics: λ, τ and each judge's γ, β; model_summary: the
 * failure policy and the bootstrap). `collectSettings` gathers the distinct values with how many
 * rows hold each (the `run_settings` stage); `RunSettings` reads them back for the reports, which
 * never take a setting from their own params or a module's default. Pure.
 */
import type { Row } from '../../pipeline/stage.ts';

export interface SettingSource {
  /** The stage whose rows record it (the run_settings input of the same name). */
  stage: string;
  /** Its column there. */
  column: string;
  /** Recorded per judge (the row's `judge`) rather than once for the stage. */
  perJudge?: boolean;
}

export const SETTING_SOURCES: readonly SettingSource[] = [
  { stage: 'cdps', column: 'split_by' },
  { stage: 'cdps', column: 'test_fraction' },
  { stage: 'cdps', column: 'split_seed' },
  { stage: 'dialogues_multi', column: 'cap_factor' },
  { stage: 'dialogues_multi', column: 'cap_extra' },
  { stage: 'step_scores', column: 'runs', perJudge: true },
  { stage: 'outcome_scores', column: 'cutoff' },
  { stage: 'pathway_metrics', column: 'ot_lambda' },
  { stage: 'pathway_metrics', column: 'ot_tau_a' },
  { stage: 'pathway_metrics', column: 'ot_tau_b' },
  { stage: 'pathway_metrics', column: 'gamma', perJudge: true },
  { stage: 'pathway_metrics', column: 'beta', perJudge: true },
  { stage: 'pathway_metrics', column: 'gamma_calibrated', perJudge: true },
  { stage: 'model_summary', column: 'policy' },
  { stage: 'model_summary', column: 'resamples' },
  { stage: 'model_summary', column: 'seed' },
  { stage: 'model_summary', column: 'level' },
];

/** The columns run_settings reads of each input. */
export function settingReads(): Record<string, string[]> {
  const reads: Record<string, string[]> = {};
  for (const s of SETTING_SOURCES) {
    const cols = (reads[s.stage] ??= []);
    for (const c of s.perJudge ? ['judge', s.column] : [s.column]) if (!cols.includes(c)) cols.push(c);
  }
  return reads;
}

/** One recorded value: `rows` rows of `stage` hold `value` in `setting` (for `judge`, when per judge). */
export type SettingRow = {
  stage: string;
  setting: string;
  judge: string | null;
  value: string;
  rows: number;
};

export const SETTING_COLUMNS = { stage: 'VARCHAR', setting: 'VARCHAR', judge: 'VARCHAR', value: 'VARCHAR', rows: 'INTEGER' } as const;

/** A recorded value as text: numbers as JavaScript prints them, booleans as true/false. */
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const text = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === 'bigint' ? String(v) : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** Every distinct value of every setting, most rows first (then by value); rows without one are skipped. */
export function collectSettings(inputs: Record<string, readonly Row[] | undefined>): SettingRow[] {
  const out: SettingRow[] = [];
  for (const s of SETTING_SOURCES) {
    // By judge, then value: a key string per row was most of this stage at the paper's size (3 × 10^5 rows an input).
    const counts = new Map<string | null, Map<string, SettingRow>>();
    for (const r of inputs[s.stage] ?? []) {
      const value = text(r[s.column]);
      if (value === null) continue;
      const judge = s.perJudge ? String(r.judge) : null;
      let ofJudge = counts.get(judge);
      if (!ofJudge) counts.set(judge, (ofJudge = new Map()));
      const c = ofJudge.get(value);
      if (c) c.rows++;
      else ofJudge.set(value, { stage: s.stage, setting: s.column, judge, value, rows: 1 });
    }
    out.push(
      ...[...counts.values()]
        .flatMap((m) => [...m.values()])
        .sort((a, b) => byCodeUnit(a.judge ?? '', b.judge ?? '') || b.rows - a.rows || byCodeUnit(a.value, b.value)),
    );
  }
  return out;
}

/** The run_settings rows as the reports read them. */
export class RunSettings {
  private readonly rows: SettingRow[];
  constructor(rows: readonly Row[]) {
    this.rows = rows.map((r) => ({
      stage: String(r.stage),
      setting: String(r.setting),
      judge: r.judge == null ? null : String(r.judge),
      value: String(r.value),
      rows: Number(r.rows),
    }));
  }

  /** The distinct values recorded (most rows first); [] when no row recorded one. */
  values(stage: string, setting: string, judge: string | null = null): string[] {
    return this.rows
      .filter((r) => r.stage === stage && r.setting === setting && r.judge === judge)
      .sort((a, b) => b.rows - a.rows || byCodeUnit(a.value, b.value))
      .map((r) => r.value);
  }

  /** The judges a per-judge setting was recorded for, in the order first recorded. */
  judges(stage: string, setting: string): string[] {
    return [...new Set(this.rows.filter((r) => r.stage === stage && r.setting === setting && r.judge !== null).map((r) => r.judge!))];
  }
}

/**
 * The bootstrap model_summary recorded, for a report that computes more intervals beside its
 * means (the leaderboard's paired differences): the value most rows hold; absent when none.
 */
export function recordedBootstrap(s: RunSettings): { resamples?: number; seed?: number; level?: number } {
  const first = (name: string) => {
    const v = s.values('model_summary', name)[0];
    return v === undefined ? {} : { [name]: Number(v) };
  };
  return { ...first('resamples'), ...first('seed'), ...first('level') };
}

const num = (v: string) => (v === 'Infinity' ? '∞' : v);

/** "0.1", "0.1 and 0.5 (mixed)", "0.1, 0.2 and 0.5 (mixed)", or "not recorded". */
export function valuesText(values: readonly string[], show: (v: string) => string = num): string {
  if (values.length === 0) return 'not recorded';
  if (values.length === 1) return show(values[0]!);
  const shown = values.map(show);
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]} (mixed)`;
}

/** "λ = 0.1" for one value, "λ: 0.1 and 0.5 (mixed)" for several, "λ: not recorded" for none. */
export function settingText(label: string, values: readonly string[], show: (v: string) => string = num): string {
  return values.length === 1 ? `${label} = ${show(values[0]!)}` : `${label}: ${valuesText(values, show)}`;
}

/** 10000 → "10,000" (grouped, as the reports print counts). */
export const grouped = (v: string) => (/^\d+$/.test(v) ? Number(v).toLocaleString('en-US') : v);

/** 0.95 → "95%". */
export const percentLevel = (v: string) => {
  const x = Number(v);
  return Number.isFinite(x) ? `${Number((x * 100).toPrecision(12))}%` : v;
};
