/**
 * Reads a CPGBench judge's answer (Prompts 12–14): one dictionary
 * {"score": 0|1, "rationale": …, "supporting_text": …, "confidence": 0–1}.
 *
 * Readable variants are accepted and labelled (pipeline/llm/answer-format.ts): whatever the
 * shared reader takes (fences, <think>, preambles, trailing notes, trailing commas, comments), a
 * Python dict ('python-literal'), keys in another spelling or wording ("Supporting Text",
 * "reason", 'key-synonym'), in Chinese or German (评分, Begründung), a score written "1", true or
 * "yes" / "是" / "ja", a confidence as "90%" or 90 ('percent') or as a word ("high": kept as the
 * word, 'confidence-word'). Keys the prompt does not ask for are ignored.
 *
 * Faults, re-asked with the problem stated (the paper re-asks "until the format requirement is
 * met"; we stop at the stage's maxAttempts and record a failure): no dictionary, a list of them,
 * a missing key, a score other than 0 or 1 (a half point included: the paper's judge is binary),
 * a confidence outside 0–1, a truncated answer, two keys meaning one thing with different values.
 */
import { type AnswerFormat, foldWidth, formatOf, type FormatVariant } from '../../../pipeline/stage.ts';
import { readStructuredAnswer } from '../read/structured-answer.ts';

export interface Judgement {
  score: 0 | 1;
  rationale: string;
  supportingText: string;
  /** In [0, 1]; null when the judge gave a word instead (then `confidenceText`). */
  confidence: number | null;
  confidenceText: string | null;
}

export type JudgementParse = { ok: true; value: Judgement; format: AnswerFormat } | { ok: false; problems: string[] };

type Field = 'score' | 'rationale' | 'supporting_text' | 'confidence';
const FIELDS: readonly Field[] = ['score', 'rationale', 'supporting_text', 'confidence'];

/** Normalised key (lower case, no spaces, _ or -) → field, and the marker label of its language. */
const SYNONYMS: Record<string, [Field, FormatVariant | null]> = {
  score: ['score', null],
  rating: ['score', null],
  grade: ['score', null],
  评分: ['score', 'chinese-marker'],
  得分: ['score', 'chinese-marker'],
  分数: ['score', 'chinese-marker'],
  bewertung: ['score', 'german-marker'],
  punktzahl: ['score', 'german-marker'],
  rationale: ['rationale', null],
  reason: ['rationale', null],
  reasoning: ['rationale', null],
  explanation: ['rationale', null],
  justification: ['rationale', null],
  理由: ['rationale', 'chinese-marker'],
  依据: ['rationale', 'chinese-marker'],
  原因: ['rationale', 'chinese-marker'],
  begründung: ['rationale', 'german-marker'],
  begruendung: ['rationale', 'german-marker'],
  supportingtext: ['supporting_text', null],
  supportingevidence: ['supporting_text', null],
  supportingquote: ['supporting_text', null],
  evidence: ['supporting_text', null],
  quote: ['supporting_text', null],
  支持文本: ['supporting_text', 'chinese-marker'],
  支持性文本: ['supporting_text', 'chinese-marker'],
  证据: ['supporting_text', 'chinese-marker'],
  原文: ['supporting_text', 'chinese-marker'],
  belegtext: ['supporting_text', 'german-marker'],
  beleg: ['supporting_text', 'german-marker'],
  textbeleg: ['supporting_text', 'german-marker'],
  confidence: ['confidence', null],
  certainty: ['confidence', null],
  置信度: ['confidence', 'chinese-marker'],
  信心: ['confidence', 'chinese-marker'],
  konfidenz: ['confidence', 'german-marker'],
  sicherheit: ['confidence', 'german-marker'],
};

const YES = /^(yes|true|是|有|ja)$/i;
const NO = /^(no|false|否|无|没有|nein)$/i;
const CONFIDENCE_WORDS = /^(very high|high|medium|moderate|low|very low|高|中|中等|低|hoch|mittel|niedrig)$/i;

function fieldsOf(o: Record<string, unknown>, variants: FormatVariant[]): { fields: Partial<Record<Field, unknown>>; problems: string[] } {
  const fields: Partial<Record<Field, unknown>> = {};
  const problems: string[] = [];
  for (const [key, v] of Object.entries(o)) {
    const folded = foldWidth(key).text.trim();
    const hit = SYNONYMS[folded.toLowerCase().replace(/[\s_-]+/g, '')];
    if (!hit) continue;
    const [field, marker] = hit;
    if (folded !== field) variants.push(marker ?? 'key-synonym');
    if (field in fields && JSON.stringify(fields[field]) !== JSON.stringify(v))
      problems.push(`two keys give "${field}" different values (${JSON.stringify(fields[field])} and ${JSON.stringify(v)}); give it once`);
    else fields[field] ??= v;
  }
  return { fields, problems };
}

