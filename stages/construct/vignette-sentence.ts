/**
 * Turns one decision condition (a yes/no question) into one past-tense declarative sentence
 * about the patient, affirmative when the step's outcome is yes and negative when no
 * (Prompt 2, rules 1, 8 and 9). Used by the offline vignette writer and, for the case facts,
 * by the offline narrative writer.
 *
 * English question shapes handled: "Is/Are/Was/Were X …?", "Is/Are there …?",
 * "Does/Do/Did X <verb> …?", "Has/Have X <participle> …?", "Can/Could X <verb> …?",
 * and verbless conditions ("Fever present?", "BMI ≥ 30 kg/m²"). Chinese: "…是否…", "有无…",
 * "…吗". When a numeric value has been written in, the sentence is always affirmative: the value
 * itself carries the outcome ("The patient's BMI was 27 kg/m²." for "no" to "BMI ≥ 30").
 *
 * Fallback (documented): when the subject and predicate cannot be told apart, the sentence is
 * "Findings showed that <clause>." for yes and "It was not the case that <clause>." for no,
 * where <clause> is the condition without its leading auxiliary; a verbless noun phrase gives
 * "Findings showed <phrase>." / "Findings did not show <phrase>.". Chinese falls back to
 * "检查结果显示：<clause>。" / "经评估，不存在以下情况：<clause>。". Such sentences are marked
 * `fallback` so the writer can report them.
 */

export interface StepSentence {
  text: string;
  fallback: boolean;
}

/** Put before each numeric value written into a condition; removed from the final sentence. */
export const VALUE_MARK = '\u0001';

const DETERMINERS = new Set(['the', 'a', 'an', 'any', 'this', 'that', 'these', 'those', 'its', 'their', 'each', 'every', 'no']);
const PREPOSITIONS = new Set([
  'of',
  'in',
  'on',
  'at',
  'during',
  'after',
  'before',
  'with',
  'without',
  'for',
  'to',
  'from',
  'by',
  'under',
  'over',
  'about',
  'per',
]);
const COMPARATORS = new Set([
  '≥',
  '>',
  '≤',
  '<',
  '>=',
  '<=',
  'at',
  'more',
  'less',
  'greater',
  'higher',
  'lower',
  'above',
  'below',
  'over',
  'under',
  'between',
  'within',
  'equal',
  'fewer',
  'exceeding',
  'up',
]);
const PRED_WORDS = new Set(
  (
    'present absent pregnant positive negative normal abnormal elevated raised reduced decreased increased low high ' +
    'available eligible able unable likely unlikely consistent compatible suggestive indicative secondary due related ' +
    'associated attributable caused currently still already not a an taking receiving undergoing using experiencing ' +
    'having aged older younger stable unstable controlled uncontrolled severe mild moderate persistent recurrent ' +
    'refractory resistant intolerant allergic contraindicated indicated symptomatic asymptomatic confirmed suspected ' +
    'known detected diagnosed treated exposed infected vaccinated immunocompromised frail obese overweight underweight ' +
    'breastfeeding lactating postpartum postmenopausal premenopausal well poorly adequately inadequately ' +
    'sufficient insufficient adequate inadequate effective ineffective successful unsuccessful ongoing complete ' +
    'incomplete impaired preserved prolonged significant clinically bedridden dependent independent willing ' +
    'appropriate inappropriate feasible required needed necessary suitable unsuitable'
  ).split(' '),
);
const VERB_BASE = new Set(
  (
    'have take use meet show report experience present require need exhibit develop demonstrate receive smoke drink ' +
    'live work respond tolerate complain wish want prefer plan fulfil fulfill satisfy belong fall remain continue snore ' +
    'wake sleep feel weigh consume engage participate agree consent qualify suffer display describe endorse score ' +
    'achieve reach exceed persist last occur involve affect include contain indicate suggest reveal appear seem lack ' +
    'undergo attend walk eat fail cause limit interfere carry harbor harbour test express return start stop begin get ' +
    'keep hold bring become come go see make do give lose grow result relate worsen improve recur resolve follow ' +
    'precede coexist radiate spread extend involve worsen subside respond breathe cough bleed vomit recover deteriorate ' +
    'pose fit match understand know intend decline refuse accept'
  ).split(' '),
);
const IRREGULAR_PAST: Record<string, string> = {
  have: 'had',
  has: 'had',
  take: 'took',
  meet: 'met',
  fall: 'fell',
  feel: 'felt',
  undergo: 'underwent',
  eat: 'ate',
  begin: 'began',
  get: 'got',
  keep: 'kept',
  hold: 'held',
  bring: 'brought',
  become: 'became',
  come: 'came',
  go: 'went',
  see: 'saw',
  make: 'made',
  do: 'did',
  give: 'gave',
  lose: 'lost',
  grow: 'grew',
  wake: 'woke',
  sleep: 'slept',
  spread: 'spread',
  drink: 'drank',
  know: 'knew',
  understand: 'understood',
  bleed: 'bled',
  run: 'ran',
  think: 'thought',
  find: 'found',
  leave: 'left',
  wear: 'wore',
  write: 'wrote',
  sit: 'sat',
  stand: 'stood',
  put: 'put',
  set: 'set',
  hit: 'hit',
  cut: 'cut',
  say: 'said',
  tell: 'told',
  read: 'read',
  show: 'showed',
  lie: 'lay',
  arise: 'arose',
};
const IRREGULAR_PP = new Set(
  (
    'been had taken undergone received shown given begun done gone seen become grown known fallen eaten lost felt kept ' +
    'met found held brought made got gotten worn written left spent run slept woken drunk sat stood broken chosen risen ' +
    'driven hit put set spread arisen'
  ).split(' '),
);

