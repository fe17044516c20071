/**
 * A guideline's recommendations as Prompt 4 returns them, or as a corpus ships them
 * (DIR/recommendations/<id>.json): both are checked here, the same way.
 *
 *   {"recommendations": [{"recommendation", "strength", "evidence_level", "context", "action", "goal"}, …]}
 *
 * A shipped file may also give each recommendation `"safety_critical": true | false` (then the
 * safety selection imports it instead of asking Prompt 3). Faults: not that object, no
 * recommendation, an item without its text or action, a field that is not a string. Whether the
 * recommendation's text is found in the document (after folding case, spaces and emphasis) is
 * recorded per recommendation (`verbatim`), not a fault: the paper's clinicians checked the
 * extracted content, not its wording.
 */

export interface Recommendation {
  recommendation: string;
  strength: string;
  evidence_level: string;
  context: string;
  action: string;
  goal: string;
  safety_critical: boolean | null;
  verbatim: boolean;
}

export type RecommendationsCheck = { ok: true; recommendations: Recommendation[] } | { ok: false; problems: string[] };

const TEXT_FIELDS = ['recommendation', 'strength', 'evidence_level', 'context', 'action', 'goal'] as const;
const REQUIRED = new Set(['recommendation', 'action']);

const fold = (s: string) =>
  s
    .normalize('NFKC')
    .replace(/[*_`#>]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

function item(x: unknown, i: number, folded: string, allowSafety: boolean): Recommendation | string[] {
  const at = `recommendation ${i + 1}`;
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return [`${at} is not an object with ${TEXT_FIELDS.join(', ')}`];
  const o = x as Record<string, unknown>;
  const problems: string[] = [];
  const out: Record<string, string> = {};
  for (const f of TEXT_FIELDS) {
    const v = o[f];
    if (v === undefined || v === null) {
      if (REQUIRED.has(f)) problems.push(`${at} has no "${f}"`);
      out[f] = '(none)';
    } else if (typeof v !== 'string') problems.push(`${at}: "${f}" must be a string, got ${JSON.stringify(v)}`);
    else if (REQUIRED.has(f) && v.trim() === '') problems.push(`${at}: "${f}" is empty`);
    else out[f] = v.trim() || '(none)';
  }
  const s = o.safety_critical;
  if (s !== undefined && (!allowSafety || typeof s !== 'boolean'))
    problems.push(
      allowSafety ? `${at}: "safety_critical" must be true or false` : `${at}: "safety_critical" is not part of Prompt 4's answer`,
    );
  if (problems.length) return problems;
  const verbatim = folded.includes(fold(out.recommendation!));
  return { ...(out as Omit<Recommendation, 'safety_critical' | 'verbatim'>), safety_critical: typeof s === 'boolean' ? s : null, verbatim };
}

/** `shipped`: a corpus file (which may carry safety flags) rather than the builder's answer. */
export function checkRecommendations(value: unknown, markdown: string, opts: { shipped?: boolean } = {}): RecommendationsCheck {
  const shape = '{"recommendations": [{"recommendation", "strength", "evidence_level", "context", "action", "goal"}, …]}';
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, problems: [`the answer must be one JSON object ${shape}`] };
  const o = value as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'recommendations');
  if (opts.shipped && extra.length) return { ok: false, problems: [`unknown key(s) ${extra.join(', ')}; the file holds ${shape}`] };
  const list = o.recommendations;
  if (!Array.isArray(list))
    return { ok: false, problems: [`"recommendations" is ${list === undefined ? 'missing' : 'not a list'}; answer ${shape}`] };
  if (list.length === 0)
    return { ok: false, problems: ['no recommendation was extracted; list every core clinical recommendation of the document'] };
  const folded = fold(markdown);
  const recommendations: Recommendation[] = [];
  const problems: string[] = [];
  list.forEach((x, i) => {
    const r = item(x, i, folded, !!opts.shipped);
    if (Array.isArray(r)) problems.push(...r);
    else recommendations.push(r);
  });
  return problems.length ? { ok: false, problems } : { ok: true, recommendations };
}
