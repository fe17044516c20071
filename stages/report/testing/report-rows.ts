/** Small fixed model_summary rows for the report tests (fractions, as the stage stores them). */
import type { Row } from '../../../pipeline/stage.ts';
import { collectSettings, RunSettings } from '../run-settings.ts';
import type { SummaryRow } from '../summary-rows.ts';
import type { JudgeFacts } from '../../roster/judge-spec.ts';

/** What the run's judge specs say of the judges these rows name (the reports read it, never the names). */
export const JUDGES: JudgeFacts[] = [
  { name: 'gpt-5.4-mini', kind: 'llm', simulated: false },
  { name: 'qwen3-8b', kind: 'llm', simulated: false },
  { name: 'embed-bge-m3', kind: 'embedding', simulated: false },
  ...['simulated-token-f1', 'simulated-char-ngram', 'simulated-tfidf'].map((name) => ({
    name,
    kind: 'similarity' as const,
    simulated: true,
  })),
];

export const srow = (
  setting: string,
  judge: string | null,
  metric: string,
  model: string,
  mean: number,
  ci: [number, number] | null = null,
  cluster: [number, number] | null = null,
  simulated = false,
): SummaryRow => ({
  setting,
  judge,
  metric,
  model,
  simulated,
  mean,
  ci_low: ci?.[0] ?? null,
  ci_high: ci?.[1] ?? null,
  n: 10,
  cases: 10,
  failures: 0,
  answer_failures: 0,
  server_failures: 0,
  patient_failures: 0,
  missing_cases: 0,
  unscored: 0,
  excluded: 0,
  incomplete: false,
  policy: 'worst',
  cluster_ci_low: cluster?.[0] ?? null,
  cluster_ci_high: cluster?.[1] ?? null,
  clusters: cluster ? 3 : 1,
});

/** Two real models of the paper, one simulated agent, an LLM judge and a simulated judge. */
export const SUMMARY: SummaryRow[] = [
  // Two of its ten cases failed (one unreadable answer, scored worst; one failed call, left out): nine are in the mean.
  {
    ...srow('single', 'gpt-5.4-mini', 'dtw_pcc', 'Qwen3-8B', 0.44612, [0.4407, 0.4516], [0.43, 0.46]),
    n: 9,
    failures: 2,
    answer_failures: 1,
    server_failures: 1,
    excluded: 1,
    incomplete: true,
  },
  srow('single', 'qwen3-8b', 'dtw_pcc', 'Qwen3-8B', 0.3367, [0.3316, 0.3419]),
  srow('single', 'simulated-token-f1', 'dtw_pcc', 'Qwen3-8B', 0.9),
  srow('single', 'gpt-5.4-mini', 'acc', 'Qwen3-8B', 0.65),
  srow('multi', 'gpt-5.4-mini', 'dtw_pcc', 'Qwen3-8B', 0.5, [0.45, 0.55], [0.4, 0.6]),
  srow('multi', 'gpt-5.4-mini', 'acc', 'Qwen3-8B', 0.28725),
  srow('multi', null, 'sr', 'Qwen3-8B', 0.7817),
  srow('single', 'gpt-5.4-mini', 'acc', 'GPT-5.4', 0.5),
  srow('single', 'gpt-5.4-mini', 'dtw_pcc', 'simulated-oracle', 0, [0, 0], null, true),
];

/** Rows of the stages that record settings, one each, with the values a default run records. */
export const SETTING_ROWS: Record<string, Row[]> = {
  cdps: [{ split_by: 'fraction', test_fraction: 0.5, split_seed: 156 }],
  dialogues_multi: [{ cap_factor: 2, cap_extra: 4 }],
  step_scores: [{ judge: 'gpt-5.4-mini', runs: 5 }],
  outcome_scores: [{ cutoff: 4 }],
  pathway_metrics: [{ judge: 'gpt-5.4-mini', ot_lambda: 0.1, ot_tau_a: 1, ot_tau_b: 1, gamma: 0.7, beta: 0.2, gamma_calibrated: true }],
  model_summary: [{ policy: 'worst', resamples: 10000, seed: 42, level: 0.95 }],
};

/** The run_settings rows of SETTING_ROWS with some stages' rows replaced (`over`). */
export const settingRows = (over: Record<string, Row[]> = {}) => collectSettings({ ...SETTING_ROWS, ...over });

/** The same as the reports read them. */
export const recorded = (over: Record<string, Row[]> = {}) => new RunSettings(settingRows(over));
