/**
 * Large shared texts (the guideline in every inference prompt) registered once with
 * `client.blob(text)`: hashed once for the cache key, measured once (`bytes`) for the context check,
 * counted once for estimates, and resolved into the plain text a provider is given.
 */
import { sha256Hex } from './request-key.ts';
import { countTokens, messageTokens, tokenUpperBound } from './tokens.ts';
import type { ChatMessage, ContentPart } from './types.ts';

export class Blobs {
  private readonly byId = new Map<string, { text: string; bytes: number; tokens?: number }>();

  register(text: string): ContentPart {
    const id = sha256Hex(text);
    if (!this.byId.has(id)) this.byId.set(id, { text, bytes: tokenUpperBound(text) });
    return { type: 'blob', blob: id };
  }

  /** The messages as a provider sees them: every blob part replaced by its text. */
  resolve(messages: readonly ChatMessage[]): ChatMessage[] {
    return messages.map((m) => ({ role: m.role, content: this.text(m.content) }));
  }

  /** A registered blob's byte bound on its tokens (0 for an unknown id: resolve() refuses those). */
  readonly bytes = (id: string): number => this.byId.get(id)?.bytes ?? 0;

  /** The messages' exact o200k tokens with chat framing; a blob is counted once, on first need. */
  tokens(messages: readonly ChatMessage[]): number {
    return messageTokens(messages, (id) => {
      const b = this.get(id);
      return (b.tokens ??= countTokens(b.text));
    });
  }

  private text(content: string | ContentPart[]): string {
    if (typeof content === 'string') return content;
    let s = '';
    for (const p of content) s += p.type === 'text' ? p.text : this.get(p.blob).text;
    return s;
  }

  private get(id: string): { text: string; bytes: number; tokens?: number } {
    const b = this.byId.get(id);
    if (!b) throw new Error(`llm client: blob ${id.slice(0, 12)}… is not registered with this client; create it with client.blob(text)`);
    return b;
  }
}
