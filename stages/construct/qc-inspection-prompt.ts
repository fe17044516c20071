/**
 * The prompt for LLM-based quality inspection of a constructed case. The paper inspected a
 * sample of instances with an LLM and by hand (§3.1) but did not publish that prompt, so this
 * one is ours, not the paper's; it asks for exactly the consistency the paper describes
 * between reasoning tree path, CDP and case vignette.
 */
import type { Cdp } from './types.ts';

export const QC_INSPECTION_PROMPT_ID = 'cdp-pipeline/qc-inspection-v1 (not from the paper)';

export function qcInspectionPrompt(cdp: Pick<Cdp, 'focus' | 'steps' | 'conclusion'>, vignette: string): string {
  const path = cdp.steps.map((s, i) => `${i + 1}. ${s.condition} → ${s.decision_outcome}`).join('\n');
  return [
    'You are a medical expert reviewing a benchmark case built from a clinical guideline.',
    'The case consists of a clinical decision path (conditions with their yes/no outcomes), the conclusion the path leads to, and a case vignette written from the path.',
    'Check for: contradictions between the vignette and any decision outcome; numeric values on the wrong side of a threshold; steps of the path the vignette does not support; decision logic that does not lead to the conclusion; content in the vignette that reveals the pathway or adds unsupported information.',
    'Answer with a JSON object only: {"consistent": true|false, "problems": ["…", …]} (an empty list when consistent).',
    `## Primary Clinical Focus:\n${cdp.focus}`,
    `## Clinical Decision Path:\n${path}`,
    `## Conclusion:\n${cdp.conclusion}`,
    `## Case Vignette:\n${vignette}`,
    '## Your Output:',
  ].join('\n');
}
