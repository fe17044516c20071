/**
 * How a CDP is written into Prompts 2 and 3, and read back out of them. The paper's prompts
 * describe JSON inputs ("each step includes a "condition" … and a "decision_outcome"";
 * Prompt 3's "primary_clinical_focus", "decision_path", "case_vignette"), so that is what they
 * get. The readers exist for the offline writers, which see only the prompt, as a model does.
 */
import type { Cdp, ClinicalFocus } from './types.ts';

export function conditionPathInput(cdp: Pick<Cdp, 'steps'>): string {
  return JSON.stringify(
    cdp.steps.map((s) => ({ condition: s.condition, decision_outcome: s.decision_outcome })),
    null,
    2,
  );
}

export function narrativeInput(cdp: Pick<Cdp, 'focus' | 'steps' | 'conclusion' | 'conclusion_evidence'>, vignette: string): string {
  return JSON.stringify(
    {
      primary_clinical_focus: cdp.focus,
      decision_path: [
        ...cdp.steps.map((s) => ({ condition: s.condition, decision_outcome: s.decision_outcome, guideline_evidence: s.evidence })),
        { conclusion: cdp.conclusion, guideline_evidence: cdp.conclusion_evidence },
      ],
      case_vignette: vignette,
    },
    null,
    2,
  );
}

const CJK = /[\u3400-\u9fff]/;

/** The text between a "## Heading:" line and the next "## " heading. */
function section(prompt: string, heading: string): string {
  const start = prompt.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`the prompt has no "## ${heading}" section`);
  const body = prompt.slice(prompt.indexOf('\n', start) + 1);
  const end = body.search(/^## /m);
  return (end < 0 ? body : body.slice(0, end)).trim();
}

/** A CDP as far as Prompt 2 reveals it (no evidence, no conclusion). */
export function readConditionPathPrompt(prompt: string): Cdp {
  const focus = section(prompt, 'Primary Clinical Focus:') as ClinicalFocus;
  const steps = JSON.parse(section(prompt, 'Clinical Decision Path:')) as { condition: string; decision_outcome: 'yes' | 'no' }[];
  return cdpFrom(
    focus,
    steps.map((s, i) => ({ node_index: i + 1, condition: s.condition, decision_outcome: s.decision_outcome, evidence: [] })),
    '',
    [],
  );
}

/** The CDP and vignette that Prompt 3 carries. */
export function readNarrativePrompt(prompt: string): { cdp: Cdp; vignette: string } {
  const input = JSON.parse(section(prompt, 'Input:')) as {
    primary_clinical_focus: ClinicalFocus;
    decision_path: (
      | { condition: string; decision_outcome: 'yes' | 'no'; guideline_evidence: string[] }
      | { conclusion: string; guideline_evidence: string[] }
    )[];
    case_vignette: string;
  };
  const steps = input.decision_path.flatMap((s, i) =>
    'condition' in s
      ? [{ node_index: i + 1, condition: s.condition, decision_outcome: s.decision_outcome, evidence: s.guideline_evidence ?? [] }]
      : [],
  );
  const last = input.decision_path[input.decision_path.length - 1];
  const conclusion = last && 'conclusion' in last ? last : { conclusion: '', guideline_evidence: [] };
  return {
    cdp: cdpFrom(input.primary_clinical_focus, steps, conclusion.conclusion, conclusion.guideline_evidence ?? []),
    vignette: input.case_vignette,
  };
}

function cdpFrom(focus: ClinicalFocus, steps: Cdp['steps'], conclusion: string, conclusionEvidence: string[]): Cdp {
  const language = steps.some((s) => CJK.test(s.condition)) || CJK.test(conclusion) ? 'zh' : 'en';
  return {
    cdp_id: 'from-prompt',
    guideline_id: '',
    language,
    focus,
    split: 'test',
    length: steps.length,
    steps,
    conclusion,
    conclusion_evidence: conclusionEvidence,
    leaf_index: 0,
  };
}
