/**
 * Stage `deviation_profile`: per (setting, model), the true process deviations (omission,
 * redundancy, skipping, reversal; perturb.ts definitions) of the simulated perturbation agents
 * over the pathways they produced, read from their plans (input `agent_plans`, the table of the
 * agent_plans stage), plus how many conclusions were deliberately wrong. For the report's
 * deviation figure.
 *
 * Only perturbation agents have ground truth; real models and other simulated agents are left
 * out (nothing here guesses a deviation from a judge's alignment). A pathway counts when it is
 * usable and is exactly its agent's plan (agent-plans.ts); `cases` is how many did.
 */
import { tableStage, type Row } from '../../pipeline/stage.ts';
import { planIndex, planMismatch, planOf } from './agent-plans.ts';

export function deviationProfile(pathways: readonly Row[], plans: readonly Row[]): Row[] {
  const index = planIndex(plans);
  const acc = new Map<
    string,
    Row & { cases: number; omission: number; redundancy: number; skipping: number; reversal: number; wrong_outcomes: number }
  >();
  for (const p of pathways) {
    if (p.usable !== true) continue;
    const plan = planOf(index, String(p.model), String(p.cdp_id));
    if (!plan || planMismatch(plan, String(p.setting), (p.candidate as string[]) ?? [])) continue;
    const key = JSON.stringify([p.setting, p.model]);
    let a = acc.get(key);
    if (!a)
      acc.set(
        key,
        (a = {
          setting: p.setting,
          model: p.model,
          source: 'simulated-plan',
          cases: 0,
          omission: 0,
          redundancy: 0,
          skipping: 0,
          reversal: 0,
          wrong_outcomes: 0,
        }),
      );
    const c = plan.deviations;
    a.cases++;
    a.omission += c.omission;
    a.redundancy += c.redundancy;
    a.skipping += c.skipping;
    a.reversal += c.reversal;
    if (plan.wrongOutcome) a.wrong_outcomes++;
  }
  return [...acc.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, a]) => ({ ...a, total: a.omission + a.redundancy + a.skipping + a.reversal }));
}

export default tableStage({
  inputs: { predicted_pathways: 'whole', agent_plans: 'whole' },
  params: {},
  reads: { predicted_pathways: ['setting', 'model', 'cdp_id', 'usable', 'candidate'] },
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
  run({ predicted_pathways, agent_plans }) {
    return deviationProfile(predicted_pathways, agent_plans);
  },
});
