/**
 * Deterministic consistency checks between a guideline's tree, one CDP, its vignette and its
 * reasoning narrative: the mechanical half of the paper's data-quality control (§3.1), run on
 * every instance, whatever wrote the vignette (the offline writer or an LLM). The other half,
 * LLM-based inspection of a sample, is chosen by `qc-sampler.ts`.
 *
 * What is checked, and how (documented heuristics):
 * - cdp: conditions non-empty; `length` equals the number of steps; numeric thresholds along
 *   the path are not contradictory (the chooser's interval intersection is non-empty); with the
 *   tree given, every step is a non-leaf node with the same text and the path follows the
 *   stated branches to a leaf with the same conclusion.
 * - vignette, numeric steps: the vignette's number for the indicator (the first number with a
 *   compatible unit after the indicator is named in a sentence that names it; for ages, the
 *   first number with an age unit) lies inside the step's interval for yes, outside for no.
 *   "A/B" pairs follow the clinical reading: "≥ A/B" holds when either value reaches its
 *   threshold, "< A/B" when both do. A numeric step whose number cannot be found is reported.
 * - vignette, other steps: at least half the condition's content words (Chinese: character
 *   pairs) appear; the clause that best matches the step carries a negation cue exactly when
 *   the outcome (combined with any negation in the condition itself) is negative.
 * - vignette: no step labels or pathway language; no gendered pronouns; the last sentence names
 *   the clinical focus.
 * - vignette and narrative: no preamble, reasoning block or meta-commentary left in the text
 *   (qc-preamble.ts).
 * - narrative: steps + 1 statements.
 */
import { chooseValues } from './numeric-chooser.ts';
import { complementSet, containsValue, formatSet, intersectSets, unionSets, type Interval } from './numeric-interval.ts';
import { indicatorWordsEn, parseChineseNumeral, type Threshold } from './numeric-threshold.ts';
import { convert, matchUnit, NO_UNIT, type UnitInfo } from './numeric-units.ts';
import type { Cdp, ClinicalFocus, TreeNodeRow } from './types.ts';
import { cleanConditions, isChinese } from './case-conditions.ts';
import { metaCommentary } from './qc-preamble.ts';

export type QcKind =
  | 'empty-condition'
  | 'cdp-length'
  | 'contradictory-path'
  | 'tree-mismatch'
  | 'value-wrong-side'
  | 'value-missing'
  | 'step-not-reflected'
  | 'polarity-mismatch'
  | 'step-label'
  | 'gendered-pronoun'
  | 'focus-missing'
  | 'vignette-preamble'
  | 'narrative-length'
  | 'narrative-preamble';

export type QcScope = 'cdp' | 'vignette' | 'narrative';

export interface QcProblem {
  kind: QcKind;
  scope: QcScope;
  /** 1-based step the problem concerns, or null for the whole instance. */
  step: number | null;
  message: string;
}

export interface QcInput {
  cdp: Cdp;
  vignette: string;
  narrative?: readonly string[];
  /** The guideline's tree rows; when given, the CDP is checked against the tree. */
  treeNodes?: readonly TreeNodeRow[];
}

export interface QcReport {
  cdp_id: string;
  problems: QcProblem[];
  cdpOk: boolean;
  vignetteOk: boolean;
  narrativeOk: boolean;
}

const SCOPE: Record<QcKind, QcScope> = {
  'empty-condition': 'cdp',
  'cdp-length': 'cdp',
  'contradictory-path': 'cdp',
  'tree-mismatch': 'cdp',
  'value-wrong-side': 'vignette',
  'value-missing': 'vignette',
  'step-not-reflected': 'vignette',
  'polarity-mismatch': 'vignette',
  'step-label': 'vignette',
  'gendered-pronoun': 'vignette',
  'focus-missing': 'vignette',
  'vignette-preamble': 'vignette',
  'narrative-length': 'narrative',
  'narrative-preamble': 'narrative',
};

const STEP_LABEL_EN =
  /\bstep\s*(?:\d+|one|two|three|four|five)\b|\bnode\s*\d+|\b(?:decision|clinical)\s+(?:pathway|path|tree)s?\b|\bpathways?\b|\bdecision[_ ]outcome\b|\b(?:yes|no)[- ]branch\b|\bflowchart\b/i;
const STEP_LABEL_ZH =
  /步骤\s*[\d一二三四五六七八九十]|第\s*[\d一二三四五六七八九十]+\s*步|决策路径|临床路径|决策树|节点|是分支|否分支|流程图/;
