/**
 * Stage `deviation_profile`: per (setting, model), the true process deviations (omission,
 * redundancy, skipping, reversal) of the simulated perturbation agents over the pathways they
 * produced, summed from the `true_deviations` rows (one per pathway that is exactly its agent's
 * plan), plus how many conclusions were deliberately wrong. For the report's deviation figure.
 *
 * Only perturbation agents have ground truth; real models and other simulated agents have no
 * rows there (nothing here guesses a deviation from a judge's alignment). `cases` is how many
 * pathways counted.
 */
import { tableStage, type Row } from '../../pipeline/stage.ts';

const COUNTS = ['omission', 'redundancy', 'skipping', 'reversal'] as const;

export function deviationProfile(deviations: readonly Row[]): Row[] {
  const acc = new Map<string, Row & Record<(typeof COUNTS)[number] | 'cases' | 'wrong_outcomes', number>>();
  for (const d of deviations) {
    const key = JSON.stringify([d.setting, d.model]);
    let a = acc.get(key);
    if (!a) {
      a = {
        setting: d.setting,
        model: d.model,
        source: 'simulated-plan',
        cases: 0,
        omission: 0,
        redundancy: 0,
        skipping: 0,
        reversal: 0,
        wrong_outcomes: 0,
      };
      acc.set(key, a);
    }
    a.cases++;
    for (const c of COUNTS) a[c] += Number(d[c]);
    if (d.wrong_outcome === true) a.wrong_outcomes++;
  }
  return [...acc.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, a]) => ({ ...a, total: a.omission + a.redundancy + a.skipping + a.reversal }));
}

export default tableStage({
  inputs: { true_deviations: 'whole' },
  params: {},
  reads: { true_deviations: ['setting', 'model', ...COUNTS, 'wrong_outcome'] },
  columns: {
    setting: 'VARCHAR',
    model: 'VARCHAR',
    source: 'VARCHAR',
    cases: 'INTEGER',
    omission: 'INTEGER',
    redundancy: 'INTEGER',
    skipping: 'INTEGER',
    reversal: 'INTEGER',
    total: 'INTEGER',
    wrong_outcomes: 'INTEGER',
  },
  run({ true_deviations }) {
    return deviationProfile(true_deviations);
  },
});
