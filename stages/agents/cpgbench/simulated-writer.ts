/**
 * The simulated conversation writer (offline, deterministic; not an LLM): answers Prompts 7/8/9
 * from the call's context with a six-message consultation in the recommendation's language
 * (English, German or Chinese; other languages English) in which the clinician states the
 * recommended action and its goal in the fifth message, marked `<recommendation 1>` after a
 * patient's turn. It passes the three format checks by construction.
 */
import type { OfflineHandler } from '../../../pipeline/llm/types.ts';
import { cpgContextOf } from '../../cpgbench/construct/call-context.ts';

export const CPG_WRITER_NAME = 'simulated-cpg-writer';

const LINES = {
  en: {
    open: 'Good morning, I am the doctor on duty today. What brings you here?',
    concern: (context: string) => `Good morning. I am worried, and I would like your advice. The situation: ${context}`,
    ask: 'Thank you for telling me, I understand that this is worrying. How long has this been going on, and is anything else troubling you?',
    follow: 'It started a few days ago, nothing else. What should we do now?',
    close: 'Thank you, that is clear.',
    bye: 'You are welcome. Come back at once if anything changes.',
  },
  de: {
    open: 'Guten Morgen, ich bin heute die diensthabende Ärztin. Was führt Sie zu mir?',
    concern: (context: string) => `Guten Morgen. Ich mache mir Sorgen und hätte gern Ihren Rat. Die Situation: ${context}`,
    ask: 'Danke, dass Sie mir das erzählen, ich verstehe Ihre Sorge. Seit wann ist das so, und belastet Sie noch etwas anderes?',
    follow: 'Seit ein paar Tagen, sonst nichts. Was sollen wir jetzt tun?',
    close: 'Danke, das ist verständlich.',
    bye: 'Gern. Kommen Sie sofort wieder, wenn sich etwas ändert.',
  },
  zh: {
    open: '您好，我是今天的值班医生。请问您哪里不舒服？',
    concern: (context: string) => `医生您好，我有点担心，想听听您的建议。情况是这样的：${context}`,
    ask: '谢谢您告诉我，我理解您的担心。这种情况持续多久了？还有其他不舒服吗？',
    follow: '有几天了，没有别的。那现在该怎么办？',
    close: '谢谢医生，我明白了。',
    bye: '不客气。如果有任何变化，请马上再来。',
  },
} as const;

export const simulatedWriter: OfflineHandler = (prompt) => {
  const c = cpgContextOf(prompt.context);
  if (!c || c.cpg !== 'writer')
    throw new Error(`${CPG_WRITER_NAME} answers only conversation-generation calls that carry their recommendation as context`);
  const r = c.recommendation;
  const l = LINES[(r.language in LINES ? r.language : 'en') as keyof typeof LINES];
  const applied = r.language === 'zh' ? `${r.action}<recommendation 1>${r.goal}` : `${r.action} <recommendation 1> ${r.goal}`;
  return JSON.stringify(
    [
      { role: 'assistant', content: l.open },
      { role: 'user', content: l.concern(r.context) },
      { role: 'assistant', content: l.ask },
      { role: 'user', content: l.follow },
      { role: 'assistant', content: applied },
      { role: 'user', content: l.close },
      { role: 'assistant', content: l.bye },
    ],
    null,
    2,
  );
};
