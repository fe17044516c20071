/** `cdp explain <stage>`: the components of a stage's key, their hashes, and how they compare with the last run. */
import type { Project } from './load.ts';
import { runDag } from '../exec/executor.ts';
import { StatCache } from '../hash/stat-cache.ts';
import { CodeHasher } from '../hash/code-identity.ts';
import { readLedger } from '../store/ledger.ts';
import { stageComponents, keyOf, explainStaleness } from '../exec/keys.ts';

export async function explainStage(project: Project, name: string): Promise<string> {
  const { dag, ws } = project;
  const stage = dag.stages.get(name);
  if (!stage) throw new Error(`unknown stage '${name}'; stages are: ${[...dag.stages.keys()].join(', ')}`);
  // Input hashes come from what upstream would produce now: fresh upstreams give their
  // artifact hash; stale ones are marked, since their output is not known until they run.
  const plan = await runDag(dag, ws, { targets: [name], dryRun: true });
  const ledger = readLedger(ws.ledger);
  const stale = new Set(plan.stages.filter((s) => s.status === 'would-run').map((s) => s.stage));
  const inputs: Record<string, { from: string; hash: string }> = {};
  for (const [local, from] of Object.entries(stage.decl.inputs ?? {})) {
    inputs[local] = { from, hash: stale.has(from) ? '(will change: upstream is stale)' : (ledger.entries[from]?.artifact ?? '(missing)') };
  }
  const stat = new StatCache(ws.statCache);
  const c = stageComponents(stage, new CodeHasher(dag.root, stat), inputs);
  const key = keyOf(c);
  const prev = ledger.entries[name];
  const lines = [`stage ${name}`, `  key      ${key}${prev?.key === key ? '  (matches the last run)' : ''}`];
  lines.push(`  code     ${c.code.hash}`);
  for (const [f, h] of Object.entries(c.code.files)) lines.push(`    ${h.slice(0, 16)}  ${f}`);
  for (const [p, v] of Object.entries(c.code.packages)) lines.push(`    package ${p}@${v}`);
  lines.push(`  params   ${c.params.hash}`, `    ${JSON.stringify(c.params.value)}`);
  if (c.cross) {
    lines.push(`  crossed  ${c.cross.hash}  (param '${c.cross.param}': one unit per element; each unit is keyed by its own)`);
    lines.push(`    ${JSON.stringify(c.cross.value)}`);
  }
  lines.push(`  inputs`);
  for (const [l, i] of Object.entries(c.inputs)) lines.push(`    ${l} ← ${i.from}: ${i.hash}`);
  lines.push(`  shape    ${c.shape}`);
  lines.push(`  last run ${prev ? `${prev.finishedAt}, artifact ${prev.artifact}, ${prev.rows} rows` : 'never'}`);
  if (prev?.key !== key) lines.push(`  stale because: ${explainStaleness(c, prev).join('; ')}`);
  return lines.join('\n') + '\n';
}
