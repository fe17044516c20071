/**
 * Checking that a quoted evidence sentence really is in the guideline. Models reproduce
 * sentences faithfully but not byte for byte: the Markdown from OCR has emphasis markers,
 * line breaks inside sentences, citation markers and a mix of typographic conventions the
 * model does not copy. So both sides are normalised the same way and compared by substring.
 *
 * `normaliseForMatch` applies, in this order:
 *  1. Unicode NFKC: full-width ASCII forms (，：；（）？！ＡＢ１２) become half-width, the
 *     ideographic space and no-break spaces become spaces, ligatures and "…" are expanded,
 *     superscript digits become digits (so "m²" matches "m2").
 *     Zero-width characters and soft hyphens are removed.
 *  2. Citation markers: numeric brackets such as `[12]`, `[3, 4]`, `[5-7]`, numeric
 *     `<sup>12</sup>` and LaTeX superscripts such as `$^{12}$` are removed, since guidelines
 *     put them inside sentences and models leave them out.
 *  3. Markdown and markup: other HTML tags (br, sup, sub, span, …) become a space; links
 *     `[text](url)` become their text; at the start of a line, heading markers (`#`…`######`),
 *     blockquote markers (`>`) and list bullets (`-`, `+`, `*`) are removed; everywhere, the
 *     emphasis/code characters `*`, `_` and backtick are removed.
 *  4. Punctuation folding: curly and other single quotes (‘ ’ ‚ ‛ ′) → `'`; curly double
 *     quotes, 〝〞, « » and the CJK corner brackets 「」『』 → `"`; every dash and minus
 *     (U+2010–U+2015, U+2043, U+2212, U+FE58, U+FE63) → `-`, runs of `-` → one `-`;
 *     CJK full stop 。→ `.`, enumeration comma 、→ `,`, 【】→ `[]`, 〔〕→ `()`, wave dash 〜 → `~`.
 *  5. Case: `toLowerCase()` (folds Latin, and also Greek and Cyrillic; CJK has no case).
 *  6. Whitespace: every run of whitespace becomes one space; whitespace next to a CJK
 *     character (Han, kana, CJK symbols) is removed, because OCR breaks Chinese lines where
 *     the model writes none; spaces before `. , ; : ! ? ) ] %` and after `( [` are removed, as is a
 *     space between a digit and a Latin letter ("140 mmHg" = "140mmHg"); the result is trimmed.
 * What it does not do: it does not join words hyphenated across lines, drop other LaTeX, or
 * tolerate omitted or reworded words — those quotes count as not found, which is what the
 * verbatim rate is meant to measure.
 */

const HTML_TAG = /<\/?(?:br|sup|sub|span|p|div|b|i|u|em|strong|td|tr|th|table|thead|tbody|font|center)\b[^>]*>/gi;
const LINK = /!?\[([^\]\n]*)\]\([^)\n]*\)/g;
const LINE_START_MARKERS = /^[ \t]*(?:#{1,6}(?=[ \t]|$)|>+|[-+*](?=[ \t]))[ \t]*/gm;
const EMPHASIS = /[*_`]/g;
const CITATION = /<sup>\s*[\d,\s\-–]+\s*<\/sup>|\[\s*\d+(?:\s*[-,–]\s*\d+)*\s*\]|\$\s*\^\s*\{?[\d,\s\-–]+\}?\s*\$/g;
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\u00ad]/g;

const FOLD: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u301d': '"',
  '\u301e': '"',
  '\u00ab': '"',
  '\u00bb': '"',
  '\u300c': '"',
  '\u300d': '"',
  '\u300e': '"',
  '\u300f': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2043': '-',
  '\u2212': '-',
  '\ufe58': '-',
  '\ufe63': '-',
  '\u3002': '.',
  '\u3001': ',',
  '\u3010': '[',
  '\u3011': ']',
  '\u3014': '(',
  '\u3015': ')',
  '\u301c': '~',
};
const FOLDABLE = new RegExp(`[${Object.keys(FOLD).join('')}]`, 'g');

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f';
const SPACE_NEXT_TO_CJK = new RegExp(`\\s+(?=[${CJK}])|(?<=[${CJK}])\\s+`, 'gu');
const SPACE_BEFORE_CLOSER = / (?=[.,;:!?)\]%])/g;
const SPACE_AFTER_OPENER = /(?<=[([]) /g;
const SPACE_BEFORE_UNIT = /(?<=\d) (?=[a-z])/g;

export function normaliseForMatch(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(CITATION, '')
    .replace(HTML_TAG, ' ')
    .replace(LINK, '$1')
    .replace(LINE_START_MARKERS, '')
    .replace(EMPHASIS, '')
    .replace(FOLDABLE, (c) => FOLD[c]!)
    .replace(/-{2,}/g, '-')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(SPACE_NEXT_TO_CJK, '')
    .replace(SPACE_BEFORE_CLOSER, '')
    .replace(SPACE_AFTER_OPENER, '')
    .replace(SPACE_BEFORE_UNIT, '')
    .trim();
}

export interface EvidenceMatcher {
  /** True when the quote, normalised, occurs in the normalised guideline. Empty quotes never match. */
  contains(quote: string): boolean;
}

/** Normalises the guideline once; each lookup then costs one normalisation and one indexOf. */
export function createEvidenceMatcher(markdown: string): EvidenceMatcher {
  const haystack = normaliseForMatch(markdown);
  return {
    contains(quote: string): boolean {
      const needle = normaliseForMatch(quote);
      return needle.length > 0 && haystack.includes(needle);
    },
  };
}
