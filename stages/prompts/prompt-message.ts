/**
 * A rendered prompt as a chat message whose large shared inputs (the guideline text, sent with
 * every case of a guideline) travel as blobs: the LLM client hashes each blob once instead of
 * hashing the whole prompt for every call.
 */
import type { ChatMessage, ContentPart } from '../../pipeline/stage.ts';
import { renderTemplate, type Template } from './templates.ts';

export interface BlobMaker {
  blob(text: string): ContentPart;
}

export function promptMessage(
  llm: BlobMaker,
  t: Template,
  vars: Readonly<Record<string, string | number>>,
  shared: readonly string[] = [],
  role: ChatMessage['role'] = t.role === 'system' ? 'system' : 'user',
): ChatMessage {
  if (!shared.length) return { role, content: renderTemplate(t, vars) };
  const marker = (name: string) => `\u0000${name}\u0000`;
  const withMarkers = { ...vars };
  for (const name of shared) withMarkers[name] = marker(name);
  const rendered = renderTemplate(t, withMarkers);
  const parts: ContentPart[] = [];
  let rest = rendered;
  for (;;) {
    // eslint-disable-next-line no-control-regex -- NUL delimits the blob markers: it never occurs in prompt text
    const m = /\u0000([^\u0000]+)\u0000/.exec(rest);
    if (!m) break;
    if (m.index > 0) parts.push({ type: 'text', text: rest.slice(0, m.index) });
    parts.push(llm.blob(String(vars[m[1]])));
    rest = rest.slice(m.index + m[0].length);
  }
  if (rest) parts.push({ type: 'text', text: rest });
  return { role, content: parts };
}