export function pastTense(verb: string): string {
  const v = verb.toLowerCase();
  if (IRREGULAR_PAST[v]) return IRREGULAR_PAST[v]!;
  if (v.endsWith('e')) return `${verb}d`;
  if (/[^aeiou]y$/.test(v)) return `${verb.slice(0, -1)}ied`;
  if (/^(stop|plan|drop|admit|occur|recur|refer|prefer|commit|omit|permit|submit|fit)$/.test(v)) return `${verb}${v.at(-1)}ed`;
  return `${verb}ed`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function lowerFirst(s: string): string {
  // Keep acronyms ("BMI", "HbA1c") as written.
  return /^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;
}

/** Replaces gendered pronouns by neutral references to the patient (Prompt 2, rule 9). */
export function neutralisePronouns(text: string): string {
  if (/[\u3400-\u9fff]/.test(text)) {
    return text.replace(/(?<!其)[他她](?:的)?/g, (m) => (m.length > 1 ? '患者的' : '患者')).replace(/患者或患者/g, '患者');
  }
  let out = text
    .replace(/\b(he or she|she or he|he\/she|she\/he|s\/he)\b/gi, 'the patient')
    .replace(/\b(his or her|her or his|his\/her|her\/his)\b/gi, "the patient's")
    .replace(/\b(himself or herself|herself or himself|himself|herself)\b/gi, 'themselves')
    .replace(/\b(he|she|him)\b/gi, 'the patient')
    .replace(/\bhis\b/gi, "the patient's")
    .replace(/\bhers\b/gi, "the patient's");
  // "her" is possessive before a word that is not a preposition or conjunction, else an object.
  out = out.replace(/\bher\b(\s+([A-Za-z]+))?/gi, (_m, tail: string | undefined, word: string | undefined) => {
    if (word && !PREPOSITIONS.has(word.toLowerCase()) && !/^(and|or|but|to|if|when)$/i.test(word)) return `the patient's${tail}`;
    return `the patient${tail ?? ''}`;
  });
  return out;
}

/** Removes step numbering a tree may carry ("Step 2: …", "第2步：…"). */
export function stripStepLabel(text: string): string {
  return text
    .replace(/^\s*(?:step|node|question|q)\s*\d+\s*[:.)\-–]\s*/i, '')
    .replace(/^\s*(?:步骤\s*\d+|第\s*[\d一二三四五六七八九十]+\s*步)\s*[:：.、]?\s*/, '')
    .trim();
}

