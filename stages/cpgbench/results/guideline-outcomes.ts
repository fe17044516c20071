/**
 * The rates' inputs (outcomes.ts: the benchmark items and each (model, judge) pair's outcome per
 * task and item) as rows of one guideline each, the rows of `cpg_outcomes`, and back. A row holds
 * the items of one guideline that share region, specialty and language (a guideline's items share
 * its metadata, so that is one row per guideline), sorted by id, and every cell's outcomes on them
 * as one character per item: '1' judged correct, '0' not, 'a' answer failure, 's' server
 * failure, 'u' unscored, '-' missing. `safety` is one character per item too: 't' safety-critical,
 * 'f' not, '-' not known.
 *
 * Decoding every row gives back the items and cells the row was made of, so the rates of a group
 * computed from the rows of its guidelines are those computed from the judgements themselves.
 */
import type { Row } from '../../../pipeline/stage.ts';
import { TASKS, type CellOutcomes, type Item, type Outcome, type Task } from './rates.ts';
import { cellOrder } from './outcomes.ts';

export const GUIDELINE_OUTCOME_COLUMNS = {
  guideline_id: 'VARCHAR',
  region: 'VARCHAR',
  specialty: 'VARCHAR',
  language: 'VARCHAR',
  recommendation_ids: 'VARCHAR[]',
  safety: 'VARCHAR',
  models: 'VARCHAR[]',
  judges: 'VARCHAR[]',
  simulated: 'BOOLEAN[]',
  judge_simulated: 'BOOLEAN[]',
  content_detection: 'VARCHAR[]',
  title_grounding: 'VARCHAR[]',
  adherence: 'VARCHAR[]',
} as const;

const CODE: Record<string, string> = { '1': '1', '0': '0', answer: 'a', server: 's', unscored: 'u' };
const OUTCOME: Record<string, Outcome | undefined> = { '1': 1, '0': 0, a: 'answer', s: 'server', u: 'unscored', '-': undefined };
const byId = (a: Item, b: Item) => (a.recommendation_id < b.recommendation_id ? -1 : a.recommendation_id > b.recommendation_id ? 1 : 0);

/** The rows of these items and cells: one per guideline × (region, specialty, language), in that order. */
export function guidelineOutcomeRows(items: readonly Item[], cells: readonly CellOutcomes[]): Row[] {
  const groups = new Map<string, Item[]>();
  for (const i of [...items].sort(byId)) {
    const key = JSON.stringify([i.guideline_id, i.region, i.specialty, i.language]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(i);
  }
  return [...groups.keys()].sort().map((key) => {
    const list = groups.get(key)!;
    const first = list[0]!;
    const text = (cell: CellOutcomes, t: Task) =>
      list.map((i) => {
        const o = cell.outcomes[t].get(i.recommendation_id);
        return o === undefined ? '-' : CODE[String(o)]!;
      });
    return {
      guideline_id: first.guideline_id,
      region: first.region,
      specialty: first.specialty,
      language: first.language,
      recommendation_ids: list.map((i) => i.recommendation_id),
      safety: list.map((i) => (i.safety_critical === true ? 't' : i.safety_critical === false ? 'f' : '-')).join(''),
      models: cells.map((c) => c.model),
      judges: cells.map((c) => c.judge),
      simulated: cells.map((c) => c.simulated),
      judge_simulated: cells.map((c) => c.judge_simulated),
      ...Object.fromEntries(TASKS.map((t) => [t, cells.map((c) => text(c, t).join(''))])),
    };
  });
}

/** The items and cells of these rows (cells sorted by model, then judge, as cellsOf sorts them). */
export function fromGuidelineOutcomes(rows: readonly Row[]): { items: Item[]; cells: CellOutcomes[] } {
  const items: Item[] = [];
  const cells = new Map<string, CellOutcomes>();
  for (const r of rows) {
    const ids = r.recommendation_ids as string[];
    const safety = String(r.safety);
    ids.forEach((id, k) =>
      items.push({
        recommendation_id: id,
        guideline_id: String(r.guideline_id),
        region: (r.region as string | null) ?? null,
        specialty: (r.specialty as string | null) ?? null,
        language: (r.language as string | null) ?? null,
        safety_critical: safety[k] === 't' ? true : safety[k] === 'f' ? false : null,
      }),
    );
    (r.models as string[]).forEach((model, c) => {
      const judge = (r.judges as string[])[c]!;
      const key = JSON.stringify([model, judge]);
      if (!cells.has(key))
        cells.set(key, {
          model,
          judge,
          simulated: (r.simulated as boolean[])[c] === true,
          judge_simulated: (r.judge_simulated as boolean[])[c] === true,
          outcomes: { content_detection: new Map(), title_grounding: new Map(), adherence: new Map() },
        });
      const cell = cells.get(key)!;
      for (const t of TASKS) {
        const codes = (r[t] as string[])[c]!;
        ids.forEach((id, k) => {
          const o = OUTCOME[codes[k]!];
          if (o !== undefined) (cell.outcomes[t] as Map<string, Outcome>).set(id, o);
        });
      }
    });
  }
  return { items, cells: [...cells.values()].sort(cellOrder) };
}
