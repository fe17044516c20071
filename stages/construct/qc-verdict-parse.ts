/**
 * Reads the QC inspector's verdict: a JSON object {"consistent": true|false, "problems": [...]}
 * (qc-inspection-prompt.ts). The JSON is dug out of fences, preambles and reasoning blocks, with
 * trailing commas and comments allowed (extractJson); "consistent": "true"/"false" written as a
 * string is read as the boolean ('lenient-json:string-boolean'). A truncated answer
 * (finish_reason "length") is refused as such. Faults: no JSON object, a missing or non-boolean
 * `consistent`, `problems` not a list of strings, and a self-contradicting verdict (inconsistent
 * with no problem named, or consistent with problems listed).
 */
import { type AnswerFormat, extractJson, formatOf, type FormatVariant, variantsOf } from '../../pipeline/stage.ts';

export type QcVerdictParse =
  { ok: true; consistent: boolean; problems: string[]; format: AnswerFormat } | { ok: false; problems: string[] };

export function parseQcVerdict(text: string, finishReason?: string | null): QcVerdictParse {
  const j = extractJson(text, { finishReason });
  if (!j.ok) return { ok: false, problems: [j.problem] };
  const v = j.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return { ok: false, problems: ['the answer must be a JSON object {"consistent": true|false, "problems": [...]}'] };
  }
  const o = v as Record<string, unknown>;
  const variants: FormatVariant[] = variantsOf(j.format);
  const faults: string[] = [];
  let consistent: boolean | undefined;
  if (typeof o.consistent === 'boolean') consistent = o.consistent;
  else if (typeof o.consistent === 'string' && /^\s*(true|false)\s*$/i.test(o.consistent)) {
    consistent = o.consistent.trim().toLowerCase() === 'true';
    variants.push('lenient-json:string-boolean');
  } else {
    faults.push(`"consistent" is ${o.consistent === undefined ? 'missing' : JSON.stringify(o.consistent)}; it must be true or false`);
  }
  const listed = o.problems;
  if (!Array.isArray(listed) || !listed.every((p) => typeof p === 'string')) {
    faults.push(
      `"problems" is ${listed === undefined ? 'missing' : 'not a list of strings'}; give a list of strings (empty when consistent)`,
    );
  }
  if (faults.length) return { ok: false, problems: faults };
  const problems = (listed as string[]).map((p) => p.trim()).filter((p) => p !== '');
  if (consistent === false && problems.length === 0) {
    return { ok: false, problems: ['"consistent" is false but no problem is listed; name each problem found, or answer consistent: true'] };
  }
  if (consistent === true && problems.length > 0) {
    return {
      ok: false,
      problems: [`"consistent" is true but ${problems.length} problem(s) are listed; answer consistent: false, or give an empty list`],
    };
  }
  return { ok: true, consistent: consistent!, problems, format: formatOf(variants) };
}
