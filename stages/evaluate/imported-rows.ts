/**
 * Imported predictions held to the benchmark (issue 20 item 6), for predicted_pathways: what an
 * imported model is ranked on is this run's test set, no more and no less.
 *
 * - A bad line — not a prediction, a case that is no test case of this build, a second
 *   prediction for one case, a model name the run already predicts the case with — is a failure
 *   row: `error` names the file and line, `failure_kind` is 'import'.
 * - A line for a test case this run does not evaluate (left out by QC, or by `--limit`) is
 *   skipped, with a log line: it is neither ranked nor wrong.
 * - A test case an imported (setting, model) has no line for gets a row marked `missing`, which
 *   predicted_pathways turns into a 'missing' failure: the model's means are over every test case.
 */
import type { Row } from '../../pipeline/stage.ts';
import { parseImportedPredictions, problemText, type ImportProblem } from './imported-predictions.ts';

export interface ImportFile {
  file: string;
  text: string;
}

export interface TestSet {
  /** Every case of the build (cdps without failures), by cdp_id. */
  cases: ReadonlyMap<string, Row>;
  /** The test cases this run evaluates (test_cases). */
  testCases: ReadonlySet<string>;
  /** The run's own predictions (predictions_single and dialogues_multi rows). */
  own: { single: readonly Row[]; multi: readonly Row[] };
}

export interface HeldImports {
  /** Rows shaped like predictions_single's and dialogues_multi's, `missing: true` for a test case without a line. */
  single: Row[];
  multi: Row[];
  /** One failure row per bad line. */
  failures: Row[];
}

const keyOf = (setting: string, model: unknown, cdp: unknown) => JSON.stringify([setting, model, cdp]);

function failureRow(p: ImportProblem): Row {
  return {
    setting: p.setting ?? null,
    model: p.model ?? null,
    cdp_id: p.cdp_id ?? null,
    simulated: false,
    failure_kind: 'import',
    error: `imported predictions ${problemText(p)}`,
  };
}

export function heldToTestSet(files: readonly ImportFile[], set: TestSet, log: (m: string) => void): HeldImports {
  const out: HeldImports = { single: [], multi: [], failures: [] };
  const ownKeys = new Set((['single', 'multi'] as const).flatMap((s) => set.own[s].map((r) => keyOf(s, r.model, r.cdp_id))));
  const taken = new Map<string, string>();
  const skipped = new Map<string, number>();
  for (const { file, text } of files) {
    const r = parseImportedPredictions(file, text, set.cases);
    out.failures.push(...r.problems.map(failureRow));
    for (const setting of ['single', 'multi'] as const) {
      r[setting].forEach((row, i) => {
        const line = r.lines[setting][i]!;
        const at = { file, line, setting, model: String(row.model), cdp_id: String(row.cdp_id) };
        const key = keyOf(setting, row.model, row.cdp_id);
        if (ownKeys.has(key)) {
          const message = `${setting}-turn ${at.cdp_id} of model "${at.model}" is already predicted by this run's own model of that name; rename the imported model`;
          return out.failures.push(failureRow({ ...at, message }));
        }
        if (taken.has(key)) {
          const message = `a second ${setting}-turn prediction of model "${at.model}" for ${at.cdp_id} (the first is in ${taken.get(key)}); the first one is kept`;
          return out.failures.push(failureRow({ ...at, message }));
        }
        taken.set(key, `${file}:${line}`);
        if (!set.testCases.has(at.cdp_id)) return skipped.set(file, (skipped.get(file) ?? 0) + 1);
        out[setting].push(row);
      });
    }
  }
  for (const [file, n] of skipped) {
    log(`imported predictions: ${file}: ${n} line(s) for test cases this run does not evaluate (left out by QC or --limit) were skipped`);
  }
  addMissing(out, set);
  return out;
}

/** A `missing` row for every test case an imported (setting, model) has no prediction for. */
function addMissing(out: HeldImports, set: TestSet): void {
  for (const setting of ['single', 'multi'] as const) {
    const covered = new Map<string, Set<string>>();
    for (const r of out[setting]) {
      const model = String(r.model);
      if (!covered.has(model)) covered.set(model, new Set());
      covered.get(model)!.add(String(r.cdp_id));
    }
    for (const [model, ids] of covered) {
      for (const id of [...set.testCases].sort()) {
        if (ids.has(id)) continue;
        const c = set.cases.get(id);
        const empty = setting === 'single' ? { steps: [], parse_ok: true } : { questions: [], turns: [], success: false };
        out[setting].push({
          model,
          cdp_id: id,
          guideline_id: c?.guideline_id,
          language: c?.language,
          outcome: '',
          simulated: false,
          missing: true,
          ...empty,
        });
      }
    }
  }
}
