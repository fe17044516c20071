import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { runPathwayMetrics, scorePathway } from './pathway-metrics.ts';
import { dtw } from './dtw.ts';
import { otPcc } from './ot.ts';
import { lndsPcs } from './lnds.ts';

const C1 = [
  [0.9, 0.8, 0.1, 0],
  [0.2, 0.3, 0.7, 0.6],
];
const flat = Float64Array.from(C1.flat());

describe('scorePathway', () => {
  test('maps a line to the three metrics and the DTW path', () => {
    const out = scorePathway({ id: 'a', C: C1 });
    assert.deepEqual(Object.keys(out), ['id', 'dtw_pcc', 'ot_pcc', 'lnds_pcs', 'dtw_path']);
    assert.equal(out.id, 'a');
    assert.ok(Math.abs(out.dtw_pcc - 0.25) < 1e-12);
    assert.deepEqual(out.dtw_path, [
      [0, 0],
      [0, 1],
      [1, 2],
      [1, 3],
    ]);
    assert.equal(out.ot_pcc, otPcc(flat, 2, 4, { beta: 0.2 }).pcc);
    assert.equal(out.lnds_pcs, 1); // argmaxes 0 (.9) and 2 (.7 ≥ γ .7)
  });

  test('the line’s judge sets γ and β; explicit line values win over it; caller defaults come last', () => {
    // Qwen3-8B's γ = .9 unmatches the second step (best .7): PCS 1/2.
    assert.equal(scorePathway({ id: 1, C: C1, judge: 'qwen3-8b' }).lnds_pcs, 0.5);
    assert.equal(scorePathway({ id: 1, C: C1, judge: 'qwen3-8b', gamma: 0.5 }).lnds_pcs, 1);
    assert.equal(scorePathway({ id: 1, C: C1 }, { gamma: 0.95 }).lnds_pcs, 0);
    assert.equal(scorePathway({ id: 1, C: C1, judge: 'gpt-5.4-mini' }, { gamma: 0.95 }).lnds_pcs, 1);
    // BERTScore: β = .1 in the OT cost.
    assert.equal(scorePathway({ id: 1, C: C1, judge: 'bertscore' }).ot_pcc, otPcc(flat, 2, 4, { beta: 0.1 }).pcc);
    assert.equal(scorePathway({ id: 1, C: C1 }, { judge: 'bertscore' }).ot_pcc, otPcc(flat, 2, 4, { beta: 0.1 }).pcc);
    const custom = scorePathway({ id: 1, C: C1, alpha: 2, beta: 0.3, lambda: 0.2, tau_a: 0.5, tau_b: 3 });
    assert.equal(custom.ot_pcc, otPcc(flat, 2, 4, { alpha: 2, beta: 0.3, lambda: 0.2, tauA: 0.5, tauB: 3 }).pcc);
  });

  test('an empty prediction (m empty rows) scores the worst values', () => {
    const out = scorePathway({ id: 'empty', C: [[], [], []] });
    assert.deepEqual(out, { id: 'empty', dtw_pcc: 1, ot_pcc: 1, lnds_pcs: 0, dtw_path: [] });
  });

  test('bad inputs throw with the field named', () => {
    assert.throws(() => scorePathway({ C: C1 }), /"id" must be a string or number/);
    assert.throws(() => scorePathway({ id: 1, C: [] }), /m = 0/);
    assert.throws(() => scorePathway({ id: 1, C: [[0.1, 0.2], [0.3]] }), /C\[1\] has 1 entries but C\[0\] has 2/);
    assert.throws(() => scorePathway({ id: 1, C: [[0.1, '0.2']] }), /C\[0\]\[1\] must be a number/);
    assert.throws(() => scorePathway({ id: 1, C: [[0.1, 1.5]] }), /C\[0\]\[1\] = 1\.5 is outside \[0, 1\]/);
    assert.throws(() => scorePathway({ id: 1, C: C1, gamma: 'high' }), /"gamma" must be a finite number/);
    assert.throws(() => scorePathway({ id: 1, C: C1, judge_kind: 'human' }), /"judge_kind" must be "llm" or "similarity"/);
    // An unknown judge is refused, not given another judge's γ; with its own γ it is scored.
    assert.throws(
      () => scorePathway({ id: 1, C: C1, judge: 'my-judge' }),
      /^RangeError: unknown judge "my-judge": calibrated judges are gpt-5.4-mini, qwen3-8b and bertscore; give "gamma"/,
    );
    assert.equal(scorePathway({ id: 1, C: C1, judge: 'my-judge', gamma: 0.5 }).lnds_pcs, 1);
  });
});

async function run(text: string, slow = false): Promise<{ lines: Record<string, unknown>[]; counts: { ok: number; failed: number } }> {
  let out = '';
  // `slow`: a tiny buffer that acknowledges asynchronously, so write() returns false and the
  // runner has to wait for 'drain'.
  const sink = new Writable({
    highWaterMark: slow ? 16 : 16384,
    write(chunk: Buffer, _enc, cb) {
      out += chunk.toString();
      if (slow) setImmediate(cb);
      else cb();
    },
  });
  const counts = await runPathwayMetrics(Readable.from([text]), sink);
  return {
    lines: out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
    counts,
  };
}

describe('runPathwayMetrics', () => {
  test('scores every line in order; a bad line becomes an error record and the rest continue', async () => {
    const input = [
      JSON.stringify({ id: 'good-1', C: C1 }),
      '{not json',
      '',
      JSON.stringify({ id: 'bad-range', C: [[0.5, -0.2]] }),
      JSON.stringify({
        id: 'good-2',
        C: [
          [1, 0],
          [0, 1],
        ],
        judge: 'qwen3-8b',
      }),
      JSON.stringify([1, 2]),
    ].join('\n');
    const { lines, counts } = await run(input);
    assert.deepEqual(counts, { ok: 2, failed: 3 });
    assert.equal(lines.length, 5);
    assert.equal(lines[0]!['id'], 'good-1');
    assert.ok(Math.abs((lines[0]!['dtw_pcc'] as number) - 0.25) < 1e-12);
    assert.equal(lines[1]!['line'], 2);
    assert.match(lines[1]!['error'] as string, /not valid JSON/);
    assert.equal('id' in lines[1]!, false);
    assert.deepEqual({ id: lines[2]!['id'], line: lines[2]!['line'] }, { id: 'bad-range', line: 4 });
    assert.match(lines[2]!['error'] as string, /C\[0\]\[1\] = -0\.2 is outside \[0, 1\]/);
    assert.equal(lines[3]!['id'], 'good-2');
    assert.equal(lines[3]!['dtw_pcc'], dtw(Float64Array.from([1, 0, 0, 1]), 2, 2).pcc);
    assert.equal(lines[3]!['lnds_pcs'], lndsPcs(Float64Array.from([1, 0, 0, 1]), 2, 2, 0.9).pcs);
    assert.equal(lines[4]!['line'], 6);
    assert.match(lines[4]!['error'] as string, /must be a JSON object/);
  });

  test('handles CRLF line endings and many lines with backpressure', async () => {
    const many = Array.from({ length: 2000 }, (_, k) =>
      JSON.stringify({
        id: k,
        C: [
          [k % 2, 0.5],
          [0.25, 1],
        ],
      }),
    ).join('\r\n');
    const { lines, counts } = await run(many, true);
    assert.deepEqual(counts, { ok: 2000, failed: 0 });
    assert.deepEqual(
      lines.map((l) => l['id']),
      Array.from({ length: 2000 }, (_, k) => k),
    );
  });
});
