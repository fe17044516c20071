/**
 * Human labels of CPGBench answers, imported from a CSV (DIR/human-labels.csv), and their
 * agreement with the judge (§2.6, §4.6):
 *
 *   task,recommendation_id,model,annotator,human
 *   adherence,nice-2019-asthma#2,gpt-4o,clinician-a,1
 *
 * `task` is content_detection, title_grounding or adherence; `human` 0, 0.5 or 1 (not matching,
 * partially, fully: the paper's scale). A bad row is reported by its line and skipped
 * (stages/stats/read-csv.ts), a missing column rejects the file.
 *
 * Judge–human κ is computed, as the paper does, over the items both rated 0 or 1 (the judge is
 * binary; the paper's κ uses "the 0 and 1 ratings in both sides"), per judge × task × annotator;
 * the items a human rated 0.5 are counted apart with the share the judge scored 1. Between two
 * annotators, κ is over every item both labelled, on the three levels.
 */
import { parseCsv, type CsvResult } from '../../stats/read-csv.ts';
import { cohensKappaOf } from '../../stats/cohen-kappa.ts';
import { TASKS, type Task } from './rates.ts';

export interface HumanLabel {
  task: Task;
  recommendation_id: string;
  model: string;
  annotator: string;
  human: 0 | 0.5 | 1;
}

type Parsed<V> = { value: V } | { problem: string };
const text = (raw: string, column: string): Parsed<string> =>
  raw.trim() ? { value: raw.trim() } : { problem: `column "${column}" is empty` };
const task = (raw: string, column: string): Parsed<Task> =>
  (TASKS as readonly string[]).includes(raw.trim())
    ? { value: raw.trim() as Task }
    : { problem: `column "${column}" must be one of ${TASKS.join(', ')}, got ${JSON.stringify(raw)}` };
const level = (raw: string, column: string): Parsed<0 | 0.5 | 1> => {
  const x = Number(raw.trim());
  return raw.trim() !== '' && (x === 0 || x === 0.5 || x === 1)
    ? { value: x as 0 | 0.5 | 1 }
    : { problem: `column "${column}" must be 0, 0.5 or 1, got ${JSON.stringify(raw)}` };
};

export function parseHumanLabels(csv: string, source = 'human-labels.csv'): CsvResult<HumanLabel> {
  return parseCsv<HumanLabel>(csv, source, { task, recommendation_id: text, model: text, annotator: text, human: level });
}

export interface JudgeAgreementRow {
  kind: 'judge-human' | 'human-human';
  task: Task;
  /** The judge, or the first annotator. */
  first: string;
  /** The annotator compared with. */
  second: string;
  /** Items in the κ. */
  n: number;
  kappa: number | null;
  observed: number | null;
  /** Judge–human: items the human rated 0.5, and the share of them the judge scored 1. */
  half: number;
  half_judged_1: number | null;
  /** Labels with no judgement of this judge to compare with. */
  unmatched: number;
}

/** judge → task → `${model}\u0000${recommendation_id}` → score. */
export type JudgeScores = ReadonlyMap<string, ReadonlyMap<Task, ReadonlyMap<string, 0 | 1>>>;

export function judgeAgreement(labels: readonly HumanLabel[], scores: JudgeScores): JudgeAgreementRow[] {
  const out: JudgeAgreementRow[] = [];
  const annotators = [...new Set(labels.map((l) => l.annotator))].sort();
  const key = (l: HumanLabel) => `${l.model}\u0000${l.recommendation_id}`;
  for (const t of TASKS) {
    const mine = labels.filter((l) => l.task === t);
    if (!mine.length) continue;
    for (const [judge, byTask] of [...scores].sort(([a], [b]) => (a < b ? -1 : 1))) {
      for (const a of annotators) {
        const theirs = mine.filter((l) => l.annotator === a);
        if (!theirs.length) continue;
        const matched = theirs.flatMap((l) => {
          const s = byTask.get(t)?.get(key(l));
          return s === undefined ? [] : [[s, l.human] as const];
        });
        const binary = matched.filter(([, h]) => h !== 0.5);
        const half = matched.filter(([, h]) => h === 0.5);
        const k = cohensKappaOf(binary);
        out.push({
          kind: 'judge-human',
          task: t,
          first: judge,
          second: a,
          n: binary.length,
          kappa: k && Number.isFinite(k.kappa) ? k.kappa : null,
          observed: k?.observed ?? null,
          half: half.length,
          half_judged_1: half.length ? half.filter(([s]) => s === 1).length / half.length : null,
          unmatched: theirs.length - matched.length,
        });
      }
    }
    out.push(...humanPairs(t, mine, annotators, key));
  }
  return out;
}

function humanPairs(
  t: Task,
  mine: readonly HumanLabel[],
  annotators: readonly string[],
  key: (l: HumanLabel) => string,
): JudgeAgreementRow[] {
  const out: JudgeAgreementRow[] = [];
  const by = new Map(annotators.map((a) => [a, new Map(mine.filter((l) => l.annotator === a).map((l) => [key(l), l.human]))]));
  for (const [i, a] of annotators.entries()) {
    for (const b of annotators.slice(i + 1)) {
      const la = by.get(a)!,
        lb = by.get(b)!;
      const pairs = [...la].flatMap(([k, h]) => (lb.has(k) ? [[h, lb.get(k)!] as const] : []));
      if (!pairs.length) continue;
      const k = cohensKappaOf(pairs)!;
      const kappa = Number.isFinite(k.kappa) ? k.kappa : null;
      out.push({
        kind: 'human-human',
        task: t,
        first: a,
        second: b,
        n: k.n,
        kappa,
        observed: k.observed,
        half: 0,
        half_judged_1: null,
        unmatched: 0,
      });
    }
  }
  return out;
}
