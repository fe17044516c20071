/**
 * The settings the paper never states but its numbers depend on, as this run set them: OT-PCC's
 * entropic regularisation λ and marginal relaxations τa, τb (Appendix B names the solver, not the
 * values), the outcome score that counts as correct, and the multi-turn turn cap. A comparison
 * with a published cell holds only for the values that produced it, so the reports print them.
 *
 * They enter the report stages as param `runParams`, keyed by the stage whose params they are
 * (`pathway_metrics`: lambda, tauA, tauB; `outcome_scores`: cutoff; `dialogues_multi`:
 * capFactor, capExtra), with those stages' own defaults. open-choices.test.ts checks against
 * dag.config.ts that the report stages state exactly what the computing stages use.
 */
import { OT_DEFAULTS } from '../metrics/ot.ts';
import { DEFAULT_OUTCOME_CUTOFF } from '../judge/judge-outcome.ts';
import { DEFAULT_CAP_EXTRA, DEFAULT_CAP_FACTOR } from '../tasks/turn-cap.ts';

export interface RunParams {
  pathway_metrics?: { lambda?: number; tauA?: number; tauB?: number };
  outcome_scores?: { cutoff?: number };
  dialogues_multi?: { capFactor?: number; capExtra?: number };
}

export interface OpenChoices {
  lambda: number;
  tauA: number;
  tauB: number;
  cutoff: number;
  capFactor: number;
  capExtra: number;
}

function value(stage: string, name: string, x: unknown, fallback: number, ok: (v: number) => boolean, what: string): number {
  if (x === undefined || x === null) return fallback;
  if (typeof x !== 'number' || !ok(x)) {
    const got = JSON.stringify(x);
    throw new RangeError(`report param runParams.${stage}.${name} must be ${what}, got ${got}; pass the value the ${stage} stage uses`);
  }
  return x;
}

const positive = (v: number) => v > 0 && !Number.isNaN(v);
const finite = (v: number) => Number.isFinite(v);

/** The run's values, each the stage's param or that stage's default. Extra keys are ignored. */
export function openChoices(p: RunParams = {}): OpenChoices {
  const pm = p.pathway_metrics ?? {},
    os = p.outcome_scores ?? {},
    dm = p.dialogues_multi ?? {};
  return {
    lambda: value('pathway_metrics', 'lambda', pm.lambda, OT_DEFAULTS.lambda, (v) => positive(v) && finite(v), 'a finite number > 0'),
    tauA: value('pathway_metrics', 'tauA', pm.tauA, OT_DEFAULTS.tauA, positive, 'a number > 0 (Infinity = balanced)'),
    tauB: value('pathway_metrics', 'tauB', pm.tauB, OT_DEFAULTS.tauB, positive, 'a number > 0 (Infinity = balanced)'),
    cutoff: value('outcome_scores', 'cutoff', os.cutoff, DEFAULT_OUTCOME_CUTOFF, finite, 'a number'),
    capFactor: value('dialogues_multi', 'capFactor', dm.capFactor, DEFAULT_CAP_FACTOR, finite, 'a number'),
    capExtra: value('dialogues_multi', 'capExtra', dm.capExtra, DEFAULT_CAP_EXTRA, finite, 'a number'),
  };
}

const num = (x: number) => (x === Infinity ? '∞' : String(x));

/** "λ = 0.1, τa = τb = 1" (τa and τb apart when they differ). */
export function otChoiceText(c: OpenChoices): string {
  const tau = c.tauA === c.tauB ? `τa = τb = ${num(c.tauA)}` : `τa = ${num(c.tauA)}, τb = ${num(c.tauB)}`;
  return `λ = ${num(c.lambda)}, ${tau}`;
}

export const otSentence = (c: OpenChoices) =>
  `OT-PCC here: ${otChoiceText(c)} (entropic regularisation and marginal relaxation, stages/metrics/ot.ts). ` +
  'The paper gives no λ or τ and OT-PCC depends on both, so a published OT cell may rest on other values.';

export const cutoffSentence = (c: OpenChoices) =>
  `Outcome accuracy counts a judge score ≥ ${num(c.cutoff)} (of 1–5) as correct; the paper states no cut-off.`;

export const capSentence = (c: OpenChoices) =>
  `Multi-turn dialogues end unfinished after ceil(${num(c.capFactor)} × length + ${num(c.capExtra)}) doctor turns ` +
  '(length = decision steps of the reference CDP); ' +
  'the paper states no turn cap, and SR and the multi-turn pathways depend on it.';
