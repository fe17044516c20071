/**
 * Stage `cpg_agreement`: Cohen's κ between each judge and the human labels of a corpus's
 * DIR/human-labels.csv (human-labels.ts), and between annotators. Input `labels`: a files source
 * (the CSV, when the corpus has one); with none the stage has no rows and the reports say that
 * no human labels were imported. A bad CSV row is logged with its line and skipped.
 */
import { readFileSync } from 'node:fs';
import { tableStage, type Row } from '../../../pipeline/stage.ts';
import { judgeAgreement, parseHumanLabels, type HumanLabel, type JudgeScores } from './human-labels.ts';
import type { Task } from './rates.ts';

function scoresOf(rows: readonly Row[]): JudgeScores {
  const out = new Map<string, Map<Task, Map<string, 0 | 1>>>();
  for (const r of rows) {
    if (r.error != null || (r.score !== 0 && r.score !== 1)) continue;
    const judge = String(r.judge);
    if (!out.has(judge)) out.set(judge, new Map());
    const byTask = out.get(judge)!;
    const task = r.task as Task;
    if (!byTask.has(task)) byTask.set(task, new Map());
    byTask.get(task)!.set(`${String(r.model)}\u0000${String(r.recommendation_id)}`, r.score);
  }
  return out;
}

export default tableStage({
  inputs: { labels: 'optional whole', cpg_detection_judgements: 'whole', cpg_adherence_judgements: 'whole' },
  params: {},
  reads: {
    cpg_detection_judgements: ['model', 'judge', 'task', 'recommendation_id', 'score', 'error'],
    cpg_adherence_judgements: ['model', 'judge', 'task', 'recommendation_id', 'score', 'error'],
  },
  columns: {
    kind: 'VARCHAR',
    task: 'VARCHAR',
    first: 'VARCHAR',
    second: 'VARCHAR',
    n: 'INTEGER',
    kappa: 'DOUBLE',
    observed: 'DOUBLE',
    half: 'INTEGER',
    half_judged_1: 'DOUBLE',
    unmatched: 'INTEGER',
    labels_file: 'VARCHAR',
  },
  run(inputs, ctx) {
    const files = inputs.labels!.filter((f) => /(?:^|\/)human-labels\.csv$/.test(String(f.path)));
    const labels: HumanLabel[] = [];
    for (const f of files) {
      const parsed = parseHumanLabels(readFileSync(ctx.file(String(f.path)), 'utf8'), String(f.path));
      for (const e of parsed.errors) ctx.log(e.message);
      labels.push(...parsed.rows.map(({ line: _line, ...l }) => l));
    }
    if (!labels.length) return [];
    const scores = scoresOf([...inputs.cpg_detection_judgements!, ...inputs.cpg_adherence_judgements!]);
    const file = files.map((f) => String(f.path)).join(', ');
    return judgeAgreement(labels, scores).map((r) => ({ ...r, labels_file: file }));
  },
});
