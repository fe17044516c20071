/**
 * Reads the numeric thresholds out of a decision condition ("Is BMI ≥ 30 kg/m²?",
 * "Has pain persisted for more than 3 months?", "症状是否持续至少3个月？") as an indicator plus the
 * interval the condition asks about. What counts as a threshold: a number with a comparison
 * before it (≥, "at least", 大于, 至少 …), a comparison after it ("or more", 以上 …) or a range
 * ("130–139 mmHg", "between X and Y", "X to Y", 30至79岁). A number with none of these
 * ("type 2 diabetes", "stage 3") is not a threshold.
 *
 * Conventions (documented choices):
 * - Ranges are closed on both ends ("aged 30–79 years" includes 30 and 79).
 * - Chinese 以上/以下 include the number (the usual reading in Chinese clinical and legal text);
 *   超过/大于/高于 exclude it, 不少于/至少/不低于 include it.
 * - "within X" is read as ≤ X.
 * - "A/B unit" (blood pressure "≥140/90 mmHg") is two indicators sharing the comparison: the first
 *   number is the systolic (or, for other indicators, "first") value, the second the diastolic
 *   ("second") value. Whether the guideline means "A or B" (hypertension) or "A and B"
 *   (a target), a case whose two values both lie on the same side as the outcome satisfies it,
 *   so the chooser treats every indicator of a condition alike: yes → all inside, no → all
 *   outside.
 * - Several thresholds on one indicator within one condition ("BMI ≥ 25 and < 30") combine by
 *   intersection, or by union when the text between them says "or"/或.
 */
import { fromOp, interval, type Interval, type Op } from './numeric-interval.ts';
import { matchUnit, NO_UNIT, type UnitInfo } from './numeric-units.ts';
import { ENGLISH_STOP_WORDS, INDICATOR_EXTRA_STOP_WORDS } from '../language/stop-words.ts';

export interface ThresholdComponent {
  /** Indicator key used to match the same quantity across steps ("bmi", "age", "收缩压"). */
  key: string;
  /** The set of values for which the condition holds ("yes"). */
  set: Interval[];
}

export interface Threshold {
  /** Span of the whole threshold expression in the condition text. */
  start: number;
  end: number;
  /** Comparator words to delete when the value is written in. */
  removals: Array<[number, number]>;
  /** Span of the number(s) to overwrite with the chosen value(s). */
  valueStart: number;
  valueEnd: number;
  kind: Op | 'range';
  /** The literal numbers: [x], [lo, hi] for a range, [a, b] for an A/B pair. */
  numbers: number[];
  pair: boolean;
  unit: UnitInfo;
  /** Span of the unit as written (empty when there is none). */
  unitStart: number;
  unitEnd: number;
  /** Smallest step the guideline's own numbers use (27.5 → 0.1, 30 → 1). */
  precision: number;
  /** The indicator phrase as written before the comparison. */
  indicator: string;
  /** One component, or two for an A/B pair. */
  components: ThresholdComponent[];
  /** How this threshold relates to the previous one in the same condition. */
  joiner: 'and' | 'or' | null;
  /** True when the comparison word was "within" (rendered as "at" when the value is written in). */
  within: boolean;
}

type Lang = 'en' | 'zh';