function readScore(v: unknown, variants: FormatVariant[]): 0 | 1 | string {
  if (v === 0 || v === 1) return v;
  if (typeof v === 'boolean') {
    variants.push('yes-no-synonym');
    return v ? 1 : 0;
  }
  const t = typeof v === 'string' ? foldWidth(v).text.trim() : null;
  if (t === '0' || t === '1') {
    variants.push('lenient-json:string-number');
    return t === '1' ? 1 : 0;
  }
  if (t !== null && (YES.test(t) || NO.test(t))) {
    variants.push('yes-no-synonym');
    if (/\p{Script=Han}/u.test(t)) variants.push('chinese-marker');
    if (/^(ja|nein)$/i.test(t)) variants.push('german-marker');
    return YES.test(t) ? 1 : 0;
  }
  return `"score" is ${JSON.stringify(v)}, not 0 or 1; give "score": 1 when the ground truth is present in the response, 0 otherwise`;
}

type Confidence = { value: number | null; text: string | null };

function readConfidence(v: unknown, variants: FormatVariant[]): Confidence | string {
  const refuse = (shown: unknown) =>
    `"confidence" is ${typeof shown === 'string' ? shown : JSON.stringify(shown)}; it must be a number from 0 to 1`;
  let x: number | null = typeof v === 'number' ? v : null;
  if (typeof v === 'string') {
    const t = foldWidth(v).text.trim();
    if (CONFIDENCE_WORDS.test(t)) {
      variants.push('confidence-word');
      return { value: null, text: t };
    }
    const pct = /^(\d+(?:\.\d+)?)\s*%$/.exec(t);
    if (pct) {
      if (Number(pct[1]) > 100) return refuse(t);
      variants.push('percent');
      return { value: Number(pct[1]) / 100, text: null };
    }
    if (t !== '' && Number.isFinite(Number(t))) {
      x = Number(t);
      variants.push('lenient-json:string-number');
    }
  }
  if (x === null || !Number.isFinite(x)) return refuse(v);
  if (x >= 0 && x <= 1) return { value: x, text: null };
  if (x > 1 && x <= 100) {
    variants.push('percent');
    return { value: x / 100, text: null };
  }
  return refuse(x);
}

export function parseJudgement(text: string, finishReason?: string | null): JudgementParse {
  const read = readStructuredAnswer(text, finishReason);
  if (!read.ok) return { ok: false, problems: [read.problem] };
  const v = read.value;
  if (Array.isArray(v))
    return {
      ok: false,
      problems: [
        `the answer is a list of ${v.length} item(s); give one dictionary {"score", "rationale", "supporting_text", "confidence"}`,
      ],
    };
  if (v === null || typeof v !== 'object')
    return { ok: false, problems: ['the answer must be one dictionary {"score", "rationale", "supporting_text", "confidence"}'] };
  const variants = [...read.variants];
  const { fields, problems } = fieldsOf(v as Record<string, unknown>, variants);
  for (const f of FIELDS)
    if (!(f in fields)) problems.push(`"${f}" is missing; the dictionary needs score, rationale, supporting_text and confidence`);
  if (problems.length) return { ok: false, problems };
  const score = readScore(fields.score, variants);
  const confidence = readConfidence(fields.confidence, variants);
  const text_ = (x: unknown) => (typeof x === 'string' ? x : x == null ? null : JSON.stringify(x));
  const rationale = text_(fields.rationale);
  const supporting = text_(fields.supporting_text);
  if (typeof score === 'string') problems.push(score);
  if (typeof confidence === 'string') problems.push(confidence);
  if (!rationale?.trim()) problems.push('"rationale" is empty; say in a sentence why the score was given');
  if (supporting === null)
    problems.push('"supporting_text" is null; quote the words of the response, or give "" when none support the score');
  if (problems.length) return { ok: false, problems };
  const c = confidence as Confidence;
  return {
    ok: true,
    value: {
      score: score as 0 | 1,
      rationale: rationale!.trim(),
      supportingText: supporting!.trim(),
      confidence: c.value,
      confidenceText: c.text,
    },
    format: formatOf(variants),
  };
}
