/**
 * How the benchmark was built, as counts from the construction stages' rows (CPGBench §2.2,
 * §4.1–4.3: 6,115 documents → 4,792 bona fide CPGs → 3,418 from 2015 on → 32,155
 * recommendations → 6,632 safety-critical; one conversation each). Every count is read from the
 * rows; a failure is a count of its own, never folded into an exclusion.
 */
import type { Row } from '../../../pipeline/stage.ts';

export interface ConstructionCount {
  step: string;
  count: number;
  /** What the count is, and the settings the rows recorded (minimum year, token cut, writer). */
  detail: string;
}

const distinct = (rows: readonly Row[], k: string) =>
  [
    ...new Set(
      rows
        .map((r) => r[k])
        .filter((v) => v !== null && v !== undefined)
        .map(String),
    ),
  ].sort();

export function constructionSummary(inputs: Record<string, readonly Row[]>): ConstructionCount[] {
  const docs = inputs.cpg_documents ?? [];
  const ok = docs.filter((d) => d.error == null);
  const notCpg = ok.filter((d) => d.bona_fide === false);
  const years = distinct(ok, 'min_year');
  const early = ok.filter((d) => d.included === false && d.bona_fide !== false);
  const recs = inputs.cpg_recommendations ?? [];
  const safety = inputs.cpg_safety ?? [];
  const convs = inputs.cpg_conversations ?? [];
  const items = (inputs.cpg_task_inputs ?? []).filter((r) => r.error == null);
  const out: ConstructionCount[] = [
    { step: 'documents', count: docs.length, detail: 'ingested guideline documents' },
    { step: 'documents failed', count: docs.length - ok.length, detail: 'ingestion or a builder call failed (cpg_documents.error)' },
    {
      step: 'not bona fide CPGs',
      count: notCpg.length,
      detail: `excluded by the filter (sources: ${distinct(notCpg, 'bona_fide_source').join(', ') || 'none'})`,
    },
    {
      step: 'unchecked documents',
      count: ok.filter((d) => d.bona_fide === null).length,
      detail: 'kept without a bona fide check (no value in guidelines.csv, no builder)',
    },
    { step: 'excluded by year', count: early.length, detail: `published before ${years.join('/') || '—'} or in an unknown year` },
    {
      step: 'cut documents',
      count: ok.filter((d) => d.cut === true).length,
      detail: `longer than ${distinct(ok, 'max_tokens').join('/') || '—'} tokens, cut there`,
    },
    {
      step: 'included documents',
      count: ok.filter((d) => d.included === true).length,
      detail: 'bona fide (or unchecked) CPGs from the minimum year on',
    },
    {
      step: 'recommendations',
      count: recs.filter((r) => r.error == null).length,
      detail: `extracted or imported (sources: ${distinct(recs, 'source').join(', ') || 'none'})`,
    },
    {
      step: 'recommendation failures',
      count: recs.filter((r) => r.error != null).length,
      detail: 'documents whose recommendations could not be imported or extracted',
    },
    {
      step: 'safety-critical',
      count: safety.filter((s) => s.safety_critical === true).length,
      detail: `selected (sources: ${distinct(safety, 'source').join(', ') || 'none'})`,
    },
    {
      step: 'safety unknown',
      count: safety.filter((s) => s.error == null && s.safety_critical == null).length,
      detail: 'not selected: no shipped flag and no builder',
    },
    {
      step: 'conversation failures',
      count: convs.filter((c) => c.error != null).length,
      detail: 'no conversation passed the format checks within the regeneration limit',
    },
    {
      step: 'regenerated conversations',
      count: convs.filter((c) => c.error == null && Number(c.attempts) > 1).length,
      detail: `passed after a regeneration (writers: ${distinct(convs, 'writer').join(', ') || 'none'})`,
    },
    { step: 'benchmark items', count: items.length, detail: "recommendations with a conversation: the rates' denominator" },
  ];
  return out;
}
