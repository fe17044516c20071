/**
 * A deterministic corpus of the paper's shape for the scale benchmark: guidelines in English and
 * Chinese as Markdown, each with a reasoning tree in Prompt 1's format whose every node quotes a
 * sentence of its guideline, and a guidelines.csv pinning the paper's 440 test guidelines (230 en,
 * 210 zh). Trees are random binary trees (uniform splits of a leaf budget drawn per guideline),
 * tuned so that root-to-leaf path lengths follow Table 4 (mean ≈ 6.5, median 6, long tail) and
 * there are ≈ 18.6 paths per guideline (42,353 / 2,274).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PAPER = { guidelines: 2274, cdps: 42353, testEn: 230, testZh: 210, zh: 1100 };

/** A small deterministic PRNG (mulberry32), so a corpus is the same on every machine. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EN = [
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
const ZH = ['发热', '咳嗽', '疼痛', '皮疹', '乏力', '呼吸困难', '水肿', '恶心', '头痛', '眩晕', '贫血', '高血压'];

interface TreeNode {
  index: number;
  description?: string;
  conclusion?: string;
  leaf?: boolean;
  yes?: TreeNode;
  no?: TreeNode;
}

export interface ScaleCorpus {
  dir: string;
  guidelines: number;
  cdps: number;
  test: number;
  lengths: number[];
}

/**
 * Writes the corpus at `fraction` of the paper's size (1 = 2,274 guidelines) into `dir`; returns
 * its counts and every path length, for comparing with Table 4.
 */
export function writeScaleCorpus(dir: string, fraction = 1, seed = 14): ScaleCorpus {
  const rand = rng(seed);
  mkdirSync(join(dir, 'guidelines'), { recursive: true });
  mkdirSync(join(dir, 'trees'), { recursive: true });
  const n = Math.max(2, Math.round(PAPER.guidelines * fraction));
  const nZh = Math.round((n * PAPER.zh) / PAPER.guidelines);
  const testEn = Math.round(PAPER.testEn * fraction);
  const testZh = Math.round(PAPER.testZh * fraction);
  const csv = ['guideline_id,language,title,split,year,source'];
  const lengths: number[] = [];
  let test = 0;
  for (let g = 0; g < n; g++) {
    const zh = g < nZh;
    const id = `${zh ? 'zh' : 'en'}-${String(g).padStart(5, '0')}`;
    const words = zh ? ZH : EN;
    const topic = words[g % words.length];
    const sentences: string[] = [];
    const mapping: Record<string, string[]> = {};
    let next = 1;
    // Leaf budgets: mostly around the paper's mean, a few large trees for the tail.
    const leaves = rand() < 0.04 ? 40 + Math.floor(rand() * 60) : 6 + Math.floor(rand() * 22);
    const build = (budget: number, depth: number): TreeNode => {
      const index = next++;
      const k = `${zh ? '建议' : 'Recommendation'} ${g}.${index}`;
      if (budget <= 1) {
        const s = zh
          ? `${k}：${topic}患者应接受第${index}号治疗方案。`
          : `${k}: patients with ${topic} should receive treatment plan ${index}.`;
        sentences.push(s);
        mapping[index] = [s];
        lengths.push(depth);
        return { index, leaf: true, conclusion: zh ? `采用第${index}号治疗方案。` : `Use treatment plan ${index}.` };
      }
      const s = zh
        ? `${k}：应评估${topic}患者是否存在第${index}项指征。`
        : `${k}: assess whether the patient with ${topic} meets criterion ${index}.`;
      sentences.push(s);
      mapping[index] = [s];
      // A skewed split: a uniform one gives paths too short for Table 4's mean at this budget.
      const left = Math.max(1, Math.min(budget - 1, Math.round(budget * (rand() < 0.72 ? 0.03 + rand() * 0.1 : 0.4 + rand() * 0.3))));
      const node: TreeNode = { index, description: zh ? `患者是否符合第${index}项指征？` : `Does the patient meet criterion ${index}?` };
      node.yes = build(left, depth + 1);
      node.no = build(budget - left, depth + 1);
      return node;
    };
    const tree = { primary_clinical_focus: 'management', decision_tree: build(leaves, 0), node_guideline_mapping: mapping };
    const title = zh ? `${topic}诊疗指南 ${g}` : `Guideline ${g} on ${topic}`;
    writeFileSync(join(dir, 'guidelines', `${id}.md`), `# ${title}\n\n${sentences.join('\n\n')}\n`);
    writeFileSync(join(dir, 'trees', `${id}.json`), JSON.stringify(tree));
    const isTest = zh ? g < testZh : g - nZh < testEn;
    if (isTest) test++;
    csv.push(`${id},${zh ? 'zh' : 'en'},${title},${isTest ? 'test' : 'non-test'},${2000 + (g % 25)},synthetic`);
  }
  writeFileSync(join(dir, 'guidelines.csv'), csv.join('\n') + '\n');
  return { dir, guidelines: n, cdps: lengths.length, test, lengths };
}

/** Mean, median, P95 and max of path lengths, as Table 4 reports them. */
export function lengthStats(lengths: readonly number[]): { mean: number; median: number; p95: number; max: number } {
  const s = [...lengths].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, median: q(0.5), p95: q(0.95), max: s[s.length - 1] };
}
