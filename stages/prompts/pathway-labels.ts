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
  // Most steps are already so; testing first spares a copy of each (a judge's every unit shows two pathways).
  return FOLDED.test(step) ? step.replace(/\s+/g, ' ').trim() : step;
}

/** Whitespace that folding would change: any but a single space between other characters. */
const FOLDED = /[^\S ]| {2}|^ | $/;

/** The four variables Prompts 5 and 8 declare, from the two step lists. */
export function pathwayVars(reference: readonly string[], candidate: readonly string[]): Record<string, string | number> {
  return {
    Reference_Pathway_Length: reference.length,
    Candidate_Pathway_Length: candidate.length,
    Reference_Pathway: formatPathway(reference, 'R'),
    Candidate_Pathway: formatPathway(candidate, 'C'),
  };
}
