/**
 * Who produced a run, as data (the `run_facts` stage): the corpus (its directory, and whether
 * it is the bundled sample, from the wiring), how many guidelines and cases it gave, who built
 * the benchmark (the trees' builder or imported trees, the vignette and narrative writers, the
 * QC inspector) and which models played which role (evaluated, imported, patient, judges),
 * each read from the rows they produced; whether one is a simulated stand-in comes from its rows'
 * flag (`simulated`, `judge_simulated`, `patient_simulated`) or, for the writers, whose rows carry
 * none (and rows from before a flag existed), from the wiring's roster values. `producedBy` and `factLines` write the sentences the
 * reports print about it; nothing of it is a report param. Pure.
 */
import type { Row } from '../../pipeline/stage.ts';
import { orderModels } from './summary-rows.ts';

export type FactKind =
  | 'corpus'
  | 'guidelines'
  | 'tree builder'
  | 'vignette writer'
  | 'narrative writer'
  | 'QC inspector'
  | 'evaluated model'
  | 'patient'
  | 'judge'
  | 'test split cases'
  | 'evaluated cases';

export type FactRow = {
  fact: FactKind;
  /** The model, writer or directory; null for a count. */
  name: string | null;
  simulated: boolean | null;
  /** corpus: 'bundled sample'; evaluated model: 'imported'; judge: its kind (llm, similarity). */
  detail: string | null;
  /** Rows it produced (trees, cases, dialogues, judged pathways), or the count itself. */
  count: number;
};

export const FACT_COLUMNS = { fact: 'VARCHAR', name: 'VARCHAR', simulated: 'BOOLEAN', detail: 'VARCHAR', count: 'INTEGER' } as const;

/** The columns run_facts reads of each input (table stages have no error column). */
export const FACT_READS: Record<string, string[]> = {
  guidelines: ['guideline_id', 'error'],
  trees: ['builder', 'error'],
  vignettes: ['generator', 'error'],
  narratives: ['generator', 'error'],
  qc_inspection: ['inspector', 'error'],
  predictions_single: ['model', 'simulated'],
  dialogues_multi: ['model', 'patient', 'simulated', 'patient_simulated'],
  predicted_pathways: ['model', 'simulated'],
  step_scores: ['judge', 'judge_kind', 'judge_simulated'],
  cdps: ['split'],
  test_cases: ['split'],
};

export interface CorpusFact {
  /** The corpus directory as the wiring names it (relative to the project when inside it). */
  dir: string;
  /** The bundled sample (data/sample). */
  bundled: boolean;
}

/** A model the wiring knows, with whether it is an offline stand-in (its roster value's flag). */
export interface KnownModel {
  name: string;
  simulated: boolean;
}

function tally(rows: readonly Row[] | undefined, column: string, ok: (r: Row) => boolean = () => true): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows ?? []) {
    if (!ok(r) || r[column] == null) continue;
    m.set(String(r[column]), (m.get(String(r[column])) ?? 0) + 1);
  }
  return m;
}

/** Each name's simulated flag: its rows' own where they carry one (`flag` column), else the wiring's, else unknown (null). */
function flags(known: readonly KnownModel[]) {
  const fromRows = new Map<string, boolean>();
  const wiring = new Map(known.map((k) => [k.name, k.simulated]));
  return {
    read(rows: readonly Row[] | undefined, name: string, flag: string) {
      for (const r of rows ?? []) {
        if (typeof r[flag] !== 'boolean') continue;
        const n = String(r[name]);
        fromRows.set(n, fromRows.get(n) === true || r[flag] === true);
      }
    },
    of: (name: string): boolean | null => fromRows.get(name) ?? wiring.get(name) ?? null,
  };
}

