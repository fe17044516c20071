import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adherenceMessages, checkConversation, detectionConversation, withoutMarkers, type Message } from './conversation.ts';

// A hand-written conversation as a writer returns it: the marker after the applying sentence.
const CONVERSATION: Message[] = [
  { role: 'assistant', content: 'Good morning. What brings you in today?' },
  { role: 'user', content: 'My daughter is 14 months old and has had a fever of 39.5 since last night.' },
  { role: 'assistant', content: 'I am sorry, that sounds worrying. Is she drinking, and has she had any rash or fits?' },
  { role: 'user', content: 'She drinks a little. No rash. Should I give her something for the fever?' },
  {
    role: 'assistant',
    content:
      'You can give paracetamol or ibuprofen if she is distressed, but not both at the same time. <recommendation 1> Do not sponge her with cold water.',
  },
  { role: 'user', content: 'Thank you, that helps.' },
  { role: 'assistant', content: 'Come back at once if she becomes drowsy. <recommendation 1>' },
];

test('a hand-written conversation passes the three checks; its detection input has no marker, its adherence input ends before the marked turn', () => {
  const r = checkConversation(JSON.stringify(CONVERSATION));
  assert.ok(r.ok);
  assert.equal(r.format, 'strict');
  assert.equal(r.markedTurn, 4);
  const detection = detectionConversation(r.messages);
  assert.equal(detection.length, 7);
  assert.equal(
    detection[4]!.content,
    'You can give paracetamol or ibuprofen if she is distressed, but not both at the same time. Do not sponge her with cold water.',
  );
  assert.equal(detection[6]!.content, 'Come back at once if she becomes drowsy.');
  assert.ok(detection.every((m) => !m.content.includes('<') && !m.content.includes('recommendation')));
  assert.deepEqual(
    detection.map((m) => m.role),
    CONVERSATION.map((m) => m.role),
  );
  // Cut before the first marked assistant turn: four messages, the last the patient's question.
  const adherence = adherenceMessages(r.messages);
  assert.deepEqual(adherence, CONVERSATION.slice(0, 4));
  assert.equal(adherence.at(-1)!.role, 'user');
});

test('check 1 (format): not a list, a system message, another role, extra keys, a marker-only message, unreadable JSON', () => {
  const fails = (text: string, reason: RegExp) => {
    const r = checkConversation(text);
    assert.equal(r.ok, false, text.slice(0, 60));
    assert.equal((r as { check: string }).check, 'format', text.slice(0, 60));
    assert.match((r as { reason: string }).reason, reason);
  };
  fails(JSON.stringify({ conversation: CONVERSATION }), /an object with keys conversation, not a list of messages/);
  fails(JSON.stringify([{ role: 'system', content: 'You are a doctor.' }, ...CONVERSATION]), /message 1 has role "system"/);
  fails(JSON.stringify(CONVERSATION.map((m) => ({ ...m, role: m.role === 'user' ? 'patient' : 'doctor' }))), /role "doctor"/);
  fails(JSON.stringify([{ ...CONVERSATION[0], turn: 1 }, ...CONVERSATION.slice(1)]), /message 1 has keys content, role, turn/);
  fails(
    JSON.stringify([...CONVERSATION.slice(0, 4), { role: 'assistant', content: ' <recommendation 1> ' }]),
    /message 5 has no text besides the marker/,
  );
  fails(JSON.stringify([CONVERSATION[1]]), /has 1 message\(s\)/);
  fails("[{'role': 'user', 'content': 'Hi'}, {'role': 'assistant', 'content': 'Hello", /never closes/);
  fails('Here is the conversation you asked for.', /no parseable JSON/);
  const cut = checkConversation(JSON.stringify(CONVERSATION), 'length');
  assert.equal(cut.ok, false);
  assert.match((cut as { reason: string }).reason, /truncated answer \(finish_reason: length\)/);
});

test('check 2 (marker): no <recommendation …> anywhere', () => {
  const r = checkConversation(JSON.stringify(CONVERSATION.map((m) => ({ ...m, content: withoutMarkers(m.content) }))));
  assert.deepEqual(r, { ok: false, check: 'marker', reason: 'no message carries the <recommendation …> marker' });
});

test("check 3 (marked turn): the first marked message is the patient's, opens the conversation, or follows the clinician", () => {
  const patient = [
    ...CONVERSATION.slice(0, 3),
    { role: 'user', content: 'I read that fever needs ibuprofen. <recommendation 1>' },
    ...CONVERSATION.slice(4),
  ];
  const p = checkConversation(JSON.stringify(patient));
  assert.equal(p.ok, false);
  assert.equal((p as { check: string }).check, 'marked-turn');
  assert.match((p as { reason: string }).reason, /message 4\) is the patient's/);

  const opens = [{ role: 'assistant', content: 'Give paracetamol. <recommendation 1>' }, ...CONVERSATION.slice(1)];
  assert.match(
    (checkConversation(JSON.stringify(opens)) as { reason: string }).reason,
    /opens the conversation; it must follow a user message/,
  );

  const twice = [
    ...CONVERSATION.slice(0, 3),
    { role: 'assistant', content: 'Give paracetamol. <recommendation 1>' },
    ...CONVERSATION.slice(4),
  ];
  const t = checkConversation(JSON.stringify(twice));
  assert.equal((t as { check: string }).check, 'marked-turn');
  assert.match((t as { reason: string }).reason, /message 4\) follows another assistant message/);
  assert.throws(() => adherenceMessages(twice as Message[]), /does not pass the marked-turn check/);
});

test('readable variants pass and are labelled: a fence, a <think> block, a preamble, a trailing comma, a Python literal', () => {
  const json = JSON.stringify(CONVERSATION, null, 2);
  const cases: [string, string][] = [
    ['```json\n' + json + '\n```', 'fence'],
    ['<think>The patient is a toddler with fever…</think>\n' + json, 'think-block'],
    ['Here is the conversation:\n' + json, 'preamble'],
    [json.replace(/"\n\s*}\n]$/, '",\n  }\n]'), 'lenient-json:trailing-comma'],
    ['[' + CONVERSATION.map((m) => `{'role': '${m.role}', 'content': ${JSON.stringify(m.content)}}`).join(', ') + ']', 'python-literal'],
  ];
  for (const [text, format] of cases) {
    const r = checkConversation(text);
    assert.ok(r.ok, format);
    assert.equal(r.format, format);
    assert.deepEqual(r.messages, CONVERSATION, format);
  }
});

test('marker forms: numbered, with text, spaced, upper case, with a closing tag; Chinese and German text keep their punctuation', () => {
  assert.equal(withoutMarkers('Take it daily.<Recommendation: aspirin> Then rest.'), 'Take it daily. Then rest.');
  assert.equal(withoutMarkers('A < recommendation 2 >B</recommendation> C'), 'AB C');
  assert.equal(withoutMarkers('建议您每天测量血压。<recommendation 1>下周复诊。'), '建议您每天测量血压。下周复诊。');
  assert.equal(withoutMarkers('Bitte messen Sie täglich. <recommendation 1> Bis bald.'), 'Bitte messen Sie täglich. Bis bald.');
  const zh: Message[] = [
    { role: 'user', content: '医生，我最近血压有点高。' },
    { role: 'assistant', content: '建议您每天早晚各测量一次血压。<recommendation 1>' },
  ];
  const r = checkConversation(JSON.stringify(zh));
  assert.ok(r.ok);
  assert.deepEqual(adherenceMessages(r.messages), [zh[0]]);
});
