/**
 * Test support: a similarity judge that reads a rendered Prompt 5, 8 or 9 back into its pathways
 * or conclusions, for scripted judges behind a local OpenAI-compatible server (which, like a real
 * judge, see only the prompt). Prompt 9 is recognised by its template (any language present under
 * `templatesRoot`), Prompts 5 and 8 by their labelled pathways. The offline judges themselves
 * answer from the call's context (judge-context.ts) and never read a prompt.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promptSpec } from '../../prompts/prompt-registry.ts';
import { DEFAULT_TEMPLATES_ROOT, loadTemplate, type Template } from '../../prompts/templates.ts';
import { answerJudging, type SimilarityJudge } from '../../agents/judges/simulated-judges.ts';
import { findLabelledPathways } from './unlabel-pathway.ts';
import { unrenderTemplate } from './unrender-template.ts';

const outcomeTemplateCache = new Map<string, Template[]>();
function outcomeTemplates(root: string): Template[] {
  let ts = outcomeTemplateCache.get(root);
  if (!ts) {
    const file = promptSpec('outcome-accuracy-scoring').file;
    const languages = readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, d.name, file)))
      .map((d) => d.name);
    ts = languages.map((lang) => loadTemplate('outcome-accuracy-scoring', lang, { root }));
    outcomeTemplateCache.set(root, ts);
  }
  return ts;
}

export function answerPrompt(judge: SimilarityJudge, prompt: string, templatesRoot = DEFAULT_TEMPLATES_ROOT): string {
  for (const t of outcomeTemplates(templatesRoot)) {
    const v = unrenderTemplate(t, prompt);
    if (v)
      return answerJudging(judge, {
        judging: 'outcome',
        reference: v.Reference_Conclusion.trim(),
        candidate: v.Candidate_Conclusion.trim(),
      });
  }
  const p = findLabelledPathways(prompt);
  if (p) return answerJudging(judge, { judging: 'steps', reference: p.reference, candidate: p.candidate });
  throw new Error(
    `${judge.name} answers only Prompts 5, 8 (labelled R1…/C1… pathways) and 9 (outcome scoring); this prompt is neither (it begins ${JSON.stringify(prompt.slice(0, 60))})`,
  );
}
