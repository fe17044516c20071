/**
 * Readers of the builder's short answers to CPGBench's construction prompts, each an
 * AnswerParser for askStructured (a fault is re-asked with its problem):
 *   Prompt 1 {"country"}, Prompt 2 {"bona_fide_cpg"}, Prompt 3 {"safety_critical"},
 *   Prompt 5 {"title", "institute", "publication_date"}, Prompt 6 {"specialty"}.
 * JSON is read as every reader reads it (read/structured-answer.ts); a boolean written "true" or
 * "yes" is accepted and labelled.
 */
import { formatOf, type FormatVariant, type ParseOutcome } from '../../../pipeline/stage.ts';
import { readStructuredAnswer } from '../read/structured-answer.ts';
import { PAPER_REGIONS, canonicalSpecialty } from './taxonomy.ts';

function objectOf(
  text: string,
  finishReason: string | undefined,
  shape: string,
): { o: Record<string, unknown>; variants: FormatVariant[] } | string {
  const r = readStructuredAnswer(text, finishReason);
  if (!r.ok) return r.problem;
  if (r.value === null || typeof r.value !== 'object' || Array.isArray(r.value)) return `the answer must be one JSON object ${shape}`;
  return { o: r.value as Record<string, unknown>, variants: [...r.variants] };
}

function flag(o: Record<string, unknown>, key: string, variants: FormatVariant[]): boolean | string {
  const v = o[key];
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^\s*(true|false)\s*$/i.test(v)) {
    variants.push('lenient-json:string-boolean');
    return /true/i.test(v);
  }
  if (typeof v === 'string' && /^\s*(yes|no)\s*$/i.test(v)) {
    variants.push('yes-no-synonym');
    return /yes/i.test(v);
  }
  return `"${key}" is ${v === undefined ? 'missing' : JSON.stringify(v)}; it must be true or false`;
}

const bool =
  (key: string): ((text: string, finishReason?: string) => ParseOutcome<boolean>) =>
  (text, finishReason) => {
    const got = objectOf(text, finishReason, `{"${key}": true or false, …}`);
    if (typeof got === 'string') return { ok: false, problems: [got] };
    const v = flag(got.o, key, got.variants);
    return typeof v === 'string' ? { ok: false, problems: [v] } : { ok: true, value: v, format: formatOf(got.variants) };
  };

/** Prompt 2. */
export const parseBonaFide = bool('bona_fide_cpg');
/** Prompt 3. */
export const parseSafetyCritical = bool('safety_critical');

/** Prompt 1: one of the paper's regions (any case), or "Other: <name>", kept as the name. */
export function parseCountry(text: string, finishReason?: string): ParseOutcome<string> {
  const got = objectOf(text, finishReason, '{"country": …}');
  if (typeof got === 'string') return { ok: false, problems: [got] };
  const v = got.o.country;
  if (typeof v !== 'string' || !v.trim())
    return { ok: false, problems: [`"country" is ${JSON.stringify(v)}; name one of ${PAPER_REGIONS.join(', ')}, or Other: <name>`] };
  const known = PAPER_REGIONS.find((r) => r.toLowerCase() === v.trim().toLowerCase());
  const other = /^other\s*:\s*(.+)$/i.exec(v.trim())?.[1]?.trim();
  if (!known && !other)
    return { ok: false, problems: [`"country" is "${v}"; name one of ${PAPER_REGIONS.join(', ')}, or write Other: ${v}`] };
  if (known && known !== v.trim()) got.variants.push('case');
  return { ok: true, value: known ?? other!, format: formatOf(got.variants) };
}

/** Prompt 6: one of the 24 ABMS specialties or Other. */
export function parseSpecialty(text: string, finishReason?: string): ParseOutcome<string> {
  const got = objectOf(text, finishReason, '{"specialty": …}');
  if (typeof got === 'string') return { ok: false, problems: [got] };
  const v = got.o.specialty;
  const s = typeof v === 'string' ? canonicalSpecialty(v) : null;
  if (!s) return { ok: false, problems: [`"specialty" is ${JSON.stringify(v)}, not one of the 24 ABMS specialties listed, nor Other`] };
  if (s !== v) got.variants.push('case');
  return { ok: true, value: s, format: formatOf(got.variants) };
}

export interface DocumentInfo {
  title: string | null;
  institute: string | null;
  /** As written: YYYY-MM-DD, YYYY-MM or YYYY. */
  date: string | null;
  year: number | null;
}

/** Prompt 5. A date must start with a four-digit year between 1900 and 2100. */
export function parseDocumentInfo(text: string, finishReason?: string): ParseOutcome<DocumentInfo> {
  const got = objectOf(text, finishReason, '{"title", "institute", "publication_date"}');
  if (typeof got === 'string') return { ok: false, problems: [got] };
  const str = (k: string) => (typeof got.o[k] === 'string' && (got.o[k] as string).trim() ? (got.o[k] as string).trim() : null);
  const problems = ['title', 'institute', 'publication_date']
    .filter((k) => got.o[k] !== null && got.o[k] !== undefined && typeof got.o[k] !== 'string')
    .map((k) => `"${k}" must be a string or null, got ${JSON.stringify(got.o[k])}`);
  const date = str('publication_date');
  const year = date ? Number(/^(\d{4})(?:-\d{2}){0,2}$/.exec(date)?.[1] ?? NaN) : null;
  if (date && !(year! >= 1900 && year! <= 2100)) problems.push(`"publication_date" is "${date}"; write it as YYYY-MM-DD, YYYY-MM or YYYY`);
  if (problems.length) return { ok: false, problems };
  return { ok: true, value: { title: str('title'), institute: str('institute'), date, year }, format: formatOf(got.variants) };
}
