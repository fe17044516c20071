/**
 * How Prompts 5 and 8 receive their pathways.
 *
 * The prompts say each pathway "is provided as a list of strings" and that its steps "are labeled
 * sequentially from R1 to R{Reference_Pathway_Length}" (C1.. for the candidate); the judge must
 * then answer with those labels ("R<i>-C<j>: <score>"). We therefore print one step per line,
 * prefixed by its label — "R1: …", "R2: …". A JSON array would also be "a list of strings", but
 * it leaves the labels implicit: the judge would have to count array positions to know which step
 * is R7, an off-by-one trap on long pathways, and the prompt's wording ("labeled") implies the
 * labels are shown. Line breaks inside a step are folded to spaces so that every line of the
 * block starts with a label.
 */

export type PathwaySide = 'R' | 'C';

export function formatPathway(steps: readonly string[], side: PathwaySide): string {
  if (steps.length === 0) {
    throw new Error(
      `cannot label an empty ${side === 'R' ? 'reference' : 'candidate'} pathway; an empty prediction has nothing to score, so skip the judge call`,
    );
  }
  return steps.map((s, i) => `${side}${i + 1}: ${shownStep(s)}`).join('\n');
}

/** A step as the judge is shown it: whitespace folded to single spaces, trimmed. */
export function shownStep(step: string): string {
  // Most steps are already so; a scan first spares a copy of each (a judge's every unit shows two pathways).
  return needsFolding(step) ? step.replace(/\s+/g, ' ').trim() : step;
}

/** Whether folding would change the text: a space at either end, two in a row, or any other whitespace (JavaScript's \s). */
function needsFolding(s: string): boolean {
  const n = s.length;
  if (n && (s.charCodeAt(0) === 32 || s.charCodeAt(n - 1) === 32)) return true;
  let space = false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (space) return true;
      space = true;
      continue;
    }
    space = false;
    if (c < 0xa0 ? c >= 9 && c <= 13 : isWideSpace(c)) return true;
  }
  return false;
}

const isWideSpace = (c: number) =>
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

/** The four variables Prompts 5 and 8 declare, from the two step lists. */
export function pathwayVars(reference: readonly string[], candidate: readonly string[]): Record<string, string | number> {
  return {
    Reference_Pathway_Length: reference.length,
    Candidate_Pathway_Length: candidate.length,
    Reference_Pathway: formatPathway(reference, 'R'),
    Candidate_Pathway: formatPathway(candidate, 'C'),
  };
}