export function collectFacts(
  inputs: Record<string, readonly Row[] | undefined>,
  corpus: CorpusFact,
  known: readonly KnownModel[] = [],
): FactRow[] {
  const ok = (r: Row) => r.error == null;
  const count = (fact: FactKind, n: number): FactRow => ({ fact, name: null, simulated: null, detail: null, count: n });
  const simulated = flags(known);
  for (const rows of [inputs.predicted_pathways, inputs.predictions_single, inputs.dialogues_multi])
    simulated.read(rows, 'model', 'simulated');
  simulated.read(inputs.step_scores, 'judge', 'judge_simulated');
  simulated.read(inputs.dialogues_multi, 'patient', 'patient_simulated');
  const named = (fact: FactKind, counts: Map<string, number>, detail: (n: string) => string | null = () => null): FactRow[] =>
    [...counts].map(([name, n]) => ({ fact, name, simulated: simulated.of(name), detail: detail(name), count: n }));
  const guidelines = (inputs.guidelines ?? []).filter(ok).length;
  const ran = new Set([...tally(inputs.predictions_single, 'model').keys(), ...tally(inputs.dialogues_multi, 'model').keys()]);
  const evaluated = tally(inputs.predicted_pathways, 'model');
  for (const m of ran) if (!evaluated.has(m)) evaluated.set(m, 0);
  const kinds = new Map((inputs.step_scores ?? []).map((r) => [String(r.judge), r.judge_kind == null ? null : String(r.judge_kind)]));
  return [
    { fact: 'corpus', name: corpus.dir, simulated: null, detail: corpus.bundled ? 'bundled sample' : null, count: guidelines },
    count('guidelines', guidelines),
    // 'imported' is no model: the corpus's own trees.
    ...named('tree builder', tally(inputs.trees, 'builder', ok)).map((f) => (f.name === 'imported' ? { ...f, simulated: false } : f)),
    ...named('vignette writer', tally(inputs.vignettes, 'generator', ok)),
    ...named('narrative writer', tally(inputs.narratives, 'generator', ok)),
    ...named('QC inspector', tally(inputs.qc_inspection, 'inspector')),
    ...named('evaluated model', evaluated, (m) => (ran.has(m) ? null : 'imported')),
    ...named('patient', tally(inputs.dialogues_multi, 'patient')),
    ...named('judge', tally(inputs.step_scores, 'judge'), (j) => kinds.get(j) ?? null),
    count('test split cases', (inputs.cdps ?? []).filter((r) => r.split === 'test').length),
    count('evaluated cases', (inputs.test_cases ?? []).filter((r) => r.split === 'test').length),
  ];
}

/** The run_facts rows as the reports read them. */
export class RunFacts {
  readonly rows: FactRow[];
  constructor(rows: readonly Row[]) {
    this.rows = rows.map((r) => ({
      fact: String(r.fact) as FactKind,
      name: r.name == null ? null : String(r.name),
      simulated: r.simulated == null ? null : r.simulated === true,
      detail: r.detail == null ? null : String(r.detail),
      count: Number(r.count ?? 0),
    }));
  }
  of(fact: FactKind): FactRow[] {
    return this.rows.filter((r) => r.fact === fact);
  }
  count(fact: FactKind): number | null {
    const r = this.of(fact)[0];
    return r ? r.count : null;
  }
  get corpus(): FactRow | undefined {
    return this.of('corpus')[0];
  }
  /** Evaluated models (imported ones included), in the reports' order (the paper's, then by name). */
  private get models(): string[] {
    return orderModels(this.of('evaluated model').map((f) => ({ model: f.name!, simulated: f.simulated === true })));
  }
  /** Evaluated models that are not simulated stand-ins. */
  get realModels(): string[] {
    const sim = new Set(this.simulatedNames);
    return this.models.filter((m) => !sim.has(m));
  }
  get simulatedModels(): string[] {
    const sim = new Set(this.simulatedNames);
    return this.models.filter((m) => sim.has(m));
  }
  private get simulatedNames(): string[] {
    return this.of('evaluated model')
      .filter((f) => f.simulated === true)
      .map((f) => f.name!);
  }
  /** Every evaluated model is a simulated stand-in (and there is at least one). */
  get simulatedOnly(): boolean {
    return this.of('evaluated model').length > 0 && this.realModels.length === 0;
  }
}