const GENDERED_EN = /\b(he|she|his|her|hers|him|himself|herself)\b/i;
const GENDERED_ZH = /(?<!其)他|她/;
const NEGATION_EN = /\b(not|no|never|without|absent|denied|denies|negative|none|neither|nor|lacked|lacks|free of|ruled out)\b|n't\b/i;
const NEGATION_ZH = /未|无|不|没有|否认|阴性|并非|非/;
const FOCUS_EN: Record<ClinicalFocus, RegExp> = {
  diagnosis: /diagnos/i,
  classification: /classif/i,
  screening: /screen/i,
  management: /manag/i,
};
const FOCUS_ZH: Record<ClinicalFocus, RegExp> = {
  diagnosis: /诊断/,
  classification: /分类|分型|分级|分期/,
  screening: /筛查/,
  management: /管理|治疗|处理/,
};
const GENERIC_EN = new Set(['patient', 'present', 'does', 'have', 'has', 'there', 'evidence', 'any', 'history', 'show']);

export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[。！？])|(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function splitClauses(text: string): string[] {
  return splitSentences(text)
    .flatMap((s) => s.split(/[;；,，]|\s+(?:and|but|while|whereas)\s+/))
    .map((s) => s.trim())
    .filter(Boolean);
}

interface FoundNumber {
  value: number;
  /** Second value of an "A/B" pair. */
  second: number | null;
  unit: UnitInfo;
  index: number;
}

function numbersWithUnits(sentence: string): FoundNumber[] {
  const out: FoundNumber[] = [];
  const re = /(\d+(?:\.\d+)?|[一二两三四五六七八九十]+)(?:\s*\/\s*(\d+(?:\.\d+)?))?/g;
  for (const m of sentence.matchAll(re)) {
    const raw = m[1]!;
    const chinese = !/\d/.test(raw);
    const value = chinese ? parseChineseNumeral(raw) : Number(raw);
    if (value === null) continue;
    const after = sentence.slice(m.index! + m[0].length).replace(/^-/, ' ');
    const unit = matchUnit(after)?.unit ?? NO_UNIT;
    if (chinese && unit === NO_UNIT) continue;
    const negative = /[-−]\s?$/.test(sentence.slice(0, m.index!)) && !/\d\s*[-−]\s?$/.test(sentence.slice(0, m.index!));
    out.push({ value: negative ? -value : value, second: m[2] ? Number(m[2]) : null, unit, index: m.index! });
  }
  return out;
}

function compatible(found: UnitInfo, wanted: UnitInfo): boolean {
  if (wanted === NO_UNIT) return found === NO_UNIT || found.family === 'count';
  return found.family === wanted.family;
}

/** The vignette's value for one indicator, in the threshold's unit, or null when not found. */
function findValue(vignette: string, key: string, unit: UnitInfo, zh: boolean): { value: number; second: number | null } | null {
  const isAge = key === 'age';
  for (const sentence of splitSentences(vignette)) {
    let mention = -1;
    if (isAge) {
      const m = zh ? /岁|年龄/.exec(sentence) : /\b(?:aged?|years?[- ]old|age of)\b/i.exec(sentence);
      if (!m) continue;
      mention = 0;
    } else if (zh) {
      const k = key.replace(/（第[一二]值）$/, '');
      const probe = [k, k.slice(0, Math.max(2, Math.ceil(k.length / 2)))].find((p) => sentence.includes(p));
      if (probe === undefined) {
        if (/收缩压|舒张压/.test(k) && sentence.includes('血压')) mention = sentence.indexOf('血压');
        else continue;
      } else mention = sentence.indexOf(probe);
    } else {
      const words = key.replace(/ \((first|second) value\)$/, '').split(' ');
      const have = indicatorWordsEn(sentence);
      const sides = words.filter((w) => w === 'systolic' || w === 'diastolic');
      const hit = words.filter((w) => have.includes(w)).length;
      const bp = sides.length > 0 && /\b(blood pressure|bp)\b/i.test(sentence) && /\d\s*\/\s*\d/.test(sentence);
      if (!bp && (hit < Math.ceil(words.length / 2) || !sides.every((w) => have.includes(w)))) continue;
      const first = words.find((w) => have.includes(w));
      mention = first ? sentence.toLowerCase().search(new RegExp(`\\b${first.replace(/[^a-z0-9]/g, '.')}`)) : 0;
      if (bp && mention < 0) mention = sentence.search(/blood pressure|BP/i);
    }
    const nums = numbersWithUnits(sentence).filter((n) => compatible(n.unit, unit));
    const pick = nums.find((n) => n.index >= mention) ?? nums[nums.length - 1];
    if (!pick) continue;
    const conv = (x: number) => (pick.unit === NO_UNIT || unit === NO_UNIT ? x : convert(x, pick.unit, unit));
    // "150/96 mmHg" read for a diastolic indicator is its second value.
    if (/diastolic|舒张|（第二值）|\(second value\)/.test(key) && pick.second !== null) return { value: conv(pick.second), second: null };
    return { value: conv(pick.value), second: pick.second === null ? null : conv(pick.second) };
  }
  return null;
}

function contentUnits(text: string, zh: boolean): string[] {
  if (zh) {
    const chars = [...text.replace(/是否|有无|患者|病人|吗|的/g, '').replace(/[^\u3400-\u9fff0-9A-Za-z]/g, '')];
    return [...new Set(chars.slice(1).map((c, i) => chars[i]! + c))];
  }
  return [...new Set(indicatorWordsEn(text).filter((w) => !GENERIC_EN.has(w) && /[a-z]/.test(w)))];
}

function unitsPresent(units: string[], text: string, zh: boolean): number {
  if (zh) return units.filter((u) => text.includes(u)).length;
  const words = indicatorWordsEn(text);
  // Five-letter stems tolerate inflection ("worsen"/"worsened", "tolerate"/"tolerated").
  return units.filter((u) => words.some((w) => w === u || (u.length >= 5 && w.length >= 5 && w.slice(0, 5) === u.slice(0, 5)))).length;
}

/** The set a step's thresholds on one indicator require, combined with and/or. */
function stepSets(thresholds: Threshold[]): Map<string, { set: Interval[]; unit: UnitInfo; pair: Threshold | null }> {
  const out = new Map<string, { set: Interval[]; unit: UnitInfo; pair: Threshold | null }>();
  for (const t of thresholds) {
    t.components.forEach((c) => {
      const prev = out.get(c.key);
      if (!prev) out.set(c.key, { set: c.set, unit: t.unit, pair: t.pair ? t : null });
      else prev.set = t.joiner === 'or' ? unionSets(prev.set, c.set) : intersectSets(prev.set, c.set);
    });
  }
  return out;
}

function checkTree(cdp: Cdp, nodes: readonly TreeNodeRow[], add: (k: QcKind, step: number | null, m: string) => void): void {
  const byIndex = new Map(nodes.filter((n) => n.guideline_id === cdp.guideline_id).map((n) => [n.node_index, n]));
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  cdp.steps.forEach((s, i) => {
    const node = byIndex.get(s.node_index);
    if (!node) return add('tree-mismatch', i + 1, `node ${s.node_index} is not in the tree of ${cdp.guideline_id}`);
    if (node.is_leaf) add('tree-mismatch', i + 1, `node ${s.node_index} is a leaf but the path uses it as a decision`);
    if (norm(node.text) !== norm(s.condition))
      add('tree-mismatch', i + 1, `condition differs from node ${s.node_index}'s text "${node.text}"`);
    const nextIndex = i + 1 < cdp.steps.length ? cdp.steps[i + 1]!.node_index : cdp.leaf_index;
    const next = byIndex.get(nextIndex);
    if (next && (next.parent_index !== s.node_index || next.branch !== s.decision_outcome)) {
      add('tree-mismatch', i + 1, `node ${nextIndex} is not the "${s.decision_outcome}" child of node ${s.node_index}`);
    }
  });
  const leaf = byIndex.get(cdp.leaf_index);
  if (!leaf || !leaf.is_leaf) add('tree-mismatch', null, `leaf ${cdp.leaf_index} is missing or not a leaf in the tree`);
  else if (norm(leaf.text) !== norm(cdp.conclusion)) add('tree-mismatch', null, `conclusion differs from leaf ${cdp.leaf_index}'s text`);
}

export function checkInstance(input: QcInput): QcReport {
  const { cdp, vignette, narrative, treeNodes } = input;
  const problems: QcProblem[] = [];
  const add = (kind: QcKind, step: number | null, message: string) => problems.push({ kind, scope: SCOPE[kind], step, message });
  const zh = isChinese(cdp.language) || /[\u3400-\u9fff]/.test(vignette);
  const conditions = cleanConditions(cdp);

  // --- the CDP itself
  cdp.steps.forEach((s, i) => {
    if (!s.condition.trim()) add('empty-condition', i + 1, 'the condition is empty');
  });
  if (cdp.length !== cdp.steps.length)
    add('cdp-length', null, `length is ${cdp.length} but the path has ${cdp.steps.length} decision steps`);
  const plan = chooseValues(conditions.map((condition, i) => ({ condition, decision_outcome: cdp.steps[i]!.decision_outcome })));
  for (const p of plan.problems) if (p.startsWith('contradictory')) add('contradictory-path', null, p);
  if (treeNodes) checkTree(cdp, treeNodes, add);

  // --- the vignette against each step
  const clauses = splitClauses(vignette);
  conditions.forEach((condition, i) => {
    const outcome = cdp.steps[i]!.decision_outcome;
    const thresholds = plan.thresholds[i]!;
    if (thresholds.length) {
      for (const [key, { set, unit, pair }] of stepSets(thresholds)) {
        if (pair && pair.components[1]!.key === key) continue; // checked with its first component
        const wanted = outcome === 'yes' ? set : complementSet(set);
        if (pair) {
          const [a, b] = pair.components;
          const va = findValue(vignette, a!.key, unit, zh);
          const vb = findValue(vignette, b!.key, unit, zh);
          const x =
            va?.second !== null && va?.second !== undefined
              ? { first: va.value, second: va.second }
              : va && vb
                ? { first: va.value, second: vb.second ?? vb.value }
                : null;
          if (!x) {
            add('value-missing', i + 1, `no value for "${a!.key}/${b!.key}" found in the vignette`);
            continue;
          }
          const inA = containsValue(a!.set, x.first);
          const inB = containsValue(b!.set, x.second);
          const either = pair.kind === 'ge' || pair.kind === 'gt';
          const holds = either ? inA || inB : inA && inB;
          if (holds !== (outcome === 'yes')) {
            add(
              'value-wrong-side',
              i + 1,
              `vignette gives ${x.first}/${x.second} ${unit.canonical}, which does not match outcome ${outcome} of "${condition}"`,
            );
          }
          continue;
        }
        const found = findValue(vignette, key, unit, zh);
        if (!found) {
          add('value-missing', i + 1, `no value for "${key}" found in the vignette (step "${condition}")`);
          continue;
        }
        if (!containsValue(wanted, found.value)) {
          add(
            'value-wrong-side',
            i + 1,
            `vignette gives ${key} = ${found.value} ${unit.canonical}, outside ${formatSet(wanted)} required by outcome ${outcome} of "${condition}"`,
          );
        }
      }
      // A numeric step is reflected by its value; a missing value is already reported.
      return;
    }
    const units = contentUnits(condition, zh);
    if (units.length === 0) return;
    const present = unitsPresent(units, vignette, zh);
    if (present * 2 < units.length) {
      add('step-not-reflected', i + 1, `only ${present} of ${units.length} key terms of "${condition}" appear in the vignette`);
      return;
    }
    if (thresholds.length) return;
    let best = '';
    let bestScore = -1;
    for (const c of clauses) {
      const score = unitsPresent(units, c, zh);
      if (score > bestScore) [best, bestScore] = [c, score];
    }
    // A "no" adds a negation to what the condition already says ("注意力不集中" → "未出现注意力不集中").
    const cue = new RegExp((zh ? NEGATION_ZH : NEGATION_EN).source, 'gi');
    const count = (s: string) => (s.match(cue) ?? []).length;
    const inCondition = count(zh ? condition.replace(/是否|有无/g, '') : condition);
    const added = count(best) !== inCondition;
    if (added !== (outcome === 'no')) {
      add('polarity-mismatch', i + 1, `"${best}" ${added ? 'adds' : 'lacks'} a negation, but the outcome of "${condition}" is ${outcome}`);
    }
  });

  // --- the vignette as a whole
  const label = (zh ? STEP_LABEL_ZH : STEP_LABEL_EN).exec(vignette) ?? STEP_LABEL_EN.exec(vignette);
  if (label) add('step-label', null, `the vignette mentions "${label[0]}", exposing the decision structure`);
  const pronoun = (zh ? GENDERED_ZH : GENDERED_EN).exec(vignette) ?? GENDERED_EN.exec(vignette);
  if (pronoun) add('gendered-pronoun', null, `the vignette uses the gendered pronoun "${pronoun[0]}"; refer to "the patient" instead`);
  const sentences = splitSentences(vignette);
  const last = sentences[sentences.length - 1] ?? '';
  if (!(zh ? FOCUS_ZH : FOCUS_EN)[cdp.focus].test(last))
    add('focus-missing', null, `the last sentence does not state the focus "${cdp.focus}"`);

  const meta = metaCommentary(vignette);
  if (meta)
    add('vignette-preamble', null, `the vignette holds a preamble or meta-commentary ("${meta.slice(0, 60)}"), shown to the model as is`);
  narrative?.forEach((statement, i) => {
    const m = metaCommentary(statement);
    if (m) add('narrative-preamble', i + 1, `narrative statement ${i + 1} holds a preamble or meta-commentary ("${m.slice(0, 60)}")`);
  });
  if (narrative && narrative.length !== cdp.steps.length + 1) {
    add(
      'narrative-length',
      null,
      `narrative has ${narrative.length} statements; expected ${cdp.steps.length + 1} (one per step plus the conclusion)`,
    );
  }
  return {
    cdp_id: cdp.cdp_id,
    problems,
    cdpOk: !problems.some((p) => p.scope === 'cdp'),
    vignetteOk: !problems.some((p) => p.scope === 'vignette'),
    narrativeOk: !problems.some((p) => p.scope === 'narrative'),
  };
}
