/**
 * A deterministic corpus of the paper's shape for the scale benchmark: guidelines in English and
 * Chinese as Markdown, each with a reasoning tree in Prompt 1's format whose every node quotes a
 * sentence of its guideline, and a guidelines.csv pinning the paper's 440 test guidelines (230 en,
 * 210 zh). At fraction 1 the trees have exactly the paper's path counts — 7,458 test CDPs and
 * 34,895 non-test (42,353) — and their path lengths follow Table 4 split by split (see SHAPES).
 *
 * Every test CDP must survive QC, since test cases are the test CDPs QC does not flag: an earlier
 * version wrote every English condition as "Does the patient meet criterion N?", which differ only
 * in a number QC's content-word match ignores, so a "did not meet criterion 7" sentence matched the
 * yes step "criterion 3" and QC flagged the case (polarity) — 4 in 10 test CDPs, nearly every
 * English path with a "no" step. Now each decision node of a guideline asks about its own finding
 * (two content words no other node of the guideline shares), as real guidelines do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type Split = 'test' | 'non-test';
type Language = 'en' | 'zh';

/**
 * The paper's counts (§3.1, §4.1). The share of Chinese guidelines over the whole corpus is not
 * published; 1,100 of 2,274 is our assumption (the test set's is 210 of 440).
 */
export const PAPER = { guidelines: 2274, cdps: 42353, testCases: 7458, testEn: 230, testZh: 210, zh: 1100 };

/** Table 4 (Appendix C): CDP length statistics per split. */
export const TABLE4: Record<'full' | Split, Record<'mean' | 'sd' | 'min' | 'p5' | 'p25' | 'median' | 'p75' | 'p95' | 'max', number>> = {
  full: { mean: 6.51, sd: 3.74, min: 1, p5: 2, p25: 4, median: 6, p75: 8, p95: 13, max: 62 },
  test: { mean: 6.12, sd: 3.18, min: 1, p5: 2, p25: 4, median: 6, p75: 8, p95: 12, max: 31 },
  'non-test': { mean: 6.59, sd: 3.84, min: 1, p5: 2, p25: 4, median: 6, p75: 8, p95: 13, max: 62 },
};

/**
 * How a split's trees grow. A tree of L leaves (L paths) is split recursively: with probability
 * `spine` (`bigSpine` in trees of at least `bigLo` leaves, which make the long tail) the smaller
 * side gets a share in [spineLo, spineLo + spineSpan) of the leaves (a long chain of decisions
 * with a branch off each), otherwise [bushLo, bushLo + bushSpan) (a bushy subtree). Leaf counts
 * are drawn per guideline — `bigShare` of them in [bigLo, bigLo + bigSpan),
 * the others in [smallLo, smallLo + smallSpan) — then nudged to the split's exact total. Tuned by
 * simulation against Table 4 (mean, SD and quantiles); the split's longest path is planted as
 * one chain of Table 4's max decisions, and no other tree may exceed it.
 */
export interface TreeShape {
  spine: number;
  bigSpine: number;
  spineLo: number;
  spineSpan: number;
  bushLo: number;
  bushSpan: number;
  bigShare: number;
  bigLo: number;
  bigSpan: number;
  smallLo: number;
  smallSpan: number;
}

export const SHAPES: Record<Split, TreeShape> = {
  test: {
    spine: 0.66,
    bigSpine: 0.66,
    spineLo: 0.033,
    spineSpan: 0.081,
    bushLo: 0.37,
    bushSpan: 0.239,
    bigShare: 0.03,
    bigLo: 47,
    bigSpan: 62,
    smallLo: 6,
    smallSpan: 21,
  },
  'non-test': {
    spine: 0.698,
    bigSpine: 0.845,
    spineLo: 0.033,
    spineSpan: 0.104,
    bushLo: 0.419,
    bushSpan: 0.273,
    bigShare: 0.036,
    bigLo: 37,
    bigSpan: 59,
    smallLo: 7,
    smallSpan: 19,
  },
};

