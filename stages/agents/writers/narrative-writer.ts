/**
 * The offline (simulated) reasoning-narrative writer: a deterministic stand-in for Prompt 3.
 * Its output has Prompt 3's shape, a JSON-serialisable array of strings: one formal reasoning
 * statement per decision step that joins the guideline evidence with the case fact, and a final
 * single sentence leading to the conclusion without new evidence.
 *
 * Choices (documented): when a step quotes several guideline sentences, the one sharing the
 * most words with the condition (Chinese: character pairs) is used, ties to the first, which is
 * the mechanical reading of "identify the relevant decision logic". The case fact is the same
 * sentence the offline vignette writer states for the step, so narrative and vignette agree on
 * every value. A sentence already quoted for an earlier step is referred back to, not quoted
 * again: one recommendation often covers several nodes, and repeating it made every statement of
 * a path look alike, so a step-level judge could not tell which statement a step matches.
 */
import type { Cdp } from '../../construct/types.ts';
import { cleanConditions, isChinese } from '../../construct/case-conditions.ts';
import { stepFacts } from './vignette-writer.ts';

export const NARRATIVE_GENERATOR = 'simulated-narrative-writer';

export interface NarrativeResult {
  /** Steps.length + 1 statements: one per decision step, then the integrative conclusion. */
  steps: string[];
  generator: string;
  problems: string[];
}

function units(text: string, zh: boolean): Set<string> {
  if (zh) {
    const chars = [...text.replace(/[^\u3400-\u9fff0-9A-Za-z]/g, '')];
    return new Set(chars.slice(1).map((c, i) => chars[i]! + c));
  }
  return new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 2));
}

/** The evidence sentence most related to the condition, or null when none is quoted. */
export function mostRelevantEvidence(condition: string, evidence: readonly string[], zh: boolean): string | null {
  const want = units(condition, zh);
  let best: string | null = null;
  let bestScore = -1;
  for (const e of evidence) {
    if (!e.trim()) continue;
    const got = units(e, zh);
    let score = 0;
    for (const u of want) if (got.has(u)) score++;
    if (score > bestScore) [best, bestScore] = [e.trim(), score];
  }
  return best;
}

function stripEnd(s: string): string {
  return s.trim().replace(/[.。;；:：,，!！]+$/, '');
}

function lowerFirst(s: string): string {
  return /^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;
}

export function writeNarrative(cdp: Cdp): NarrativeResult {
  const zh = isChinese(cdp.language);
  const { sentences, plan } = stepFacts(cdp);
  const conditions = cleanConditions(cdp);
  const problems = plan.problems.map((p) => `cdp ${cdp.cdp_id}: ${p}`);
  const quoted = new Set<string>();
  const steps = cdp.steps.map((step, i) => {
    const fact = stripEnd(sentences[i]!.text);
    const condition = conditions[i]!.replace(/[?？]+$/, '');
    const met = step.decision_outcome === 'yes';
    const ev = mostRelevantEvidence(step.condition, step.evidence, zh);
    const again = ev !== null && quoted.has(ev);
    if (ev !== null) quoted.add(ev);
    if (zh) {
      const verdict = `因此${met ? '符合' : '不符合'}“${condition}”这一标准。`;
      if (again) return `依据上述指南原文，${fact}，${verdict}`;
      return ev ? `指南指出：“${stripEnd(ev)}”；${fact}，${verdict}` : `该标准未引用指南原文；${fact}，${verdict}`;
    }
    const verdict = `so the criterion "${condition}?" is ${met ? '' : 'not '}met.`;
    if (again) return `By the guideline statement above, ${lowerFirst(fact)}, ${verdict}`;
    return ev
      ? `The guideline states that ${lowerFirst(stripEnd(ev))}; ${lowerFirst(fact)}, ${verdict}`
      : `No guideline statement is quoted for this criterion; ${lowerFirst(fact)}, ${verdict}`;
  });
  const conclusion = stripEnd(cdp.conclusion);
  steps.push(zh ? `综上所述，${conclusion}。` : `Taken together, these findings lead to the conclusion: ${lowerFirst(conclusion)}.`);
  if (!conclusion)
    problems.push(`cdp ${cdp.cdp_id} has an empty conclusion; the final statement has nothing to lead to — check the tree's leaf`);
  return { steps, generator: NARRATIVE_GENERATOR, problems };
}
