/** The nodes a run brings up to date: the targets and everything they need (all when none are named). */
import type { ResolvedDag } from '../dag/validate.ts';

export class UnknownStageError extends Error {}

export function selectNodes(dag: ResolvedDag, targets: string[] | undefined): Set<string> {
  if (!targets?.length) return new Set(dag.order);
  const selected = new Set<string>();
  const stack: string[] = [];
  for (const t of targets) {
    if (!dag.graph.hasNode(t)) {
      throw new UnknownStageError(`unknown stage '${t}'; stages are: ${[...dag.stages.keys()].join(', ')}`);
    }
    stack.push(t);
  }
  while (stack.length) {
    const n = stack.pop()!;
    if (selected.has(n)) continue;
    selected.add(n);
    for (const p of dag.graph.predecessors(n) ?? []) stack.push(p);
  }
  return selected;
}
