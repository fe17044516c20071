/**
 * The prompts of both benchmarks: which file holds each, which placeholders it declares, how it
 * is sent, and where its text comes from. MEGA-CDP's nine (paper, Appendix E, Tables 8–16) are
 * `PROMPTS`, copied from the paper; CPGBench's (cpgbench-prompts.ts) were written for this
 * project, because that paper prints none of its fourteen. The placeholder lists are written out
 * here rather than discovered by scanning the text, because the templates also contain braces
 * that are not placeholders (Prompt 1's JSON examples, "{}" children) and a translated template
 * must declare exactly the same inputs as the English one.
 */
import { CPGBENCH_PROMPTS, type CpgPromptId } from './cpgbench-prompts.ts';

export type { CpgPromptId } from './cpgbench-prompts.ts';

export const PROMPT_IDS = [
  'reasoning-tree-extraction',
  'case-vignette-synthesis',
  'reasoning-narrative-conversion',
  'single-turn-inference',
  'single-turn-step-level-consistency-scoring',
  'multi-turn-inference',
  'multi-turn-patient-environment',
  'multi-turn-step-level-consistency-scoring',
  'outcome-accuracy-scoring',
] as const;
/** MEGA-CDP's prompt ids. */
export type PromptId = (typeof PROMPT_IDS)[number];
/** Any registered prompt's id, of either benchmark. */
export type TemplateId = PromptId | CpgPromptId;

/**
 * How a rendered prompt enters a chat:
 * - 'user': the whole rendered text is the one user message of a single-turn call.
 * - 'system': the rendered text is the system message of a multi-turn conversation (Prompt 6 for
 *   the doctor, Prompt 7 for the patient); the dialogue follows as alternating turns.
 */
export type PromptRole = 'user' | 'system';

export interface PromptSpec {
  id: TemplateId;
  /** The benchmark whose pipeline uses it. */
  benchmark: 'mega-cdp' | 'cpgbench';
  /**
   * 'paper': the paper's printed text, word for word; 'written-for-this-project': our own text,
   * following what the paper says the prompt takes and returns (its own text is unpublished).
   */
  provenance: 'paper' | 'written-for-this-project';
  /** As numbered in the paper (MEGA-CDP 1..9, CPGBench 1..14). */
  number: number;
  /** The paper's numbers by template language, when it has one prompt per language (CPGBench 7/8/9). */
  numberByLanguage?: Readonly<Record<string, number>>;
  /** The title printed above the prompt ("Prompt 4: Single-Turn Inference"); not part of the prompt. */
  title: string;
  /** The paper's table that prints it (MEGA-CDP); CPGBench prints none. */
  table?: number;
  /** File name under templates/<language>/. */
  file: string;
  /** Placeholder names, written in templates as {Name}. */
  placeholders: readonly string[];
  role: PromptRole;
  /** Oddities of the printed text that are kept on purpose, noted in the file header. */
  printedQuirks: readonly string[];
}

/** A MEGA-CDP prompt: one of its nine ids, printed in a table of its paper. */
export type MegaCdpPromptSpec = PromptSpec & { id: PromptId; table: number };

const PATHWAY_VARS = ['Reference_Pathway_Length', 'Candidate_Pathway_Length', 'Reference_Pathway', 'Candidate_Pathway'] as const;

function spec(
  number: number,
  title: string,
  placeholders: readonly string[],
  role: PromptRole,
  printedQuirks: string[] = [],
): MegaCdpPromptSpec {
  const id = PROMPT_IDS[number - 1]!;
  const provenance = 'paper';
  return {
    id,
    benchmark: 'mega-cdp',
    provenance,
    number,
    title,
    table: number + 7,
    file: `${number}-${id}.md`,
    placeholders,
    role,
    printedQuirks,
  };
}

export const PROMPTS: readonly MegaCdpPromptSpec[] = [
  spec(1, 'Reasoning Tree Extraction', ['Guideline'], 'user'),
  spec(2, 'Case Vignette Synthesis', ['Primary_Clinical_Focus', 'Condition_Path'], 'user'),
  spec(3, 'Reasoning Narrative Conversion', ['Input'], 'user', [
    'The output-format heading carries the array\'s opening bracket ("## Output Format: [") and nested bullets have lost their indentation; both as printed.',
  ]),
  spec(4, 'Single-Turn Inference', ['Guideline', 'Case_Vignette'], 'user'),
  spec(5, 'Single-Turn Step-Level Consistency Scoring', PATHWAY_VARS, 'user'),
  spec(6, 'Multi-Turn Inference', ['Clinical_Inquiry_Goal', 'Guideline'], 'system', [
    'Rules 10 and 11 quote the required output between two right single quotes (’Final Conclusion: …’), as printed.',
  ]),
  spec(7, 'Multi-Turn Patient Environment', ['Case_Vignette'], 'system'),
  spec(8, 'Multi-Turn Step-Level Consistency Scoring', PATHWAY_VARS, 'user', [
    'The paper prints "- ach pair must follow the format" (a typo for "- Each pair", run onto the line before); kept as printed.',
  ]),
  spec(9, 'Outcome Accuracy Scoring', ['Reference_Conclusion', 'Candidate_Conclusion'], 'user'),
];

/** Every registered prompt: MEGA-CDP's nine, then CPGBench's. */
export const ALL_PROMPTS: readonly PromptSpec[] = [...PROMPTS, ...CPGBENCH_PROMPTS];

export function promptSpec(id: TemplateId): PromptSpec {
  const p = ALL_PROMPTS.find((x) => x.id === id);
  if (!p) throw new Error(`unknown prompt id "${id}"; known ids: ${ALL_PROMPTS.map((x) => x.id).join(', ')}`);
  return p;
}

/**
 * The comment that opens every template file. The loader drops everything up to the first "-->"
 * (plus one newline), so a translated template may carry its own comment or none.
 */
export function templateHeader(p: PromptSpec, notes: readonly string[]): string {
  const lines = [
    '<!--',
    `MEGA-CDP Prompt ${p.number}: ${p.title} — paper Appendix E, Table ${p.table}; see ../SOURCE.md.`,
    'Copied word for word by extract-from-paper.ts. Everything after this comment is the prompt.',
    `Placeholders: ${p.placeholders.map((n) => `{${n}}`).join(', ')}`,
    `Sent as: ${p.role === 'system' ? 'the system message of a multi-turn conversation' : 'one user message'}.`,
    ...(notes.length ? ['Deviations and kept oddities:', ...notes.map((n) => `- ${n}`)] : ['No deviation from the printed text.']),
    '-->',
  ];
  return `${lines.join('\n')}\n`;
}
