/**
 * Which CPGBench template a rendered prompt was made from, told from its text as a server sees
 * it: the template whose text before its first placeholder is the longest prefix of the prompt
 * (Prompts 4 and 6 open alike, so the first match would be wrong). For stand-ins that must
 * answer from the prompt (the estimate builder) and for tests' servers.
 */
import { loadTemplate, type TemplateId } from '../../prompts/templates.ts';
import { CPG_PROMPT_IDS } from '../../prompts/cpgbench-prompts.ts';

const prefixes: [TemplateId, string][] = CPG_PROMPT_IDS.flatMap((id) =>
  (id === 'cpg-conversation-generation' ? ['en', 'de', 'zh'] : ['en']).map((lang): [TemplateId, string] => {
    const t = loadTemplate(id, lang).text;
    const cut = t.search(/\{[A-Z][A-Za-z_]*\}/);
    return [id, t.slice(0, cut < 0 ? t.length : cut)];
  }),
);

export function cpgPromptKind(prompt: string): TemplateId | null {
  let best: TemplateId | null = null;
  let len = 0;
  for (const [id, p] of prefixes) if (prompt.startsWith(p) && p.length > len) [best, len] = [id, p.length];
  return best;
}