/** The English conditions' vocabulary: 16 × 16 findings, no two sharing a word or a 5-letter stem. */
const QUALIFIERS = [
  'persistent',
  'recurrent',
  'progressive',
  'nocturnal',
  'exertional',
  'bilateral',
  'unilateral',
  'postprandial',
  'intermittent',
  'refractory',
  'sudden',
  'chronic',
  'painful',
  'diffuse',
  'focal',
  'episodic',
];
const FINDINGS = [
  'wheeze',
  'palpitations',
  'syncope',
  'haematuria',
  'proteinuria',
  'jaundice',
  'pruritus',
  'tremor',
  'vertigo',
  'dysphagia',
  'arthralgia',
  'myalgia',
  'diarrhoea',
  'constipation',
  'insomnia',
  'tinnitus',
];
/** A tree's decision nodes must each have their own finding. */
export const MAX_LEAVES = QUALIFIERS.length * FINDINGS.length;

/** Finding i of a guideline (i < 256): distinct for distinct i. */
function finding(i: number): string {
  return `${QUALIFIERS[i % 16]} ${FINDINGS[(i + Math.floor(i / 16)) % 16]}`;
}

const TOPICS_EN = [
  'fever',
  'cough',
  'pain',
  'rash',
  'fatigue',
  'dyspnoea',
  'oedema',
  'nausea',
  'headache',
  'dizziness',
  'anaemia',
  'hypertension',
];
const TOPICS_ZH = ['发热', '咳嗽', '疼痛', '皮疹', '乏力', '呼吸困难', '水肿', '恶心', '头痛', '眩晕', '贫血', '高血压'];

/** A small deterministic PRNG (mulberry32), so a corpus is the same on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface TreeNode {
  index: number;
  description?: string;
  conclusion?: string;
  leaf?: boolean;
  yes?: TreeNode;
  no?: TreeNode;
}

/** The depths of a tree's leaves, nested as the tree is (a leaf is a number). */
export type Shape = number | [Shape, Shape];

/** A random tree of `leaves` leaves (`leaves` ≥ 1), as nested pairs, leaves left to right. */
export function growShape(leaves: number, shape: TreeShape, spine: number, rand: () => number): Shape {
  if (leaves <= 1) return 0;
  const share = rand() < spine ? shape.spineLo + rand() * shape.spineSpan : shape.bushLo + rand() * shape.bushSpan;
  const small = Math.max(1, Math.min(leaves - 1, Math.round(leaves * share)));
  const pair: [Shape, Shape] = [growShape(small, shape, spine, rand), growShape(leaves - small, shape, spine, rand)];
  // Either branch may be the short one, so spines run down yes and no branches alike.
  return rand() < 0.5 ? pair : [pair[1], pair[0]];
}

/** The length (decisions) of every path of a shape, in leaf order. */
export function pathLengths(s: Shape, depth = 0, out: number[] = []): number[] {
  if (typeof s === 'number') out.push(depth);
  else for (const c of s) pathLengths(c, depth + 1, out);
  return out;
}

/** A chain of `decisions` decision nodes, each with one leaf off it: paths of length 1 … decisions. */
export function chainShape(decisions: number): Shape {
  return decisions === 0 ? 0 : [0, chainShape(decisions - 1)];
}

/** A random tree no deeper than `maxDepth`, drawn again (from the same stream) until one is. */
export function boundedShape(leaves: number, shape: TreeShape, maxDepth: number, rand: () => number): Shape {
  const spine = leaves >= shape.bigLo ? shape.bigSpine : shape.spine;
  for (;;) {
    const s = growShape(leaves, shape, spine, rand);
    if (Math.max(...pathLengths(s)) <= maxDepth) return s;
  }
}

/**
 * Leaf counts of `count` trees summing to `total`: drawn by the shape, then moved one leaf at a
 * time (a random tree each time, within 2 … MAX_LEAVES) until they sum to the total.
 */
