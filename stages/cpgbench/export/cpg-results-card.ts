/**
 * The dataset card (README.md) of `cdp --config cpgbench.config.ts export results`: the shared
 * files and schema sections (stages/export/card-layout.ts), the evaluated models and the judges
 * (real and simulated apart, by the rows' `simulated` / `judge_simulated` flags), and every count,
 * failure and setting counted from the exported rows. Pure.
 */
import { codeList, tableSections, type CardTable } from '../../export/card-layout.ts';
import type { Row } from '../../export/export-db.ts';
import type { WrittenTable } from '../../export/table-files.ts';
import { failureText, plural, valueCounts, valuesText } from './card-counts.ts';

const names = (xs: readonly string[]) => (xs.length ? codeList(xs) : 'none');
const rowsOf = (written: readonly WrittenTable[], name: string) => written.find((t) => t.name === name)?.rows ?? [];

/** The distinct names of `key`, split by the boolean flag `flag`. */
function byFlag(rows: readonly Row[], key: string, flag: string): { real: string[]; simulated: string[] } {
  const sim = new Map<string, boolean>();
  for (const r of rows) if (r[key] != null) sim.set(String(r[key]), sim.get(String(r[key])) === true || r[flag] === true);
  const names = [...sim.keys()].sort();
  return { real: names.filter((n) => !sim.get(n)), simulated: names.filter((n) => sim.get(n)) };
}

function rolesLines(answers: readonly Row[], judgements: readonly Row[]): string[] {
  const models = byFlag(answers, 'model', 'simulated');
  const judges = byFlag(judgements, 'judge', 'judge_simulated');
  const produced = models.real.length
    ? `real models: ${models.real.join(', ')}${models.simulated.length ? `; simulated stand-ins: ${models.simulated.join(', ')}` : ''}`
    : models.simulated.length
      ? 'simulated stand-ins only: these are not LLM results'
      : 'no evaluated model answered';
  return [
    `- produced by: ${produced}`,
    `- real evaluated models: ${names(models.real)}`,
    `- simulated stand-ins (not LLM results): ${names(models.simulated)}`,
    `- real judges: ${names(judges.real)}`,
    `- simulated judges: ${names(judges.simulated)}`,
  ];
}

function countLines(written: readonly WrittenTable[]): string[] {
  const lines: string[] = [];
  for (const name of ['detection_answers', 'adherence_answers']) {
    const rows = rowsOf(written, name);
    lines.push(`- ${name}: ${plural(rows.length, 'answer')}; failures: ${failureText(rows)}`);
  }
  const judgements = rowsOf(written, 'judgements');
  for (const task of valueCounts(judgements, 'task')) {
    lines.push(`- judgements of ${task.value}: ${task.n}; failures: ${failureText(judgements.filter((j) => j.task === task.value))}`);
  }
  const untasked = judgements.filter((j) => j.task == null);
  if (untasked.length) lines.push(`- judgement failure rows without a task: ${untasked.length} (${failureText(untasked)})`);
  const rates = rowsOf(written, 'rates');
  lines.push(
    `- rates: ${plural(rates.length, 'row')}, ${rates.filter((r) => r.incomplete === true).length} incomplete ` +
      '(a server failure or an unscored item left n: `cdp --config cpgbench.config.ts run --retry-failed`), ' +
      `${rates.filter((r) => r.few_guidelines === true).length} with CIs from fewer than 10 guidelines (\`few_guidelines\`)`,
  );
  return lines;
}

function promptLines(written: readonly WrittenTable[]): string[] {
  const answers = [...rowsOf(written, 'detection_answers'), ...rowsOf(written, 'judgements')];
  const prompts = valueCounts(answers, 'template').map((t) => t.value);
  const adherence = rowsOf(written, 'adherence_answers');
  const bare = adherence.filter((r) => r.template == null).length;
  return [
    prompts.length
      ? `- prompts: ${codeList(prompts)} (written for this project, not the paper's; templates under stages/prompts/templates/)`
      : '- prompts: no exported row records a prompt template',
    `- adherence: ${bare} of ${adherence.length} answers record no prompt template: the truncated conversation was sent alone`,
  ];
}

function settingLines(rates: readonly Row[]): string[] {
  const resamples = valuesText(valueCounts(rates, 'resamples'), 'rate row', (v) => Number(v).toLocaleString('en'));
  const seed = valuesText(valueCounts(rates, 'seed'), 'rate row', (v) => String(v));
  const level = valuesText(valueCounts(rates, 'level'), 'rate row', (v) => `${Math.round(Number(v) * 1000) / 10}%`);
  if (!resamples && !seed && !level) return [];
  return [
    '## Settings, as the rows recorded them',
    '',
    `- Rates: correct ÷ the items of the group; case-bootstrap and guideline-cluster CIs at level ${level ?? 'not recorded'}, ` +
      `resamples ${resamples ?? 'not recorded'}, seed ${seed ?? 'not recorded'}.`,
    '',
  ];
}

export function cpgResultsCard(written: readonly WrittenTable[]): string {
  const tables: CardTable[] = written.map((t) => ({ name: t.name, description: t.description, rows: t.rows.length, columns: t.columns }));
  const answers = [...rowsOf(written, 'detection_answers'), ...rowsOf(written, 'adherence_answers')];
  return [
    '# CPGBench results (reproduction run)',
    '',
    "Both tasks' answers of every evaluated model, every judgement and the rates of one run of the cdp-pipeline project, exported by " +
      '`cdp --config cpgbench.config.ts export results` (only the current version of every table; failed rows are kept with their ' +
      '`failure_kind` and `error`).',
    '',
    ...tableSections(tables),
    '## How it was produced',
    '',
    ...rolesLines(answers, rowsOf(written, 'judgements')),
    ...countLines(written),
    ...promptLines(written),
    '',
    ...settingLines(rowsOf(written, 'rates')),
  ].join('\n');
}
