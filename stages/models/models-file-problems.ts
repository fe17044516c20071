/**
 * The models file schema's issues as problems a reader can act on: each names the model (by its
 * name and entry number, or the entry number alone), the field and what is wrong; an unknown key
 * says which known one it probably meant. Top-level problems come first, then each entry's.
 */
import type { z } from 'zod';
import { closestName } from '../../pipeline/dag/params.ts';
import { ModelEntrySchema, PRICE_MESSAGE, TOP_KEYS } from './models-schema.ts';

const ENTRY_KEYS = Object.keys(ModelEntrySchema.shape);
const RETRY_KEYS = ['waitForServerMs', 'maxAttempts'];

// The runner's one did-you-mean rule, so a typo in the models file is hinted as in dag.config.ts.
function closest(word: string, known: readonly string[]): string {
  const hit = closestName(word, known);
  return hit ? ` (did you mean "${hit}"?)` : '';
}

function label(entry: unknown, i: number): string {
  const n = (entry as { name?: unknown } | null)?.name;
  return typeof n === 'string' && n.trim() ? `model ${JSON.stringify(n.trim())} (entry ${i + 1})` : `entry ${i + 1}`;
}

/** The problems of one issue, as the old validator worded them (one a key for unknown keys). */
function entryProblems(issue: z.core.$ZodIssue, entry: unknown, i: number): string[] {
  const [field, ...rest] = issue.path.slice(2).map(String);
  const at = label(entry, i);
  if (field === undefined) {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => `${at}: field "${k}": unknown key${closest(k, ENTRY_KEYS)}; known: ${ENTRY_KEYS.join(', ')}`);
    }
    return [`${at}: ${issue.message}`];
  }
  if (field === 'price') return [`${at}: field "price": ${PRICE_MESSAGE((entry as { price?: unknown }).price)}`];
  if (field === 'retry' && !rest.length && issue.code === 'unrecognized_keys') {
    return [`${at}: field "retry": unknown key "${issue.keys[0]}"${closest(issue.keys[0], RETRY_KEYS)}; known: ${RETRY_KEYS.join(', ')}`];
  }
  if (field === 'judge' && !rest.length && issue.code === 'unrecognized_keys') {
    return [
      `${at}: field "judge": unknown key "${issue.keys[0]}"; a judge's calibration has "gamma" (LNDS threshold) and "beta" (OT positional weight)`,
    ];
  }
  return [`${at}: field "${field}": ${issue.message}`];
}

function topProblems(issue: z.core.$ZodIssue): string[] {
  if (issue.path.length === 0 && issue.code === 'unrecognized_keys') {
    return issue.keys.map((k) => `unknown top-level key "${k}"${closest(k, TOP_KEYS)}; known: ${TOP_KEYS.join(', ')}`);
  }
  if (issue.path.length === 0 && issue.code === 'invalid_type') return ['must be a JSON object {"models": [...]} or an array of models'];
  return [issue.message];
}

/** Every problem of a models file, once each, top-level ones first, then entry by entry. */
export function modelsFileProblems(issues: readonly z.core.$ZodIssue[], doc: { models?: unknown }): string[] {
  const top: string[] = [];
  const byEntry = new Map<number, string[]>();
  for (const issue of issues) {
    const i = issue.path[0] === 'models' && typeof issue.path[1] === 'number' ? issue.path[1] : null;
    if (i === null) top.push(...topProblems(issue));
    else byEntry.set(i, [...(byEntry.get(i) ?? []), ...entryProblems(issue, (doc.models as unknown[])[i], i)]);
  }
  const entries = [...byEntry].sort((a, b) => a[0] - b[0]).flatMap(([, p]) => p);
  return [...new Set([...top, ...entries])];
}