export function leafCounts(count: number, total: number, shape: TreeShape, rand: () => number): number[] {
  if (total < 2 * count || total > MAX_LEAVES * count)
    throw new RangeError(`leafCounts: ${count} trees cannot have ${total} leaves in all`);
  const counts = Array.from({ length: count }, () =>
    Math.min(
      MAX_LEAVES,
      rand() < shape.bigShare ? shape.bigLo + Math.floor(rand() * shape.bigSpan) : shape.smallLo + Math.floor(rand() * shape.smallSpan),
    ),
  );
  let sum = counts.reduce((a, b) => a + b, 0);
  while (sum !== total) {
    const i = Math.floor(rand() * count);
    const d = sum < total ? 1 : -1;
    if (counts[i]! + d < 2 || counts[i]! + d > MAX_LEAVES) continue;
    counts[i]! += d;
    sum += d;
  }
  return counts;
}

/**
 * The shapes of one split's trees: `count` trees with `total` paths, the last a planted chain of
 * Table 4's longest path when its paths are at most 1 % of the split's (from a fraction of 0.43
 * for the test split, 0.18 for the other): in a smaller corpus the chain would distort the
 * distribution, and a sample's longest path is shorter than the population's anyway.
 */
export function splitShapes(split: Split, count: number, total: number, rand: () => number): Shape[] {
  if (count === 0) return [];
  const longest = TABLE4[split].max;
  const plant = count >= 2 && total >= 100 * (longest + 1);
  const counts = leafCounts(plant ? count - 1 : count, plant ? total - (longest + 1) : total, SHAPES[split], rand);
  const shapes = counts.map((n) => boundedShape(n, SHAPES[split], longest, rand));
  return plant ? [...shapes, chainShape(longest)] : shapes;
}

interface GuidelineText {
  id: string;
  language: Language;
  title: string;
  markdown: string;
  tree: { primary_clinical_focus: 'management'; decision_tree: TreeNode; node_guideline_mapping: Record<string, string[]> };
}

/** A guideline's Markdown and tree for a shape: one recommendation sentence per node, quoted as its evidence. */
export function guidelineText(g: number, id: string, language: Language, shape: Shape): GuidelineText {
  const zh = language === 'zh';
  const topic = (zh ? TOPICS_ZH : TOPICS_EN)[g % 12]!;
  const sentences: string[] = [];
  const mapping: Record<string, string[]> = {};
  let next = 1;
  let decisions = 0;
  const build = (s: Shape): TreeNode => {
    const index = next++;
    const k = `${zh ? '建议' : 'Recommendation'} ${g}.${index}`;
    if (typeof s === 'number') {
      const text = zh
        ? `${k}：${topic}患者应接受第${index}号治疗方案。`
        : `${k}: patients with ${topic} should receive treatment plan ${index}.`;
      sentences.push(text);
      mapping[index] = [text];
      return { index, leaf: true, conclusion: zh ? `采用第${index}号治疗方案。` : `Use treatment plan ${index}.` };
    }
    const f = finding(decisions++);
    const text = zh ? `${k}：应评估${topic}患者是否存在第${index}项指征。` : `${k}: assess whether the patient with ${topic} has ${f}.`;
    sentences.push(text);
    mapping[index] = [text];
    const node: TreeNode = { index, description: zh ? `患者是否符合第${index}项指征？` : `Does the patient have ${f}?` };
    node.yes = build(s[0]);
    node.no = build(s[1]);
    return node;
  };
  const decision_tree = build(shape);
  const title = zh ? `${topic}诊疗指南 ${g}` : `Guideline ${g} on ${topic}`;
  return {
    id,
    language,
    title,
    markdown: `# ${title}\n\n${sentences.join('\n\n')}\n`,
    tree: { primary_clinical_focus: 'management', decision_tree, node_guideline_mapping: mapping },
  };
}

export interface PlannedGuideline {
  id: string;
  language: Language;
  split: Split;
}

