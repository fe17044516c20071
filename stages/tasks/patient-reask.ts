/**
 * The one re-ask of a patient answer that could not be read (issue 11 item 2). It is a follow-up
 * in the same chat, not a fresh sample: the patient sees its own unreadable reply and the
 * reader's reason, then the question again. A fresh sample of the same prompt would, at low
 * temperature, mostly repeat the same reply; naming the problem is what every other re-ask of the
 * project does (ask-structured.ts), and the follow-up has its own cache key, so a replayed
 * dialogue replays the re-ask too.
 */
import type { ChatMessage } from '../prompts/dialogue-messages.ts';

export function patientReask(
  asked: readonly ChatMessage[],
  reply: string,
  reason: string,
  question: string,
  language: string,
): ChatMessage[] {
  const content = language.startsWith('zh')
    ? `无法读取你的回答（${reason}）。请只用“是”或“否”回答这个问题：${question}`
    : `Your reply could not be read (${reason}). Answer this question again with exactly one word, "Yes" or "No": ${question}`;
  return [...asked, { role: 'assistant', content: reply }, { role: 'user', content }];
}