const EN_PREFIX: Array<[string, Op]> = (
  [
    ['greater than or equal to', 'ge'],
    ['more than or equal to', 'ge'],
    ['equal to or greater than', 'ge'],
    ['equal to or more than', 'ge'],
    ['higher than or equal to', 'ge'],
    ['at least', 'ge'],
    ['no less than', 'ge'],
    ['not less than', 'ge'],
    ['no fewer than', 'ge'],
    ['not fewer than', 'ge'],
    ['a minimum of', 'ge'],
    ['minimum of', 'ge'],
    ['no shorter than', 'ge'],
    ['more than', 'gt'],
    ['greater than', 'gt'],
    ['higher than', 'gt'],
    ['longer than', 'gt'],
    ['older than', 'gt'],
    ['in excess of', 'gt'],
    ['exceeding', 'gt'],
    ['exceeds', 'gt'],
    ['exceed', 'gt'],
    ['above', 'gt'],
    ['over', 'gt'],
    ['less than or equal to', 'le'],
    ['equal to or less than', 'le'],
    ['lower than or equal to', 'le'],
    ['no more than', 'le'],
    ['not more than', 'le'],
    ['no greater than', 'le'],
    ['not greater than', 'le'],
    ['no longer than', 'le'],
    ['not exceeding', 'le'],
    ['a maximum of', 'le'],
    ['maximum of', 'le'],
    ['at most', 'le'],
    ['up to', 'le'],
    ['within', 'le'],
    ['less than', 'lt'],
    ['fewer than', 'lt'],
    ['lower than', 'lt'],
    ['shorter than', 'lt'],
    ['younger than', 'lt'],
    ['below', 'lt'],
    ['under', 'lt'],
  ] as Array<[string, Op]>
).sort((a, b) => b[0].length - a[0].length);

const SYMBOL_PREFIX: Array<[string, Op]> = (
  [
    ['≥', 'ge'],
    ['>=', 'ge'],
    ['=>', 'ge'],
    ['≧', 'ge'],
    ['⩾', 'ge'],
    ['＞＝', 'ge'],
    ['≤', 'le'],
    ['<=', 'le'],
    ['=<', 'le'],
    ['≦', 'le'],
    ['⩽', 'le'],
    ['>', 'gt'],
    ['＞', 'gt'],
    ['<', 'lt'],
    ['＜', 'lt'],
  ] as Array<[string, Op]>
).sort((a, b) => b[0].length - a[0].length);

const ZH_PREFIX: Array<[string, Op]> = (
  [
    ['大于或等于', 'ge'],
    ['大于等于', 'ge'],
    ['不小于', 'ge'],
    ['不少于', 'ge'],
    ['不低于', 'ge'],
    ['不短于', 'ge'],
    ['至少', 'ge'],
    ['大于', 'gt'],
    ['超过', 'gt'],
    ['高于', 'gt'],
    ['多于', 'gt'],
    ['长于', 'gt'],
    ['小于或等于', 'le'],
    ['小于等于', 'le'],
    ['不大于', 'le'],
    ['不超过', 'le'],
    ['不高于', 'le'],
    ['不多于', 'le'],
    ['至多', 'le'],
    ['最多', 'le'],
    ['小于', 'lt'],
    ['低于', 'lt'],
    ['少于', 'lt'],
    ['不足', 'lt'],
    ['未满', 'lt'],
    ['不到', 'lt'],
    ['短于', 'lt'],
  ] as Array<[string, Op]>
).sort((a, b) => b[0].length - a[0].length);

const EN_SUFFIX: Array<[string, Op]> = (
  [
    ['or more', 'ge'],
    ['or greater', 'ge'],
    ['or higher', 'ge'],
    ['or above', 'ge'],
    ['or older', 'ge'],
    ['or longer', 'ge'],
    ['or over', 'ge'],
    ['and above', 'ge'],
    ['and over', 'ge'],
    ['and older', 'ge'],
    ['or less', 'le'],
    ['or fewer', 'le'],
    ['or lower', 'le'],
    ['or below', 'le'],
    ['or younger', 'le'],
    ['or under', 'le'],
    ['and below', 'le'],
    ['and under', 'le'],
    ['and younger', 'le'],
  ] as Array<[string, Op]>
).sort((a, b) => b[0].length - a[0].length);

const ZH_SUFFIX: Array<[string, Op]> = (
  [
    ['及以上', 'ge'],
    ['或以上', 'ge'],
    ['以上', 'ge'],
    ['或更高', 'ge'],
    ['或更多', 'ge'],
    ['及以下', 'le'],
    ['或以下', 'le'],
    ['以下', 'le'],
    ['或更低', 'le'],
    ['或更少', 'le'],
  ] as Array<[string, Op]>
).sort((a, b) => b[0].length - a[0].length);

