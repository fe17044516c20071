/**
 * The settings the paper never states but its numbers depend on, as this run's rows recorded
 * them: OT-PCC's entropic regularisation λ and marginal relaxations τa, τb (Appendix B names the
 * solver, not the values; pathway_metrics rows), the outcome score that counts as correct
 * (outcome_scores rows) and the multi-turn turn cap (dialogues_multi rows). A comparison with a
 * published cell holds only for the values that produced it, so the reports print them, read
 * from the run_settings rows (run-settings.ts), never from a param or a module's default. Rows
 * holding more than one value are printed as mixed.
 */
import { settingText, valuesText, type RunSettings } from './run-settings.ts';

export interface UnstatedSettings {
  lambda: string[];
  tauA: string[];
  tauB: string[];
  cutoff: string[];
  capFactor: string[];
  capExtra: string[];
}

/** The recorded values of each open choice (several when the rows are mixed, none when not recorded). */
export function unstatedSettings(s: RunSettings): UnstatedSettings {
  return {
    lambda: s.values('pathway_metrics', 'ot_lambda'),
    tauA: s.values('pathway_metrics', 'ot_tau_a'),
    tauB: s.values('pathway_metrics', 'ot_tau_b'),
    cutoff: s.values('outcome_scores', 'cutoff'),
    capFactor: s.values('dialogues_multi', 'cap_factor'),
    capExtra: s.values('dialogues_multi', 'cap_extra'),
  };
}

const same = (a: readonly string[], b: readonly string[]) => a.length === 1 && b.length === 1 && a[0] === b[0];

/** "λ = 0.1, τa = τb = 1" (τa and τb apart when they differ; "λ: 0.1 and 0.5 (mixed)" when the rows are). */
export function otChoiceText(c: UnstatedSettings): string {
  const tau = same(c.tauA, c.tauB) ? settingText('τa = τb', c.tauA) : `${settingText('τa', c.tauA)}, ${settingText('τb', c.tauB)}`;
  return `${settingText('λ', c.lambda)}, ${tau}`;
}

export function otSentence(c: UnstatedSettings): string {
  if (!c.lambda.length && !c.tauA.length && !c.tauB.length)
    return 'OT-PCC: no pathway_metrics row records λ or τ (no pathway was scored); the paper gives neither.';
  return (
    `OT-PCC here: ${otChoiceText(c)} (entropic regularisation and marginal relaxation, stages/metrics/ot.ts; as recorded in pathway_metrics). ` +
    'The paper gives no λ or τ and OT-PCC depends on both, so a published OT cell may rest on other values.'
  );
}

export function cutoffSentence(c: UnstatedSettings): string {
  if (c.cutoff.length === 0)
    return 'Outcome accuracy: no outcome_scores row records a cut-off (no outcome was judged); the paper states none.';
  const which = c.cutoff.length === 1 ? `a judge score ≥ ${c.cutoff[0]}` : `a judge score ≥ the row's cut-off, ${valuesText(c.cutoff)}`;
  return `Outcome accuracy counts ${which} (of 1–5) as correct; the paper states no cut-off.`;
}

export function capSentence(c: UnstatedSettings): string {
  if (c.capFactor.length === 0 && c.capExtra.length === 0)
    return 'Multi-turn turn cap: no dialogues_multi row records one (no dialogue was played); the paper states none.';
  const rule =
    c.capFactor.length === 1 && c.capExtra.length === 1
      ? `ceil(${c.capFactor[0]} × length + ${c.capExtra[0]})`
      : `ceil(factor × length + extra) with factor ${valuesText(c.capFactor)} and extra ${valuesText(c.capExtra)}`;
  return (
    `Multi-turn dialogues end unfinished after ${rule} doctor turns (length = decision steps of the reference CDP); ` +
    'the paper states no turn cap, and SR and the multi-turn pathways depend on it.'
  );
}
