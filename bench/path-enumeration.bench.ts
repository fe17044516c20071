// Path enumeration at paper scale: synthetic trees holding 42,353 root-to-leaf paths (the
// paper's count), with lengths like Table 4's. The reference, measured in the same run, is a
// bare recursive enumeration that builds only the list of node indices per path: the ratio is
// what stable content-derived ids, steps and evidence cost on top.
import type { BenchReport } from './report.ts';
import { enumeratePaths } from '../stages/construct/paths.ts';
import type { ReasoningTree, TreeNodeJson } from '../stages/construct/types.ts';
import { createRng } from '../stages/stats/rng.ts';

const TARGET_PATHS = 42_353;

function randomTree(rng: ReturnType<typeof createRng>, leaves: number): ReasoningTree {
  let next = 1;
  const mapping: Record<string, string[]> = {};
  const build = (k: number): TreeNodeJson => {
    const index = next++;
    mapping[String(index)] = [`Guideline sentence supporting node ${index} with a threshold of ${index % 90} mg/dL.`];
    if (k === 1) return { index, leaf: true, conclusion: `Conclusion ${index}: start treatment plan ${index % 7}.` };
    // Uneven splits give the long tail of Table 4 (some paths much longer than the mean).
    const left = 1 + rng.nextInt(k - 1);
    return { index, description: `Is finding ${index} present at or above ${index % 50} units?`, yes: build(left), no: build(k - left) };
  };
  return { primary_clinical_focus: 'management', decision_tree: build(leaves), node_guideline_mapping: mapping };
}

function barePaths(node: TreeNodeJson, prefix: number[], out: number[][]): void {
  if (!node.yes || !node.no) {
    out.push([...prefix, node.index]);
    return;
  }
  prefix.push(node.index);
  barePaths(node.yes, prefix, out);
  barePaths(node.no, prefix, out);
  prefix.pop();
}

export default async function (): Promise<BenchReport> {
  const rng = createRng(42);
  const trees: ReasoningTree[] = [];
  let total = 0;
  // 2,274 guidelines in the paper; leaves per tree drawn so the total is exactly 42,353.
  while (total < TARGET_PATHS) {
    const k = Math.min(TARGET_PATHS - total, 2 + rng.nextInt(34));
    trees.push(randomTree(rng, k));
    total += k;
  }
  const best = (f: () => number): { seconds: number; count: number } => {
    let seconds = Infinity;
    let count = 0;
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now();
      count = f();
      seconds = Math.min(seconds, (performance.now() - t0) / 1000);
    }
    return { seconds, count };
  };
  let lengths = 0;
  const ours = best(() => {
    let n = 0;
    lengths = 0;
    trees.forEach((t, i) => {
      const { cdps } = enumeratePaths(t, { guideline_id: `g${i}`, language: 'en', split: 'test' });
      n += cdps.length;
      for (const c of cdps) lengths += c.length;
    });
    return n;
  });
  const bare = best(() => {
    let n = 0;
    for (const t of trees) {
      const out: number[][] = [];
      barePaths(t.decision_tree, [], out);
      n += out.length;
    }
    return n;
  });
  if (ours.count !== TARGET_PATHS || bare.count !== TARGET_PATHS)
    throw new Error(`expected ${TARGET_PATHS} paths, got ${ours.count} and ${bare.count}`);
  return {
    title: 'Path enumeration: 42,353 paths (paper scale)',
    rows: [
      {
        name: 'enumeratePaths: CDPs with steps, evidence and content ids',
        value: ours.seconds,
        unit: 's',
        reference: { name: 'bare recursive enumeration of node indices', value: bare.seconds },
      },
      { name: 'per path', value: (ours.seconds / TARGET_PATHS) * 1e6, unit: 'µs' },
    ],
    notes: [`${trees.length} synthetic trees, mean path length ${(lengths / TARGET_PATHS).toFixed(2)}; best of 3.`],
  };
}
