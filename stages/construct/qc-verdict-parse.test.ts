import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQcVerdict } from './qc-verdict-parse.ts';

const P = '128 mmHg is below the 140 mmHg threshold of a yes step';

test('QC verdicts: read, with the format recorded', () => {
  const rows: Array<{ input: string; consistent: boolean; problems: string[]; format: string }> = [
    { input: '{"consistent": true, "problems": []}', consistent: true, problems: [], format: 'strict' },
    { input: `{"consistent": false, "problems": ["${P}"]}`, consistent: false, problems: [P], format: 'strict' },
    { input: '```json\n{"consistent": true, "problems": []}\n```', consistent: true, problems: [], format: 'fence' },
    { input: 'Here is my verdict:\n{"consistent": true, "problems": []}', consistent: true, problems: [], format: 'preamble' },
    { input: `{"consistent": false, "problems": ["${P}",],}`, consistent: false, problems: [P], format: 'lenient-json:trailing-comma' },
    { input: '{"consistent": "True", "problems": []}', consistent: true, problems: [], format: 'lenient-json:string-boolean' },
    {
      input: '<think>check the threshold</think>{"consistent": true, "problems": []} // all good',
      consistent: true,
      problems: [],
      format: 'think-block+trailing-note',
    },
  ];
  for (const row of rows) {
    assert.deepEqual(
      parseQcVerdict(row.input),
      { ok: true, consistent: row.consistent, problems: row.problems, format: row.format },
      row.input,
    );
  }
});

test('faults: shape, contradictions and truncation', () => {
  const rows: Array<{ input: string; problem: RegExp; finishReason?: string }> = [
    { input: '{"consistent": true, "problems": []}', finishReason: 'length', problem: /^truncated answer \(finish_reason: length\)/ },
    { input: 'I think it is fine.', problem: /no parseable JSON/ },
    { input: '[true]', problem: /must be a JSON object/ },
    { input: '{"consistent": "maybe", "problems": []}', problem: /^"consistent" is "maybe"; it must be true or false$/ },
    { input: '{"consistent": true}', problem: /^"problems" is missing/ },
    { input: '{"consistent": true, "problems": [1]}', problem: /^"problems" is not a list of strings/ },
    { input: '{"consistent": false, "problems": []}', problem: /"consistent" is false but no problem is listed/ },
    { input: `{"consistent": true, "problems": ["${P}"]}`, problem: /"consistent" is true but 1 problem\(s\) are listed/ },
  ];
  for (const row of rows) {
    const r = parseQcVerdict(row.input, row.finishReason);
    assert.equal(r.ok, false, row.input);
    assert.match(r.ok ? '' : r.problems[0], row.problem, row.input);
  }
});