const CJK = /[\u3400-\u9fff]/;
const ZH_DIGITS: Record<string, number> = { 零: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** Small Chinese numerals (0–999) such as 三, 十二, 二十四; null when not one. */
export function parseChineseNumeral(s: string): number | null {
  if (!/^[零一二两三四五六七八九十百]+$/.test(s)) return null;
  let total = 0;
  let digit = 0;
  for (const ch of s) {
    if (ch === '百') {
      total += (digit || 1) * 100;
      digit = 0;
    } else if (ch === '十') {
      total += (digit || 1) * 10;
      digit = 0;
    } else digit = ZH_DIGITS[ch]!;
  }
  return total + digit;
}

const NUMBER = /\d+(?:\.\d+)?|[零一二两三四五六七八九十百]+/g;

interface NumTok {
  start: number;
  end: number;
  value: number;
  decimals: number;
  chinese: boolean;
}

function numbersIn(text: string): NumTok[] {
  const out: NumTok[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const raw = m[0];
    const start = m.index!;
    const chinese = !/\d/.test(raw);
    let value = chinese ? parseChineseNumeral(raw) : Number(raw);
    if (value === null || !Number.isFinite(value)) continue;
    let s = start;
    // A minus sign belongs to the number only after a comparison or at a clause start, never
    // between two numbers (a range) or inside a word ("COVID-19").
    const before = text.slice(0, start);
    const sign = /(^|[\s≥≤<>=(（:：])[-−]\s?$/.exec(before);
    if (sign && !/\d\s*[-−]\s?$/.test(before)) {
      value = -value;
      s = start - sign[0].length + sign[1]!.length;
    }
    const dot = raw.indexOf('.');
    out.push({ start: s, end: start + raw.length, value, decimals: dot < 0 ? 0 : raw.length - dot - 1, chinese });
  }
  return out;
}

function isWordChar(ch: string): boolean {
  return /[A-Za-z]/.test(ch);
}

/** The comparison phrase that ends right before `pos`, for English words, symbols and Chinese. */
function prefixBefore(text: string, pos: number): { op: Op; start: number; word: string } | null {
  const left = text.slice(0, pos);
  const trimmed = left.replace(/\s+$/, '');
  for (const [sym, op] of SYMBOL_PREFIX) {
    if (trimmed.endsWith(sym)) return { op, start: trimmed.length - sym.length, word: sym };
  }
  const lower = trimmed.toLowerCase();
  for (const [w, op] of EN_PREFIX) {
    if (lower.endsWith(w) && !isWordChar(lower.charAt(lower.length - w.length - 1))) {
      return { op, start: trimmed.length - w.length, word: w };
    }
  }
  // Chinese comparisons may stand a few characters before the number: 每周至少出现3次.
  for (let gap = 0; gap <= 4; gap++) {
    const cut = trimmed.length - gap;
    if (cut < 0) break;
    const between = trimmed.slice(cut);
    if (gap > 0 && !/^[\u3400-\u9fff]+$/.test(between)) break;
    const head = trimmed.slice(0, cut);
    for (const [w, op] of ZH_PREFIX) {
      if (head.endsWith(w)) return { op, start: cut - w.length, word: w };
    }
  }
  return null;
}

const STOP = new Set([...ENGLISH_STOP_WORDS, ...INDICATOR_EXTRA_STOP_WORDS]);
const AGE_WORDS = new Set(['aged', 'age', 'old', 'older', 'younger']);

function normaliseToken(w: string): string {
  const t = w.replace(/[’']s$/, '');
  return t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us') && !t.endsWith('is') ? t.slice(0, -1) : t;
}

/** English key words of an indicator phrase (lower-case, stop words and plurals removed). */
export function indicatorWordsEn(phrase: string): string[] {
  const words = phrase.toLowerCase().match(/[a-z0-9α-ω²₀-₉][a-z0-9α-ω²₀-₉'’-]*/g) ?? [];
  return words.filter((w) => !STOP.has(w) && !STOP.has(w.replace(/[’']s$/, ''))).map(normaliseToken);
}

const ZH_STRIP = /是否|有无|该患者|患者|病人|目前|当前|的|其|\s|[，,；;：:、？?（）()]/g;

function keyFor(phrase: string, after: string, unit: UnitInfo, op: string, lang: Lang): string {
  if (lang === 'zh') {
    const k = phrase.replace(ZH_STRIP, '');
    if (unit.canonical === '岁' || /年龄|年纪/.test(k)) return 'age';
    if (k) return k;
    const tail = /^[\u3400-\u9fff]{1,6}/.exec(after.replace(/^\s+/, ''));
    return tail ? tail[0] : unit.canonical || 'value';
  }
  const words = indicatorWordsEn(phrase);
  if (
    words.some((w) => AGE_WORDS.has(w)) ||
    /older|younger/.test(op) ||
    (words.length === 0 && unit.canonical === 'years' && /patient|person|adult|child|individual/i.test(phrase))
  ) {
    return 'age';
  }
  if (words.length) return words.join(' ');
  const tail = indicatorWordsEn((/^[^,;.?]*/.exec(after) ?? [''])[0]).slice(0, 3);
  return tail.length ? tail.join(' ') : unit.canonical || 'value';
}

function pairKeys(key: string, lang: Lang, unit: UnitInfo): [string, string] {
  if (lang === 'zh') {
    if (/血压/.test(key) || unit.canonical === 'mmHg') return ['收缩压', '舒张压'];
    return [`${key}（第一值）`, `${key}（第二值）`];
  }
  if (/\b(blood pressure|bp)\b/.test(key) || unit.canonical === 'mmHg') {
    return ['systolic blood pressure', 'diastolic blood pressure'];
  }
  return [`${key} (first value)`, `${key} (second value)`];
}

/** Where the indicator phrase of a threshold may start: after the previous threshold or a clause break. */
function clauseStart(text: string, from: number, to: number): number {
  let start = from;
  const re = /[,;:，；：、]|\b(?:and|or|but|if|when|while)\b|并且|而且|或者|和|或|且|及/g;
  re.lastIndex = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) start = m.index + m[0].length;
  return start;
}

export function languageOf(text: string): Lang {
  return CJK.test(text) ? 'zh' : 'en';
}

/** Parses every threshold in a condition, in reading order. */
export function parseThresholds(text: string): Threshold[] {
  const lang = languageOf(text);
  const nums = numbersIn(text);
  const out: Threshold[] = [];
  let consumedTo = 0;
  for (let i = 0; i < nums.length; i++) {
    const n = nums[i]!;
    if (n.start < consumedTo) continue;
    let kind: Op | 'range' | null = null;
    let numbers = [n.value];
    let pair = false;
    let valueEnd = n.end;
    let decimals = n.decimals;
    let cursor = n.end;
    const removals: Array<[number, number]> = [];
    let start = n.start;
    let within = false;
    let compWord = '';
    let rangeUpperOpen = false;

    const prefix = prefixBefore(text, n.start);
    const lowerLeft = text.slice(Math.max(0, n.start - 12), n.start).toLowerCase();
    const between = /\b(between|from)\s*$/.exec(lowerLeft);
    const next = nums[i + 1];

    // A/B pair: "140/90".
    const pairM = /^\s*\/\s*$/.test(next ? text.slice(n.end, next.start) : 'x');
    if (next && pairM && !next.chinese) {
      pair = true;
      numbers = [n.value, next.value];
      valueEnd = next.end;
      cursor = next.end;
      decimals = Math.max(decimals, next.decimals);
      i++;
    } else if (next) {
      // Range: "30–79", "30 to 79", "between 30 and 79", "30岁至79岁".
      const gap = text.slice(n.end, next.start);
      const unitInside = matchUnit(gap);
      const sep = unitInside ? gap.slice(unitInside.length) : gap;
      // "6 to <12 months": the upper end may carry its own strict comparison.
      const upperOpen = /^\s*(?:[–—~～-]|至|到|to)\s*(?:<|＜)\s*$/i.test(sep);
      const strong = /^\s*(?:[–—~～]|至|到|to)\s*$/i.test(sep) || upperOpen;
      const hyphen = /^\s*-\s*$/.test(sep);
      const andSep = /^\s*and\s*$/i.test(sep) && between !== null;
      const afterNext = matchUnit(text.slice(next.end));
      const hyphenOk =
        hyphen && !isWordChar(text.charAt(n.start - 1)) && (afterNext !== null || between !== null || /\bage[sd]?\s*$/.test(lowerLeft));
      if ((strong || hyphenOk || andSep) && !(n.chinese && !afterNext)) {
        kind = 'range';
        // The "<" lies inside the value span, so writing the value in removes it too.
        rangeUpperOpen = upperOpen;
        numbers = [n.value, next.value];
        valueEnd = next.end;
        cursor = next.end;
        decimals = Math.max(decimals, next.decimals);
        i++;
        if (between) {
          removals.push([n.start - between[0].length + between[0].search(/\S/), n.start]);
          start = removals[0]![0];
          compWord = between[1]!;
        }
      }
    }
    if (kind === null && prefix) {
      kind = prefix.op;
      removals.push([prefix.start, prefix.word.length + prefix.start]);
      start = prefix.start;
      within = prefix.word === 'within';
      compWord = prefix.word;
    }
    // "65+ years": the plus reads as "or more".
    let plusAt = -1;
    if (kind === null && text.charAt(cursor) === '+') {
      plusAt = cursor;
      cursor++;
    }
    const unitM = matchUnit(text.slice(cursor));
    const unit = unitM ? unitM.unit : NO_UNIT;
    let end = unitM ? cursor + unitM.length : cursor;
    const unitStart = unitM ? cursor + /^\s*/.exec(text.slice(cursor))![0].length : cursor;
    const unitEnd = end;
    if (n.chinese && !unitM) continue;

    if (kind === null || kind === 'range') {
      const after = text.slice(end);
      const lowerAfter = after.toLowerCase();
      let suffix: [string, Op] | undefined;
      if (plusAt >= 0) {
        kind = 'ge';
        removals.push([plusAt, plusAt + 1]);
        compWord = '+';
      }
      for (const s of EN_SUFFIX) {
        if (suffix || kind !== null) break;
        // "65 years of age and over": the suffix may follow "of age".
        const m = new RegExp(`^(?:\\s*of age)?\\s*${s[0]}\\b`).exec(lowerAfter);
        if (m) suffix = [m[0], s[1]];
      }
      for (const s of ZH_SUFFIX) {
        if (suffix || kind !== null) break;
        if (after.replace(/^\s*/, '').startsWith(s[0])) suffix = [after.slice(0, after.indexOf(s[0]) + s[0].length), s[1]];
      }
      if (suffix && kind === null) {
        kind = suffix[1];
        removals.push([end, end + suffix[0].length]);
        compWord = suffix[0].trim();
        end += suffix[0].length;
      }
    }
    if (kind === null) continue;

    const phraseStart = clauseStart(text, consumedTo, start);
    const phrase = text.slice(phraseStart, start);
    const prev = out[out.length - 1];
    let key = keyFor(phrase, text.slice(end), unit, compWord, lang);
    const emptyPhrase = lang === 'zh' ? phrase.replace(ZH_STRIP, '') === '' : indicatorWordsEn(phrase).length === 0;
    let joiner: 'and' | 'or' | null = null;
    if (prev) {
      const gapText = text.slice(prev.end, start);
      joiner = /\bor\b|或/.test(gapText) ? 'or' : 'and';
      const sameQuantity = prev.unit.family === unit.family || prev.unit === NO_UNIT;
      if (emptyPhrase && key !== 'age' && sameQuantity && !prev.pair) {
        key = prev.components[0]!.key;
        // "BMI ≥ 25 and < 30 kg/m²": the unit written once at the end belongs to both.
        if (prev.unit === NO_UNIT && unit !== NO_UNIT) prev.unit = unit;
      }
    }
    const precision = 10 ** -decimals;
    const components: ThresholdComponent[] = [];
    if (pair) {
      const keys = pairKeys(key, lang, unit);
      const op = kind === 'range' ? 'ge' : kind;
      components.push({ key: keys[0], set: [fromOp(op, numbers[0]!)] });
      components.push({ key: keys[1], set: [fromOp(op, numbers[1]!)] });
    } else if (kind === 'range') {
      const [a, b] = numbers[0]! <= numbers[1]! ? [numbers[0]!, numbers[1]!] : [numbers[1]!, numbers[0]!];
      components.push({ key, set: [interval(a, b, true, !rangeUpperOpen)] });
    } else {
      components.push({ key, set: [fromOp(kind, numbers[0]!)] });
    }
    out.push({
      start,
      end,
      removals,
      valueStart: n.start,
      valueEnd,
      kind,
      numbers,
      pair,
      unit,
      unitStart,
      unitEnd,
      precision,
      indicator: phrase.trim(),
      components,
      joiner,
      within,
    });
    consumedTo = end;
  }
  return out;
}

/**
 * The condition text with each threshold's comparison words removed and its number(s)
 * replaced by `format(threshold, componentIndex)`; a threshold whose formatter returns null
 * is left as written. `unitFor` may rename the unit (when the chosen value is expressed in
 * another duration unit than this step wrote). `sameAsPrevious(k)` says threshold k tests the
 * same indicator as threshold k − 1, so "BMI ≥ 25 and < 30 kg/m²" becomes "BMI 27 kg/m²"
 * rather than repeating the value. English ages gain "old" ("70 years old") unless the phrase
 * already says "aged"/"age" or the text says "old".
 */
export function substituteValues(
  text: string,
  thresholds: readonly Threshold[],
  format: (t: Threshold, component: number) => string | null,
  unitFor: (t: Threshold) => string | null = () => null,
  sameAsPrevious: (index: number) => boolean = () => false,
): string {
  const edits: Array<{ from: number; to: number; insert: string }> = [];
  for (let k = 0; k < thresholds.length; k++) {
    const t = thresholds[k]!;
    const values = t.components.map((_, c) => format(t, c));
    if (values.some((v) => v === null)) continue;
    // A run of thresholds on one indicator is written once, with the run's last unit.
    let last = k;
    while (last + 1 < thresholds.length && sameAsPrevious(last + 1)) last++;
    const tail = thresholds[last]!;
    for (const [a, b] of t.removals) {
      edits.push({ from: a, to: b, insert: t.within ? 'at' : '' });
    }
    edits.push({ from: t.valueStart, to: t.valueEnd, insert: values.join('/') });
    if (last > k) {
      const cutFrom = t.unitEnd > t.unitStart ? t.unitStart : t.valueEnd;
      edits.push({ from: cutFrom, to: tail.unitStart, insert: cutFrom === t.valueEnd && tail.unitEnd > tail.unitStart ? ' ' : '' });
    }
    const written = text.slice(tail.unitStart, tail.unitEnd);
    let unit = unitFor(tail) ?? written;
    const ageEn =
      t.components[0]!.key === 'age' &&
      tail.unit.canonical === 'years' &&
      languageOf(text) === 'en' &&
      !/\bold\b/i.test(written) &&
      !/\bage[ds]?\b/i.test(t.indicator) &&
      !/^\s*(?:old|of age)\b/i.test(text.slice(tail.end));
    if (ageEn) unit = `${unit} old`;
    if (unit !== written) edits.push({ from: tail.unitStart, to: tail.unitEnd, insert: unit });
    k = last;
  }
  edits.sort((a, b) => b.from - a.from || b.to - a.to);
  let out = text;
  for (const e of edits) {
    let to = e.to;
    // Swallow one space so removing "≥ " does not leave a double space.
    if (e.insert === '' && out.charAt(to) === ' ' && (e.from === 0 || out.charAt(e.from - 1) === ' ')) to++;
    out = out.slice(0, e.from) + e.insert + out.slice(to);
  }
  return out.replace(/[ \t]{2,}/g, ' ').replace(/ +([?？,.])/g, '$1');
}
