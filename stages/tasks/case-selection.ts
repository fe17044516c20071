/**
 * Which test cases a smoke run (`cdp run --limit N`) evaluates: N cases spread over guidelines and
 * languages, chosen by hash so the same N are chosen on every machine and a larger N keeps the
 * smaller one's cases (a full run after a smoke run reuses every call the smoke run made).
 *
 * Order: languages take turns; within a language, guidelines take turns (in hash order); within a
 * guideline, cases in hash order. So 5 cases over 2 languages and 3 guidelines each come from 5
 * distinct guidelines, alternating languages.
 */
import { createHash } from 'node:crypto';

export interface CaseRef {
  cdp_id: string;
  guideline_id: string;
  language: string;
}

const rank = (s: string) => createHash('sha256').update(`cdp-case-order-v1\u0000${s}`).digest('hex');
const byRank =
  <T>(key: (x: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** Round-robin over groups until every element is taken: [[a1,a2],[b1]] → a1, b1, a2. */
function interleave<T>(groups: T[][]): T[] {
  const out: T[] = [];
  for (let r = 0; out.length < groups.reduce((n, g) => n + g.length, 0); r++) for (const g of groups) if (r < g.length) out.push(g[r]);
  return out;
}

/** Every case in smoke-run order; the first N are the `--limit N` selection. */
export function smokeOrder<T extends CaseRef>(cases: readonly T[]): T[] {
  const byLanguage = new Map<string, Map<string, T[]>>();
  for (const c of cases) {
    const g = byLanguage.get(c.language) ?? new Map<string, T[]>();
    byLanguage.set(c.language, g);
    const list = g.get(c.guideline_id) ?? [];
    g.set(c.guideline_id, list);
    list.push(c);
  }
  const languages = [...byLanguage.keys()].sort();
  return interleave(
    languages.map((l) => {
      const guidelines = [...byLanguage.get(l)!.entries()].sort(byRank(([id]) => rank(id)));
      return interleave(guidelines.map(([, list]) => [...list].sort(byRank((c) => rank(c.cdp_id)))));
    }),
  );
}

/** The ids of the first `limit` cases of smokeOrder (all when limit is null). */
export function selectCases<T extends CaseRef>(cases: readonly T[], limit: number | null): Set<string> {
  const ordered = smokeOrder(cases);
  return new Set((limit === null ? ordered : ordered.slice(0, limit)).map((c) => c.cdp_id));
}
