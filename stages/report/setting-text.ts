/**
 * Sentences about the run's settings, each from the values its rows recorded (run_settings,
 * run-settings.ts): the bootstrap of model_summary (level, resamples, seed), the failure policy,
 * judge runs and each judge's γ and β, and the split rule of cdps. The settings the paper leaves
 * open (λ, τ, cut-off, turn cap) are unstated-settings.ts. Pure.
 */
import { grouped, percentLevel, settingText, valuesText, type RunSettings } from './run-settings.ts';

/** "95%" (the recorded CI level), "95% and 90% (mixed)", or "" when no row records one. */
export function ciLevel(s: RunSettings): string {
  const v = s.values('model_summary', 'level');
  return v.length === 0 ? '' : valuesText(v, percentLevel);
}

/** The level as a word before "…-bootstrap CI": "95% ", or nothing when not recorded. */
export const levelWord = (s: RunSettings) => (ciLevel(s) ? `${ciLevel(s)} ` : '');

/** "10,000 resamples, seed 42" as model_summary recorded them. */
export function bootstrapDraws(s: RunSettings): string {
  const seeds = s.values('model_summary', 'seed');
  const seed = seeds.length === 1 ? `seed ${seeds[0]}` : `seed: ${valuesText(seeds)}`;
  return `${valuesText(s.values('model_summary', 'resamples'), grouped)} resamples, ${seed}`;
}

/** "95% case-bootstrap CI, 10,000 resamples, seed 42" (its level, resamples and seed as model_summary recorded them). */
export function caseCiText(s: RunSettings): string {
  const none = ['level', 'resamples', 'seed'].every((x) => s.values('model_summary', x).length === 0);
  return none ? 'case-bootstrap CI (level, resamples and seed not recorded)' : `${levelWord(s)}case-bootstrap CI, ${bootstrapDraws(s)}`;
}

/** "failure policy `worst`" (model_summary's `policy`). */
export function policyText(s: RunSettings): string {
  const v = s.values('model_summary', 'policy');
  return v.length === 0 ? 'failure policy: not recorded' : `failure policy ${valuesText(v, (p) => `\`${p}\``)}`;
}

/** "5 judge runs per pathway" (every judge alike) or per judge: "judge runs per pathway: a 5, b 1". */
export function judgeRunsText(s: RunSettings): string {
  const judges = s.judges('step_scores', 'runs');
  if (judges.length === 0) return 'judge runs per pathway: not recorded (no step_scores row)';
  const per = judges.map((j) => valuesText(s.values('step_scores', 'runs', j)));
  if (new Set(per).size === 1) return `${per[0]} judge run${per[0] === '1' ? '' : 's'} per pathway (every judge)`;
  return `judge runs per pathway: ${judges.map((j, k) => `${j} ${per[k]}`).join(', ')}`;
}

/** Per judge, the LNDS threshold γ and the OT positional weight β its pathway_metrics rows used. */
export function calibrationText(s: RunSettings, judges: readonly string[] = s.judges('pathway_metrics', 'gamma')): string {
  if (judges.length === 0) return 'γ and β: not recorded (no pathway_metrics row)';
  const one = (j: string) => {
    const calibrated = s.values('pathway_metrics', 'gamma_calibrated', j);
    const note = calibrated.length === 1 ? (calibrated[0] === 'true' ? '' : ' (γ not calibrated for this judge)') : '';
    return `${j}: ${settingText('γ', s.values('pathway_metrics', 'gamma', j))}, ${settingText('β', s.values('pathway_metrics', 'beta', j))}${note}`;
  };
  return `γ (LNDS threshold) and β (OT positional weight) per judge — ${judges.map(one).join('; ')}`;
}

/** How the test split was drawn, from the cdps rows. */
export function splitText(s: RunSettings): string {
  const by = s.values('cdps', 'split_by');
  if (by.length === 0) return 'Test split: not recorded (no cdps row)';
  if (by.length === 1 && by[0] === 'test-ids') return 'Test split: the guidelines listed in the cdps param testIds';
  const seeds = s.values('cdps', 'split_seed');
  const seed = seeds.length === 1 ? `split seed ${seeds[0]}` : `split seed: ${valuesText(seeds)}`;
  const rule = `each guideline held out with probability ${valuesText(s.values('cdps', 'test_fraction'))} (${seed})`;
  const pinned = by.includes('pin') ? '; some guidelines pinned (guidelines.csv or split pins)' : '';
  const listed = by.includes('test-ids') ? '; some listed in testIds' : '';
  return `Test split: ${rule}${pinned}${listed}`;
}
