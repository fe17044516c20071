import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJudgement } from './judgement.ts';

const STRICT =
  '{"score": 1, "rationale": "The response states the recommendation.", "supporting_text": "give paracetamol", "confidence": 0.9}';

// Answers as chat models give them, each with what must be read and how it is labelled.
const VARIANTS: { name: string; text: string; finish?: string; score: 0 | 1; confidence: number | null; format: string; word?: string }[] =
  [
    { name: 'strict', text: STRICT, score: 1, confidence: 0.9, format: 'strict' },
    { name: 'fenced', text: '```json\n' + STRICT + '\n```', score: 1, confidence: 0.9, format: 'fence' },
    {
      name: 'think block',
      text: '<think>The ground truth says paracetamol…</think>\n' + STRICT,
      score: 1,
      confidence: 0.9,
      format: 'think-block',
    },
    {
      name: 'preamble and note',
      text: 'Here is my evaluation:\n' + STRICT + '\nNote: title not assessed.',
      score: 1,
      confidence: 0.9,
      format: 'preamble+trailing-note',
    },
    { name: 'trailing comma', text: STRICT.replace('0.9}', '0.9,}'), score: 1, confidence: 0.9, format: 'lenient-json:trailing-comma' },
    {
      name: 'Python dict',
      text: "{'score': 0, 'rationale': \"The reply doesn't mention it.\", 'supporting_text': '', 'confidence': 0.8}",
      score: 0,
      confidence: 0.8,
      format: 'python-literal',
    },
    {
      name: 'Python dict with True in a fence',
      text: "```python\n{'score': True, 'rationale': 'Present.', 'supporting_text': 'paracetamol', 'confidence': 1.0}\n```",
      score: 1,
      confidence: 1,
      format: 'fence+python-literal+yes-no-synonym',
    },
    {
      name: 'keys spelled otherwise',
      text: '{"Score": 1, "Reason": "Present.", "Supporting Text": "paracetamol", "Confidence": 0.7}',
      score: 1,
      confidence: 0.7,
      format: 'key-synonym',
    },
    {
      name: 'score and confidence as strings',
      text: '{"score": "0", "rationale": "Absent.", "supporting_text": "", "confidence": "0.6"}',
      score: 0,
      confidence: 0.6,
      format: 'lenient-json:string-number',
    },
    {
      name: 'yes as score',
      text: '{"score": "yes", "rationale": "Present.", "supporting_text": "x", "confidence": 0.5}',
      score: 1,
      confidence: 0.5,
      format: 'yes-no-synonym',
    },
    {
      name: 'percent confidence',
      text: '{"score": 1, "rationale": "Present.", "supporting_text": "x", "confidence": "85%"}',
      score: 1,
      confidence: 0.85,
      format: 'percent',
    },
    {
      name: 'confidence on 0–100',
      text: '{"score": 1, "rationale": "Present.", "supporting_text": "x", "confidence": 95}',
      score: 1,
      confidence: 0.95,
      format: 'percent',
    },
    {
      name: 'confidence as a word',
      text: '{"score": 0, "rationale": "Absent.", "supporting_text": "", "confidence": "high"}',
      score: 0,
      confidence: null,
      word: 'high',
      format: 'confidence-word',
    },
    {
      name: 'Chinese keys',
      text: '{"评分": 1, "理由": "回答提到了对乙酰氨基酚。", "支持文本": "对乙酰氨基酚", "置信度": 0.9}',
      score: 1,
      confidence: 0.9,
      format: 'chinese-marker',
    },
    {
      name: 'Chinese yes, full-width',
      text: '{"score": "是", "rationale": "提到了。", "supporting_text": "", "confidence": "０.８"}',
      score: 1,
      confidence: 0.8,
      format: 'chinese-marker+lenient-json:string-number+yes-no-synonym',
    },
    {
      name: 'German keys',
      text: '{"Bewertung": "nein", "Begründung": "Die Antwort nennt die Maßnahme nicht.", "Belegtext": "", "Konfidenz": 0.75}',
      score: 0,
      confidence: 0.75,
      format: 'german-marker+yes-no-synonym',
    },
    {
      name: 'extra keys ignored',
      text: '{"score": 1, "rationale": "Present.", "supporting_text": "x", "confidence": 0.9, "title_detected": false}',
      score: 1,
      confidence: 0.9,
      format: 'strict',
    },
  ];

test('the judge reader accepts readable variants, reads the same score, and labels each', () => {
  for (const v of VARIANTS) {
    const r = parseJudgement(v.text, v.finish);
    assert.ok(r.ok, `${v.name}: ${JSON.stringify(r)}`);
    assert.equal(r.value.score, v.score, v.name);
    assert.equal(r.value.confidence, v.confidence, v.name);
    assert.equal(r.value.confidenceText, v.word ?? null, v.name);
    assert.equal(r.format, v.format, v.name);
    assert.ok(r.value.rationale.length > 0, v.name);
  }
});

// Real faults: re-asked with these problems; what the re-ask says must name what to fix.
const FAULTS: { name: string; text: string; finish?: string; problem: RegExp }[] = [
  { name: 'truncated', text: STRICT, finish: 'length', problem: /truncated answer \(finish_reason: length\)/ },
  { name: 'prose only', text: 'The response clearly mentions paracetamol, so I give it a 1.', problem: /no parseable JSON/ },
  { name: 'only reasoning', text: '<think>Let me compare the response with', problem: /only reasoning/ },
  { name: 'half point', text: STRICT.replace('"score": 1', '"score": 0.5'), problem: /"score" is 0.5, not 0 or 1/ },
  { name: 'score 2', text: STRICT.replace('"score": 1', '"score": 2'), problem: /"score" is 2, not 0 or 1/ },
  { name: 'missing score', text: '{"rationale": "x", "supporting_text": "", "confidence": 0.5}', problem: /"score" is missing/ },
  { name: 'missing confidence', text: '{"score": 1, "rationale": "x", "supporting_text": ""}', problem: /"confidence" is missing/ },
  { name: 'confidence 1.5e3', text: STRICT.replace('0.9}', '1500}'), problem: /"confidence" is 1500/ },
  { name: 'empty rationale', text: STRICT.replace('The response states the recommendation.', ' '), problem: /"rationale" is empty/ },
  { name: 'a list', text: `[${STRICT}, ${STRICT}]`, problem: /a list of 2 item\(s\); give one dictionary/ },
  {
    name: 'contradicting keys',
    text: '{"score": 1, "rating": 0, "rationale": "x", "supporting_text": "", "confidence": 0.5}',
    problem: /two keys give "score" different values \(1 and 0\)/,
  },
  { name: 'unclosed', text: '{"score": 1, "rationale": "The response', problem: /never closes/ },
  { name: 'a bare number', text: '1', problem: /must be one dictionary/ },
];

test('real faults are refused with a problem that says what to fix', () => {
  for (const f of FAULTS) {
    const r = parseJudgement(f.text, f.finish);
    assert.equal(r.ok, false, f.name);
    assert.ok(
      (r as { problems: string[] }).problems.some((p) => f.problem.test(p)),
      `${f.name}: ${JSON.stringify((r as { problems: string[] }).problems)}`,
    );
  }
});
