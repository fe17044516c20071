/**
 * CPGBench's prompts, as numbered in its paper (Appendix A): 1–6 filter documents and extract
 * information, 7/8/9 generate the English, German and Chinese conversations, 10–14 evaluate.
 * The paper prints none of their text, only what each takes and returns (§4.1–4.5); every
 * template here was written for this project from that description, and is marked so
 * (provenance 'written-for-this-project', and the header of each file). See
 * templates/CPGBENCH.md for what each follows in the paper.
 *
 * Prompt 11 is not described anywhere in the paper (the adherence task sends no instruction at
 * all, §4.5), so nothing is registered under its number.
 */
import type { PromptSpec } from './prompt-registry.ts';

export const CPG_PROMPT_IDS = [
  'cpg-country',
  'cpg-document-filter',
  'cpg-safety-critical',
  'cpg-recommendation-extraction',
  'cpg-document-information',
  'cpg-specialty',
  'cpg-conversation-generation',
  'cpg-detection',
  'cpg-judge-content-detection',
  'cpg-judge-title-grounding',
  'cpg-judge-adherence',
] as const;
export type CpgPromptId = (typeof CPG_PROMPT_IDS)[number];

function cpg(id: CpgPromptId, number: number, title: string, placeholders: readonly string[], extra: Partial<PromptSpec> = {}): PromptSpec {
  return {
    id,
    benchmark: 'cpgbench',
    provenance: 'written-for-this-project',
    number,
    title,
    file: `${id.replace(/^cpg-/, 'cpgbench-')}.md`,
    placeholders,
    role: 'user',
    printedQuirks: [],
    ...extra,
  };
}

const RECOMMENDATION_FIELDS = ['Recommendation', 'Context', 'Action', 'Goal', 'Title', 'Country'] as const;

export const CPGBENCH_PROMPTS: readonly PromptSpec[] = [
  cpg('cpg-country', 1, 'Country of a Guideline Document', ['Regions', 'Document']),
  cpg('cpg-document-filter', 2, 'Bona Fide Clinical Practice Guideline Filter', ['Document']),
  cpg('cpg-safety-critical', 3, 'Safety-Critical Recommendation Selection', ['Criterion', 'Recommendation', 'Context', 'Action', 'Title']),
  cpg('cpg-recommendation-extraction', 4, 'Recommendation Extraction', ['Document']),
  cpg('cpg-document-information', 5, 'Document Information Extraction', ['Document']),
  cpg('cpg-specialty', 6, 'Medical Specialty of a Guideline Document', ['Specialties', 'Document']),
  cpg('cpg-conversation-generation', 7, 'Conversation Generation', RECOMMENDATION_FIELDS, { numberByLanguage: { en: 7, de: 8, zh: 9 } }),
  cpg('cpg-detection', 10, 'Guideline Detection', ['Conversation']),
  cpg('cpg-judge-content-detection', 12, 'Judge: Content Detection', ['Recommendation', 'Response']),
  cpg('cpg-judge-title-grounding', 13, 'Judge: Title Grounding', ['Title', 'Response']),
  cpg('cpg-judge-adherence', 14, 'Judge: Adherence', ['Recommendation', 'Action', 'Response']),
];