function isDeterminerLike(w: string | undefined): boolean {
  if (!w) return false;
  const l = w.toLowerCase();
  return DETERMINERS.has(l) || /['’]s$/.test(l);
}

/** Index (≥ 1) of the first token that starts the predicate of an "is/are" clause, or −1. */
function predicateStart(tokens: string[]): number {
  const lower = tokens.map((t) => t.toLowerCase());
  if (lower[0] === 'the' && lower[1] === 'patient' && tokens.length > 2) return 2;
  if (lower[0] === 'patient' && tokens.length > 1) return 1;
  for (let i = 1; i < tokens.length; i++) {
    if (tokens[i]!.includes(VALUE_MARK) || COMPARATORS.has(lower[i]!) || /^[≥≤<>]/.test(lower[i]!)) {
      if (!isDeterminerLike(lower[i - 1])) return i;
    }
  }
  for (let i = 1; i < tokens.length; i++) {
    if (PRED_WORDS.has(lower[i]!) && !isDeterminerLike(lower[i - 1])) return i;
  }
  for (let i = 1; i < tokens.length; i++) {
    const w = lower[i]!;
    const prev = lower[i - 1]!;
    if (isDeterminerLike(prev) || PREPOSITIONS.has(prev)) continue;
    if ((w.endsWith('ly') && w.length > 4) || (w.endsWith('ed') && w.length > 4) || (w.endsWith('ing') && w.length > 5)) return i;
  }
  // "the lesion malignant", "fever persistent": a one-word subject and a one-word predicate.
  if (tokens.length === 3 && isDeterminerLike(lower[0])) return 2;
  return tokens.length === 2 ? 1 : -1;
}

/** Index (≥ 1) of the main verb after "does/did/can", or −1. */
function verbStart(tokens: string[]): number {
  const lower = tokens.map((t) => t.toLowerCase());
  if (lower[0] === 'the' && lower[1] === 'patient' && tokens.length > 2) return 2;
  if (lower[0] === 'patient' && tokens.length > 1) return 1;
  for (let i = 1; i < tokens.length; i++) if (VERB_BASE.has(lower[i]!) && !isDeterminerLike(lower[i - 1])) return i;
  // Unknown verb: assume a one-word subject after an optional determiner ("the pain radiate").
  const guess = isDeterminerLike(lower[0]) ? 2 : 1;
  return guess < tokens.length ? guess : -1;
}

/** Index (≥ 1) of the participle after "has/have", or −1. */
function participleStart(tokens: string[]): number {
  const lower = tokens.map((t) => t.toLowerCase());
  if (lower[0] === 'the' && lower[1] === 'patient' && tokens.length > 2) return 2;
  if (lower[0] === 'patient' && tokens.length > 1) return 1;
  for (let i = 1; i < tokens.length; i++) {
    const w = lower[i]!;
    if (isDeterminerLike(lower[i - 1]) || PREPOSITIONS.has(lower[i - 1]!)) continue;
    if (IRREGULAR_PP.has(w) || (w.endsWith('ed') && w.length > 3)) return i;
  }
  return -1;
}

function negateThere(rest: string): string {
  const m = /^(a|an|any|some)\s+/i.exec(rest);
  return `no ${m ? rest.slice(m[0].length) : rest}`;
}

function finish(s: string): string {
  const t = s
    .replace(new RegExp(VALUE_MARK, 'g'), '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.?!;:,]+$/, '');
  return `${capitalise(t)}.`;
}

/**
 * One English sentence. `clause` is the condition (labels stripped, pronouns neutralised), with
 * any chosen values already written in and marked with VALUE_MARK; `numeric` says a value was
 * written in, which makes the sentence affirmative whatever the outcome.
 */
export function declarativeEn(clause: string, outcome: 'yes' | 'no', numeric: boolean): StepSentence {
  const c = clause
    .trim()
    .replace(/[?？.。]+$/, '')
    .trim();
  const neg = outcome === 'no' && !numeric;
  const tokens = c.split(/\s+/).filter(Boolean);
  const aux = tokens[0]?.toLowerCase() ?? '';
  const rest = tokens.slice(1);
  const restText = rest.join(' ');
  const fallback = (x: string): StepSentence => ({
    text: neg ? finish(`It was not the case that ${lowerFirst(x)}`) : finish(`Findings showed that ${lowerFirst(x)}`),
    fallback: true,
  });
  if (['is', 'are', 'was', 'were'].includes(aux) && rest.length) {
    const be = aux === 'is' || aux === 'was' ? 'was' : 'were';
    if (rest[0]!.toLowerCase() === 'there') {
      const body = rest.slice(1).join(' ');
      return { text: finish(`There ${be} ${neg ? negateThere(body) : body}`), fallback: false };
    }
    const i = predicateStart(rest);
    if (i < 0) return fallback(restText);
    const subject = rest.slice(0, i).join(' ');
    return { text: finish(`${subject} ${be}${neg ? ' not' : ''} ${rest.slice(i).join(' ')}`), fallback: false };
  }
  if (['does', 'do', 'did', 'can', 'could'].includes(aux) && rest.length) {
    const i = verbStart(rest);
    if (i < 0) return fallback(restText);
    const subject = rest.slice(0, i).join(' ');
    const verb = rest[i]!;
    const after = rest.slice(i + 1).join(' ');
    const modal = aux === 'can' || aux === 'could';
    const predicate = modal ? `${neg ? 'could not' : 'could'} ${verb}` : neg ? `did not ${verb}` : pastTense(verb);
    return { text: finish(`${subject} ${predicate} ${after}`), fallback: false };
  }
  if (['has', 'have', 'had'].includes(aux) && rest.length) {
    const i = participleStart(rest);
    if (i < 0) return fallback(restText);
    const subject = rest.slice(0, i).join(' ');
    const pp = rest[i]!.toLowerCase();
    const after = rest.slice(i + 1).join(' ');
    // "Has the patient had X?" reads better as "The patient had X." than "had had X".
    const predicate = pp === 'had' ? (neg ? 'had not had' : 'had') : `${neg ? 'had not' : 'had'} ${rest[i]}`;
    return { text: finish(`${subject} ${predicate} ${after}`), fallback: false };
  }
  if (['will', 'would', 'should', 'may', 'might', 'must', 'shall'].includes(aux)) return fallback(c);
  // No auxiliary: "BMI ≥ 30 kg/m²" (value written in), "Fever present", or a bare noun phrase.
  const mark = c.indexOf(VALUE_MARK);
  if (numeric && mark > 0) {
    const cut = c.slice(0, mark).search(/(?:\s*(?:≥|>|≤|<|at least|more than|less than))?\s*$/);
    const subject = c.slice(0, cut).trim();
    if (subject) return { text: finish(`${subject} was ${c.slice(cut).trim()}`), fallback: false };
  }
  const presence = /^(.*\S)\s+(present|absent)$/i.exec(c);
  if (presence) return { text: finish(`${presence[1]} was${neg ? ' not' : ''} ${presence[2]}`), fallback: false };
  if (/^(?:there\s+(?:is|are|was|were))\b/i.test(c))
    return declarativeEn(c.replace(/^there\s+(is|are|was|were)/i, '$1 there'), outcome, numeric);
  return {
    text: neg ? finish(`Findings did not show ${lowerFirst(c)}`) : finish(`Findings showed ${lowerFirst(c)}`),
    fallback: true,
  };
}

const ZH_NOT_PREFIX = ['需要', '愿意', '符合', '属于', '满足', '适合', '伴有', '耐受', '能够', '能', '可', '会', '需', '应', '伴'];

function negateZh(post: string): string {
  if (post.startsWith('存在')) return `不${post}`;
  if (post.startsWith('有')) return `无${post.slice(1)}`;
  if (post.startsWith('是')) return `不${post}`;
  if (post.startsWith('为')) return `并非${post.slice(1)}`;
  if (post.startsWith('已')) return `未${post.slice(1)}`;
  for (const p of ZH_NOT_PREFIX) if (post.startsWith(p)) return `不${post}`;
  return `未${post}`;
}

function finishZh(s: string): string {
  return `${s
    .replace(new RegExp(VALUE_MARK, 'g'), '')
    .replace(/\s+/g, '')
    .replace(/[。？?！!，,；;]+$/, '')}。`;
}

function withPatient(s: string): string {
  return /^(该|此)?(患者|病人)/.test(s) ? s.replace(/^(该|此)?病人/, '患者').replace(/^(该|此)患者/, '患者') : `患者${s}`;
}

/** One Chinese sentence; same contract as `declarativeEn`. */
export function declarativeZh(clause: string, outcome: 'yes' | 'no', numeric: boolean): StepSentence {
  const c = clause
    .trim()
    .replace(/[?？。.]+$/, '')
    .replace(/吗$/, '')
    .trim();
  const neg = outcome === 'no' && !numeric;
  const idx = c.indexOf('是否');
  if (idx >= 0) {
    const pre = c.slice(0, idx);
    const post = c.slice(idx + 2);
    if (post) return { text: finishZh(withPatient(pre) + (neg ? negateZh(post) : post)), fallback: false };
  }
  if (c.includes('有无')) return { text: finishZh(withPatient(c.replace('有无', neg ? '无' : '有'))), fallback: false };
  if (numeric) return { text: finishZh(withPatient(c)), fallback: false };
  return {
    text: neg ? finishZh(`经评估，不存在以下情况：${c}`) : finishZh(`检查结果显示：${c}`),
    fallback: true,
  };
}
