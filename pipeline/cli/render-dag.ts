/** The DAG as text, Mermaid or Graphviz dot. Pure: config in, string out. */
import type { ResolvedDag } from '../dag/validate.ts';

export type DagFormat = 'text' | 'mermaid' | 'dot';

export function renderDag(dag: ResolvedDag, format: DagFormat): string {
  const edges = dag.graph
    .edges()
    .map((e) => [e.v, e.w] as const)
    .sort(([a, b], [c, d]) => (a + '\0' + b < c + '\0' + d ? -1 : 1));
  const label = (n: string): string => {
    if (dag.sources.has(n)) return `${n} (source)`;
    const s = dag.stages.get(n)!;
    return s.forEach ? `${n} (per ${s.forEach.input} row${s.forEach.cross ? ` × ${s.forEach.cross.param}` : ''})` : n;
  };
  if (format === 'mermaid') {
    const lines = ['flowchart TD'];
    for (const n of dag.order) lines.push(`  ${n}${dag.sources.has(n) ? `[("${label(n)}")]` : `["${label(n)}"]`}`);
    for (const [a, b] of edges) lines.push(`  ${a} --> ${b}`);
    return lines.join('\n') + '\n';
  }
  if (format === 'dot') {
    const lines = ['digraph cdp {', '  rankdir=TB;'];
    for (const n of dag.order) lines.push(`  "${n}" [label="${label(n)}"${dag.sources.has(n) ? ', shape=cylinder' : ', shape=box'}];`);
    for (const [a, b] of edges) lines.push(`  "${a}" -> "${b}";`);
    lines.push('}');
    return lines.join('\n') + '\n';
  }
  const lines: string[] = [];
  for (const n of dag.order) {
    const preds = (dag.graph.predecessors(n) ?? []).slice().sort();
    lines.push(preds.length ? `${label(n)} ← ${preds.join(', ')}` : label(n));
  }
  return lines.join('\n') + '\n';
}