/** The corpus's guidelines at `fraction` of the paper's size: Chinese first, each language's first ones test. */
export function planGuidelines(fraction: number): PlannedGuideline[] {
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`the scale corpus's fraction must be in (0, 1], got ${fraction}`);
  const n = Math.max(2, Math.round(PAPER.guidelines * fraction));
  const nZh = Math.round((n * PAPER.zh) / PAPER.guidelines);
  const testZh = Math.min(nZh, Math.round(PAPER.testZh * fraction));
  const testEn = Math.min(n - nZh, Math.round(PAPER.testEn * fraction));
  return Array.from({ length: n }, (_, g) => {
    const language: Language = g < nZh ? 'zh' : 'en';
    const test = language === 'zh' ? g < testZh : g - nZh < testEn;
    return { id: `${language}-${String(g).padStart(5, '0')}`, language, split: test ? 'test' : 'non-test' };
  });
}

export interface ScaleCorpus {
  dir: string;
  guidelines: number;
  /** Test guidelines (pinned in guidelines.csv). */
  test: number;
  cdps: number;
  /** Path lengths of each split, for comparing with Table 4. */
  lengths: Record<Split, number[]>;
  /** Guidelines and CDPs per language and split. */
  byLanguage: Record<Language, Record<Split, { guidelines: number; cdps: number }>>;
}

/** The generated guidelines with their splits and trees, without writing them anywhere. */
export function generateScaleCorpus(fraction = 1, seed = 14): Array<GuidelineText & { split: Split; lengths: number[] }> {
  const rand = rng(seed);
  const plan = planGuidelines(fraction);
  const shapes: Record<Split, Shape[]> = { test: [], 'non-test': [] };
  for (const split of ['test', 'non-test'] as const) {
    const count = plan.filter((g) => g.split === split).length;
    const paperTotal = split === 'test' ? PAPER.testCases : PAPER.cdps - PAPER.testCases;
    shapes[split] = splitShapes(split, count, Math.max(2 * count, Math.round(paperTotal * fraction)), rand);
  }
  const next: Record<Split, number> = { test: 0, 'non-test': 0 };
  return plan.map((p, g) => {
    const shape = shapes[p.split][next[p.split]++]!;
    return { ...guidelineText(g, p.id, p.language, shape), split: p.split, lengths: pathLengths(shape) };
  });
}

/**
 * Writes the corpus at `fraction` of the paper's size (1 = 2,274 guidelines) into `dir`; returns
 * its counts and every path length.
 */
export function writeScaleCorpus(dir: string, fraction = 1, seed = 14): ScaleCorpus {
  mkdirSync(join(dir, 'guidelines'), { recursive: true });
  mkdirSync(join(dir, 'trees'), { recursive: true });
  const csv = ['guideline_id,language,title,split,year,source'];
  const lengths: Record<Split, number[]> = { test: [], 'non-test': [] };
  const zero = () => ({ test: { guidelines: 0, cdps: 0 }, 'non-test': { guidelines: 0, cdps: 0 } });
  const byLanguage = { en: zero(), zh: zero() };
  const guidelines = generateScaleCorpus(fraction, seed);
  guidelines.forEach((g, i) => {
    writeFileSync(join(dir, 'guidelines', `${g.id}.md`), g.markdown);
    writeFileSync(join(dir, 'trees', `${g.id}.json`), JSON.stringify(g.tree));
    csv.push(`${g.id},${g.language},${g.title},${g.split},${2000 + (i % 25)},synthetic`);
    lengths[g.split].push(...g.lengths);
    byLanguage[g.language][g.split].guidelines++;
    byLanguage[g.language][g.split].cdps += g.lengths.length;
  });
  writeFileSync(join(dir, 'guidelines.csv'), csv.join('\n') + '\n');
  const test = guidelines.filter((g) => g.split === 'test').length;
  return { dir, guidelines: guidelines.length, test, cdps: lengths.test.length + lengths['non-test'].length, lengths, byLanguage };
}
