/**
 * Lexical matching for the offline agents: which words of a condition a vignette clause
 * shares, whether a clause is negated, and how alike two questions are. Deliberately simple
 * and documented, because the offline agents are baselines and ground-truth generators, not
 * language models.
 *
 * Tokens (`contentTokens`):
 * - English words are lower-cased; a possessive "'s" and a plural "s" are dropped (not after
 *   "ss", "us", "is"), and words longer than 6 letters are cut to their first 6 ("diabetes" and
 *   "diabetic" → "diabet", "pregnant"/"pregnancy" → "pregna"), a crude stem that is enough for
 *   restated conditions.
 * - Numbers are tokens ("140", "27.5"); comparison signs are not.
 * - Chinese (Han) runs become character bigrams (a one-character run stays one token), after
 *   question scaffolding, pronouns and generic verbs (是否, 有无, 患者, 病人, 他, 她, 存在, 出现, 伴有, 吗, 的 …) are
 *   cut out, so that bigrams spanning "存在|日间" do not dilute the overlap.
 * - Question scaffolding and negation cues are not content: auxiliaries, articles, "patient",
 *   "is it true that" (what `asYesNoQuestion` adds), prepositions, gendered pronouns (the
 *   offline vignette writer replaces them by "the patient"); negation words are read by
 *   `isNegated` instead.
 *
 * Negation (`isNegated`): a clause is negated when it holds an odd number of cues — English
 * no, not, n't, without, denied/denies/deny, absent, negative, never, none, neither, nor, free of,
 * ruled out; Chinese 无, 否, 未, 没有, 不, 非, 并非, 排除 (after 是否 and 有无 are removed, so a
 * question's own "whether" does not count). Two cues cancel ("not absent"), a rough but stable
 * reading of double negation.
 */

const EN_STOP = new Set(
  (
    'is are was were be been being am do does did has have had can could will would should may might must shall ' +
    'the a an patient patients person individual any some there this that these those it its their they them ' +
    'of in on at to for with by from and or as than into about whether which who what when if true case ' +
    'currently current findings showed show shows finding he she him her his hers himself herself'
  ).split(' '),
);

const EN_NEGATION =
  /\b(?:no|not|without|denied|denies|deny|denying|absent|negative|never|none|neither|nor)\b|n['’]t\b|\bfree of\b|\bruled out\b/gi;
const EN_NEGATION_WORDS = new Set([
  'no',
  'not',
  'without',
  'denied',
  'denies',
  'deny',
  'denying',
  'absent',
  'negative',
  'never',
  'none',
  'neither',
  'nor',
]);

const ZH_SCAFFOLD = /是否|有无|该患者|患者|病人|他们|她们|他|她|目前|当前|存在|出现|伴有|具有|发生|吗|呢|么|的|了|其/g;
const ZH_NEGATION = /没有|并非|排除|无|否|未|不|非/g;

/** Lower-case stem of one English word, as described in the module comment. */
export function stemEn(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, '');
  if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  return w.length > 6 ? w.slice(0, 6) : w;
}

/** Content tokens of a text (see the module comment); duplicates removed, order kept. */
export function contentTokens(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (t: string) => {
    if (t !== '' && !seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  };
  // Multi-word negation cues carry no content ("free of diabetes" is about diabetes).
  const lowered = text.normalize('NFKC').replace(/\bfree of\b|\bruled out\b/gi, ' ');
  for (const m of lowered.matchAll(/\d+(?:\.\d+)?|[A-Za-z][A-Za-z0-9'’-]*|[\u3400-\u9fff]+/g)) {
    const tok = m[0];
    if (/^\d/.test(tok)) add(String(Number(tok)));
    else if (/^[A-Za-z]/.test(tok)) {
      for (const part of tok.split('-')) {
        const lw = part.toLowerCase().replace(/['’]s$/, '');
        if (lw === '' || EN_STOP.has(lw) || EN_NEGATION_WORDS.has(lw) || /n['’]t$/.test(lw)) continue;
        add(stemEn(lw));
      }
    } else {
      const cleaned = tok.replace(ZH_SCAFFOLD, ' ').replace(ZH_NEGATION, ' ');
      for (const run of cleaned.split(/\s+/)) {
        if (run.length === 1) add(run);
        for (let i = 0; i + 1 < run.length; i++) add(run.slice(i, i + 2));
      }
    }
  }
  return out;
}

/** The numbers a text mentions, as normalised strings ("140", "27.5"). */
export function numbersOf(text: string): string[] {
  return [...new Set([...text.normalize('NFKC').matchAll(/\d+(?:\.\d+)?/g)].map((m) => String(Number(m[0]))))];
}

/** Number of negation cues in a text (Chinese question words 是否/有无 excluded). */
export function negationCount(text: string): number {
  const en = text.match(EN_NEGATION)?.length ?? 0;
  const zh = text.replace(/是否|有无/g, ' ').match(ZH_NEGATION)?.length ?? 0;
  return en + zh;
}

export function isNegated(text: string): boolean {
  return negationCount(text) % 2 === 1;
}

/**
 * Clauses of a vignette: sentences (. ! ? ; and their full-width forms, but not a decimal
 * point), further cut before "but", "whereas", "while", "although" and 但/但是/而, so that
 * "had diabetes but did not have CKD" yields two clauses with their own polarity.
 */
export function clausesOf(text: string): string[] {
  const sentences = text
    .replace(/\s+/g, ' ')
    .split(/(?<=[!?;。！？；])|(?<=\.)(?!\d)/)
    .map((s) => s.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const s of sentences) {
    for (const part of s.split(/,?\s+(?=\b(?:but|whereas|while|although)\b)|[，,]\s*(?=但|而)/i)) {
      const t = part.trim();
      if (t !== '' && contentTokens(t).length + numbersOf(t).length > 0) out.push(t);
    }
  }
  return out;
}

/** Share of `query`'s content tokens found among `target`'s (0 when the query has none). */
export function coverage(query: readonly string[], target: readonly string[]): number {
  if (query.length === 0) return 0;
  const t = new Set(target);
  let hit = 0;
  for (const q of query) if (t.has(q)) hit++;
  return hit / query.length;
}

/** Dice coefficient of two token sets: 2|A∩B| / (|A| + |B|). */
export function dice(a: readonly string[], b: readonly string[]): number {
  if (a.length + b.length === 0) return 0;
  const sb = new Set(b);
  let hit = 0;
  for (const x of new Set(a)) if (sb.has(x)) hit++;
  return (2 * hit) / (new Set(a).size + sb.size);
}

/** Case- and whitespace-insensitive form used for exact question matching (final ?/？ dropped). */
export function normaliseQuestion(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[?？.。]+$/, '')
    .trim()
    .toLowerCase();
}

export function hasHan(text: string): boolean {
  return /\p{Script=Han}/u.test(text);
}
