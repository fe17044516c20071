/**
 * A simulated builder for `cdp estimate` only (offline, deterministic; not an LLM): while a run
 * is estimated, a real builder's cache misses are answered by this stand-in so the stages after
 * construction (conversations, both tasks, the judges) are estimated too. It answers Prompts 1–6
 * from the prompt's text: the document is kept (bona fide), its country and specialty unknown
 * ("Other"), its year the first year it mentions, and its recommendations the sentences that
 * say "recommend", "should", "soll", "empfohlen", "建议", "推荐" or "应" (at most 20).
 */
import type { OfflineHandler } from '../../../pipeline/llm/types.ts';
import { cpgPromptKind } from './prompt-kind.ts';

export const CPG_BUILDER_NAME = 'simulated-cpg-builder';

const RECOMMENDING = /recommend|should|\bsoll|empfohlen|建议|推荐|应/i;

function recommendations(document: string) {
  const sentences = document
    .replace(/[#*]/g, '')
    .split(/(?<=[.!?。！？])\s*|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 12);
  const picked = sentences.filter((s) => RECOMMENDING.test(s)).slice(0, 20);
  const list = (picked.length ? picked : sentences.slice(0, 1)).map((s) => ({
    recommendation: s,
    strength: '(none)',
    evidence_level: '(none)',
    context: '(none)',
    action: s,
    goal: '(none)',
  }));
  return {
    recommendations: list.length
      ? list
      : [
          {
            recommendation: 'No text.',
            strength: '(none)',
            evidence_level: '(none)',
            context: '(none)',
            action: 'No text.',
            goal: '(none)',
          },
        ],
  };
}

export const simulatedBuilder: OfflineHandler = (prompt) => {
  const m = prompt.messages[0];
  const text = typeof m?.content === 'string' ? m.content : (m?.content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
  const id = cpgPromptKind(text);
  const document = /## Document:\n([\s\S]*?)\n## Your Output:/.exec(text)?.[1] ?? '';
  switch (id) {
    case 'cpg-country':
      return '{"country": "Other: unknown", "evidence": "simulated"}';
    case 'cpg-document-filter':
      return '{"bona_fide_cpg": true, "document_type": "clinical practice guideline", "reason": "simulated"}';
    case 'cpg-safety-critical':
      return '{"safety_critical": false, "reason": "simulated"}';
    case 'cpg-recommendation-extraction':
      return JSON.stringify(recommendations(document));
    case 'cpg-document-information':
      return JSON.stringify({
        title: /^#\s+(.+)$/m.exec(document)?.[1] ?? null,
        institute: null,
        publication_date: /\b(19|20)\d{2}\b/.exec(document)?.[0] ?? '2020',
      });
    case 'cpg-specialty':
      return '{"specialty": "Other", "reason": "simulated"}';
    default:
      throw new Error(`${CPG_BUILDER_NAME} answers only CPGBench's construction prompts (1–6)`);
  }
};
