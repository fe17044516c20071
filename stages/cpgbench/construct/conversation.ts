/**
 * The three format constraints on a generated conversation (CPGBench §4.3), checked in order on
 * the writer's answer; a conversation that breaks one is regenerated (conversations.stage.ts):
 *
 * 1. 'format': a valid list of messages, each exactly {"role": "user" | "assistant", "content": …}
 *    with text besides any marker. Read as the other readers read (fences, <think>, a preamble,
 *    lenient JSON, a Python literal: readable variants, labelled); a system message, another role
 *    ("patient", "doctor"), another key, an object instead of a list are faults, as the paper's
 *    constraint is about exactly this shape.
 * 2. 'marker': some message carries the marker `<recommendation …>` (found by regular expression,
 *    as the paper checks it).
 * 3. 'marked-turn': the first message carrying it is an assistant message and the one right
 *    before it a user message, so the recommendation is applied by the clinician and the
 *    conversation cut before it ends with the patient.
 */
import { type AnswerFormat, formatOf } from '../../../pipeline/stage.ts';
import { readStructuredAnswer } from '../read/structured-answer.ts';

export interface Message {
  role: 'user' | 'assistant';
  content: string;
}

export type ConversationCheckName = 'format' | 'marker' | 'marked-turn';

export type ConversationCheck =
  { ok: true; messages: Message[]; markedTurn: number; format: AnswerFormat } | { ok: false; check: ConversationCheckName; reason: string };

/** `<recommendation 1>`, `<recommendation: text>`, `< recommendation >` (case-insensitive). */
export const MARKER = /<\s*recommendation\b[^<>]*>/i;
/** Every marker, and a closing `</recommendation>` some writers add, with the space before it. */
const ALL_MARKERS = /[ \t]*<\s*\/?\s*recommendation\b[^<>]*>/gi;

export function withoutMarkers(text: string): string {
  return text
    .replace(ALL_MARKERS, '')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

function readMessages(value: unknown): { ok: true; messages: Message[] } | { ok: false; reason: string } {
  if (!Array.isArray(value)) {
    const what = value !== null && typeof value === 'object' ? `an object with keys ${Object.keys(value).join(', ')}` : typeof value;
    return { ok: false, reason: `the answer is ${what}, not a list of messages` };
  }
  if (value.length < 2)
    return { ok: false, reason: `the list has ${value.length} message(s); a conversation needs at least a user and an assistant turn` };
  const messages: Message[] = [];
  for (const [i, m] of value.entries()) {
    const at = `message ${i + 1}`;
    if (m === null || typeof m !== 'object' || Array.isArray(m))
      return { ok: false, reason: `${at} is not a {"role", "content"} dictionary` };
    const keys = Object.keys(m).sort();
    if (keys.join(',') !== 'content,role')
      return { ok: false, reason: `${at} has keys ${keys.join(', ')}; each message has exactly "role" and "content"` };
    const { role, content } = m as { role: unknown; content: unknown };
    if (role !== 'user' && role !== 'assistant')
      return {
        ok: false,
        reason: `${at} has role ${JSON.stringify(role)}; roles are "user" (the patient) and "assistant" (the clinician)`,
      };
    if (typeof content !== 'string' || withoutMarkers(content) === '')
      return {
        ok: false,
        reason: `${at} has ${typeof content === 'string' ? 'no text besides the marker' : 'content that is not a string'}`,
      };
    messages.push({ role, content });
  }
  return { ok: true, messages };
}

export function checkConversation(text: string, finishReason?: string | null): ConversationCheck {
  const read = readStructuredAnswer(text, finishReason);
  if (!read.ok) return { ok: false, check: 'format', reason: read.problem };
  const list = readMessages(read.value);
  if (!list.ok) return { ok: false, check: 'format', reason: list.reason };
  const { messages } = list;
  const marked = messages.findIndex((m) => MARKER.test(m.content));
  if (marked < 0) return { ok: false, check: 'marker', reason: 'no message carries the <recommendation …> marker' };
  if (messages[marked]!.role !== 'assistant')
    return {
      ok: false,
      check: 'marked-turn',
      reason: `the first marked message (message ${marked + 1}) is the patient's (role user), not the clinician's`,
    };
  if (marked === 0 || messages[marked - 1]!.role !== 'user')
    return {
      ok: false,
      check: 'marked-turn',
      reason: `the first marked message (message ${marked + 1}) ${marked === 0 ? 'opens the conversation' : 'follows another assistant message'}; it must follow a user message`,
    };
  return { ok: true, messages, markedTurn: marked, format: formatOf(read.variants) };
}

/** The detection task's conversation: every message, markers removed (§4.4). */
export function detectionConversation(messages: readonly Message[]): Message[] {
  return messages.map((m) => ({ role: m.role, content: withoutMarkers(m.content) }));
}

/**
 * The adherence task's prompt: the conversation cut before its first marked assistant message,
 * which it ends with the patient's turn (§4.4). Refuses a conversation that does not pass the checks.
 */
export function adherenceMessages(messages: readonly Message[]): Message[] {
  const marked = messages.findIndex((m) => MARKER.test(m.content));
  if (marked < 1 || messages[marked]!.role !== 'assistant' || messages[marked - 1]!.role !== 'user')
    throw new Error('adherenceMessages: the conversation does not pass the marked-turn check; check it with checkConversation first');
  return messages.slice(0, marked).map((m) => ({ role: m.role, content: m.content }));
}
