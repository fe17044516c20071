// Joining the lines of a paragraph back into running text.
//
// Hyphen rule, applied when a line ends in "<letter>-" and the next starts with a letter:
//   1. next line starts with an uppercase letter      -> keep the hyphen  (non-\nHispanic)
//   2. a digit on either side                         -> keep the hyphen  (COVID-\n19)
//   3. the document itself uses the word elsewhere, on one line, only in one form -> that form
//      ("treat-\nment" joins because "treatment" occurs; "follow-\nup" keeps because "follow-up" does)
//   4. a known compound part (follow-, self-, non-, ...; -up, -based, -term, -related, ...) -> keep
//   5. otherwise                                       -> join ("treat-\nment" -> "treatment")
// A soft hyphen (U+00AD) at a line end is always a break hyphen and is dropped.
// CJK: no space is inserted when either side of the break is a CJK character or CJK punctuation.

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;

export function isCjk(ch: string): boolean {
  return CJK.test(ch);
}

export const COMPOUND_FIRST = new Set([
  'self',
  'non',
  'well',
  'long',
  'short',
  'high',
  'low',
  'follow',
  'cross',
  'co',
  'multi',
  'all',
  'full',
  'half',
  'evidence',
  'first',
  'second',
  'third',
  'one',
  'two',
  'three',
  'part',
  'person',
  'patient',
  'dose',
  'age',
  'ex',
  'in',
  'out',
  'post',
  'pre',
  'anti',
  'semi',
  'inter',
  'intra',
  'end',
  'single',
  'double',
  'near',
  'far',
  'over',
  'under',
  'quasi',
  'short',
  'mid',
  'up',
  'x',
  'health',
  'life',
  'time',
  'risk',
  'extended',
  'immediate',
]);

export const COMPOUND_SECOND = new Set([
  'up',
  'ups',
  'based',
  'term',
  'related',
  'specific',
  'like',
  'free',
  'induced',
  'dependent',
  'centered',
  'centred',
  'making',
  'level',
  'year',
  'years',
  'month',
  'months',
  'week',
  'weeks',
  'day',
  'days',
  'old',
  'time',
  'care',
  'risk',
  'income',
  'effective',
  'wide',
  'associated',
  'line',
  'release',
  'acting',
  'reported',
  'limiting',
  'threatening',
  'being',
  'oriented',
  'sensitive',
  'approved',
  'controlled',
  'blind',
  'analysis',
  'matched',
  'adjusted',
  'led',
  'specific',
  'resistant',
  'onset',
  'off',
  'in',
  'out',
  'down',
  'over',
  'to',
  'and',
  'or',
]);

/** How often each word occurs unbroken and hyphenated within single lines of the document. */
export interface HyphenVocabulary {
  joined: Map<string, number>;
  hyphenated: Map<string, number>;
}

const WORD = /\p{L}[\p{L}\p{M}]*(?:-\p{L}[\p{L}\p{M}]*)*/gu;

export function buildVocabulary(lines: Iterable<string>): HyphenVocabulary {
  const joined = new Map<string, number>();
  const hyphenated = new Map<string, number>();
  for (const line of lines) {
    // A line-final "treat-" is a break, not a word.
    const text = line.replace(/\p{L}-\s*$/u, (m) => m[0]!);
    for (const m of text.matchAll(WORD)) {
      const w = m[0].toLowerCase();
      const map = w.includes('-') ? hyphenated : joined;
      map.set(w, (map.get(w) ?? 0) + 1);
    }
  }
  return { joined, hyphenated };
}

export const EMPTY_VOCABULARY: HyphenVocabulary = { joined: new Map(), hyphenated: new Map() };

/** Whether "before-" at a line end and "after" at the next line's start keep their hyphen. */
export function keepsHyphen(before: string, after: string, vocab: HyphenVocabulary): boolean {
  if (/^\p{Lu}/u.test(after)) return true;
  if (/\d$/.test(before) || /^\d/.test(after)) return true;
  const lastPart = before.split('-').pop()!.toLowerCase();
  const a = after.toLowerCase();
  const hyph = `${before.toLowerCase()}-${a}`;
  const joinedN = vocab.joined.get(before.toLowerCase().replace(/-/g, '') + a) ?? vocab.joined.get(lastPart + a) ?? 0;
  const hyphN = vocab.hyphenated.get(hyph) ?? 0;
  if (hyphN > joinedN) return true;
  if (joinedN > hyphN) return false;
  return COMPOUND_FIRST.has(lastPart) || COMPOUND_SECOND.has(a);
}

/** Appends a line to running text with the hyphen, dash and CJK rules above. */
export function joinLine(text: string, next: string, vocab: HyphenVocabulary): string {
  const a = text.replace(/\s+$/, '');
  const b = next.replace(/^\s+/, '');
  if (!a) return b;
  if (!b) return a;
  if (a.endsWith('\u00ad')) return a.slice(0, -1) + b;
  // Only the tail matters; matching the whole paragraph again for every line is quadratic.
  const hy = /([\p{L}][\p{L}\p{M}-]*)-$/u.exec(a.slice(-80));
  const first = /^[\p{L}][\p{L}\p{M}]*/u.exec(b);
  if (hy && first) {
    return keepsHyphen(hy[1]!, first[0], vocab) ? a + b : a.slice(0, -1) + b;
  }
  // "0000-\n0001", "2003–\n2014": a hyphen or dash between digits stays, with no space.
  if (/\d[-–]$/.test(a) && /^\d/.test(b)) return a + b;
  const last = a[a.length - 1]!;
  if (/[–—/]/.test(last) || /^[–—]/.test(b)) return a + b;
  if (isCjk(last) || isCjk(b[0]!)) return a + b;
  return a + ' ' + b;
}

export function joinLines(lines: string[], vocab: HyphenVocabulary): string {
  let text = '';
  for (const l of lines) text = joinLine(text, l, vocab);
  return text.replace(/\u00ad/g, '');
}
