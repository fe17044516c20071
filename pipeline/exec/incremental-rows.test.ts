// A change costs what it touches: a row-mapped stage reuses every output segment whose driving
// segment and joined rows are unchanged, without reading them, and its artifact is the same as a
// run from scratch would make. Also the pieces: which join values a changed input touches, and
// reading one member of a canonical line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveDag } from '../dag/validate.ts';
import type { DagConfig } from '../dag/define.ts';
import { runDag, type RunSummary } from './executor.ts';
import type { RunOptions } from './runner-types.ts';
import { workspaceFor } from './workspace.ts';
import { readLedger } from '../store/ledger.ts';
import { readRows } from '../store/artifacts.ts';
import { anyInZone, changedJoinValues, lineJoinValue, rowsWithValues, sortJoinValues } from './join-delta.ts';
import { memberText, pickMembers } from '../store/pick-members.ts';
import { EMPTY_SEGMENT_HASH } from '../store/segments.ts';
import { canonicalJson, hashValue, sha256 } from '../hash/canonical.ts';
import { unitKey } from './unit-key.ts';

const pipelineDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROWS = 6000;

/**
 *   src (numbers.txt) ─► seed (table, ROWS rows) ─► left, right (row stages) ─► mix (left joined with right on id)
 * Row stages log each unit they compute, so a test counts them.
 */
function project(): { root: string; config: DagConfig; setNumber(i: number, v: number): void } {
  const root = mkdtempSync(join(tmpdir(), 'cdp-inc-'));
  mkdirSync(join(root, 'stages'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  const numbers = Array.from({ length: ROWS }, (_, i) => i * 7);
  const write = () => writeFileSync(join(root, 'numbers.txt'), numbers.join('\n') + '\n');
  write();
  const stageTs = JSON.stringify(join(pipelineDir, 'stage.ts'));
  const log = JSON.stringify(join(root, 'computed.log'));
  writeFileSync(
    join(root, 'stages', 'seed.ts'),
    `import { tableStage } from ${stageTs};
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
export default tableStage({
  inputs: { src: 'whole' },
  columns: { id: 'INTEGER', v: 'BIGINT' },
  run(inputs, ctx) {
    return readFileSync(join(ctx.root, inputs.src[0].path as string), 'utf8').split('\\n').filter(Boolean).map((l, id) => ({ id, v: Number(l) }));
  },
});
`,
  );
  writeFileSync(
    join(root, 'stages', 'scale.ts'),
    `import { rowStage, z } from ${stageTs};
import { appendFileSync } from 'node:fs';
export default rowStage<{ k: number; bump: number }>({
  inputs: { seed: 'drives' },
  params: { k: z.number().default(1), bump: z.int().default(-1) },
  columns: { id: 'INTEGER', v: 'BIGINT' },
  run({ row }, ctx) {
    appendFileSync(${log}, ctx.stage + ':' + row.id + '\\n');
    return { id: row.id, v: (row.v as number) * ctx.params.k + (row.id === ctx.params.bump ? 1 : 0) };
  },
});
`,
  );
  writeFileSync(
    join(root, 'stages', 'mix.ts'),
    `import { rowStage } from ${stageTs};
import { appendFileSync } from 'node:fs';
export default rowStage({
  inputs: { left: 'drives', right: 'joined' },
  columns: { id: 'INTEGER', v: 'BIGINT' },
  run({ row, joined }) {
    appendFileSync(${log}, 'mix:' + row.id + '\\n');
    return { id: row.id, v: (row.v as number) + ((joined.right[0]?.v as number) ?? 0) };
  },
});
`,
  );
  const config: DagConfig = {
    sources: { src: { kind: 'files', patterns: ['numbers.txt'] } },
    stages: [
      { name: 'seed', module: 'stages/seed.ts', inputs: { src: 'src' } },
      { name: 'left', module: 'stages/scale.ts', inputs: { seed: 'seed' }, forEach: 'seed', params: { k: 3 } },
      { name: 'right', module: 'stages/scale.ts', inputs: { seed: 'seed' }, forEach: 'seed', params: { k: 5 } },
      {
        name: 'mix',
        module: 'stages/mix.ts',
        inputs: { left: 'left', right: 'right' },
        forEach: { input: 'left', join: { right: 'id' } },
      },
    ],
  };
  return {
    root,
    config,
    setNumber(i, v) {
      numbers[i] = v;
      write();
    },
  };
}

function computed(root: string): string[] {
  try {
    return readFileSync(join(root, 'computed.log'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

async function run(root: string, config: DagConfig, opts: RunOptions = {}): Promise<RunSummary> {
  const s = await runDag(await resolveDag(config, root), workspaceFor(root), opts);
  assert.equal(s.ok, true, JSON.stringify(s.stages.filter((x) => x.error)));
  return s;
}

function rows(root: string, config: DagConfig, stage: string) {
  const ws = workspaceFor(root);
  return readRows(ws.store, stage, readLedger(ws.ledger).entries[stage].segments!);
}

function segmentFiles(root: string, stage: string): Set<string> {
  return new Set(readdirSync(join(root, 'data', 'store', 'artifacts', stage)).filter((f) => f.endsWith('.ndjson')));
}

test('one changed row: each row stage computes one unit and writes one new segment; the result equals a run from scratch', async () => {
  const p = project();
  await run(p.root, p.config);
  assert.equal(computed(p.root).length, 3 * ROWS);
  const ledger = readLedger(workspaceFor(p.root).ledger);
  assert.ok(ledger.entries.mix.segments!.length >= 3, 'the tables are cut into segments');
  const before = Object.fromEntries(['left', 'right', 'mix'].map((s) => [s, segmentFiles(p.root, s)]));
  const copy = mkdtempSync(join(tmpdir(), 'cdp-inc-fresh-'));
  cpSync(p.root, copy, { recursive: true });

  p.setNumber(4321, 1);
  const second = await run(p.root, p.config);
  assert.deepEqual(
    computed(p.root)
      .slice(3 * ROWS)
      .sort(),
    ['left:4321', 'mix:4321', 'right:4321'],
  );
  for (const s of ['left', 'right', 'mix']) {
    const r = second.stages.find((x) => x.stage === s)!;
    assert.deepEqual([r.status, r.rowsComputed], ['ran', 1], s);
    const added = [...segmentFiles(p.root, s)].filter((f) => !before[s].has(f));
    assert.equal(added.length, 1, `${s}: one new segment file`);
  }
  // A store that never saw the first numbers computes the same artifacts.
  writeFileSync(join(copy, 'computed.log'), '');
  const { rmSync } = await import('node:fs');
  rmSync(join(copy, 'data'), { recursive: true, force: true });
  writeFileSync(join(copy, 'numbers.txt'), readFileSync(join(p.root, 'numbers.txt')));
  await run(copy, p.config);
  for (const s of ['seed', 'left', 'right', 'mix']) {
    assert.equal(
      readLedger(workspaceFor(copy).ledger).entries[s].artifact,
      readLedger(workspaceFor(p.root).ledger).entries[s].artifact,
      `${s}: same artifact as from scratch`,
    );
  }
  const mix = rows(p.root, p.config, 'mix');
  assert.equal(mix.length, ROWS);
  assert.deepEqual(mix[4321], { id: 4321, v: 3 + 5 });
  assert.deepEqual(mix[17], { id: 17, v: 17 * 7 * 8 });
});

test('joined rows planned one driving segment at a time: the artifacts of planning at once, and a one-row change computes one unit', async () => {
  const p = project();
  const copy = mkdtempSync(join(tmpdir(), 'cdp-inc-groups-'));
  cpSync(p.root, copy, { recursive: true });
  // A budget of one byte: every pending driving segment of mix is a group of its own.
  const grouped = { joinedBytesPerGroup: 1 };
  // (The copy's stages log to the same file: their module texts name it.)
  await run(copy, p.config);
  const before = computed(p.root).length;
  await run(p.root, p.config, grouped);
  const ledger = (root: string) => readLedger(workspaceFor(root).ledger).entries;
  assert.ok(ledger(p.root).left.segments!.length >= 3, 'mix is driven by several segments');
  for (const s of ['left', 'right', 'mix']) assert.equal(ledger(p.root)[s].artifact, ledger(copy)[s].artifact, `${s}: same artifact`);
  const mixed = computed(p.root)
    .slice(before)
    .filter((c) => c.startsWith('mix:'));
  assert.deepEqual([mixed.length, new Set(mixed).size], [ROWS, ROWS], 'each unit computed once');
  const n = computed(p.root).length;
  p.setNumber(2345, 1);
  await run(p.root, p.config, grouped);
  assert.deepEqual(computed(p.root).slice(n).sort(), ['left:2345', 'mix:2345', 'right:2345']);
});

test('a change to the joined input alone recomputes only the units that join the changed rows', async () => {
  const p = project();
  await run(p.root, p.config);
  const n = computed(p.root).length;
  // right's k changes every right row but row 0 (0 × k); left is untouched, so mix reruns every unit
  // but the one joining row 0.
  await run(p.root, { ...p.config, stages: p.config.stages.map((s) => (s.name === 'right' ? { ...s, params: { k: 6 } } : s)) });
  const after = computed(p.root).slice(n);
  assert.equal(after.filter((c) => c.startsWith('right:')).length, ROWS);
  assert.equal(after.filter((c) => c.startsWith('mix:')).length, ROWS - 1);
  assert.ok(!after.includes('mix:0'));
  assert.equal(after.filter((c) => c.startsWith('left:')).length, 0);
  // Back to k: 5, every unit is in the memo: nothing computes, and the artifact is the first one.
  const m = computed(p.root).length;
  await run(p.root, p.config);
  assert.equal(computed(p.root).length, m);
});

test('a changed row beside a row whose joined row changed: both units are recomputed, neither keyed from the part they replace', async () => {
  const p = project();
  await run(p.root, p.config);
  // Two rows well inside one segment of left (mix's driving input).
  const sizes = readLedger(workspaceFor(p.root).ledger).entries.left.segments!.map((s) => s.rows);
  const start = sizes.slice(0, 2).reduce((a, b) => a + b, 0);
  assert.ok(sizes[2]! >= 4, `segment of ${sizes[2]} rows`);
  const a = start + 1,
    b = start + 2;
  const n = computed(p.root).length;
  p.setNumber(a, 1);
  // right's bump changes its row b only: left's row b is the line it was, its joined row is not.
  const bumped = { ...p.config, stages: p.config.stages.map((s) => (s.name === 'right' ? { ...s, params: { k: 5, bump: b } } : s)) };
  await run(p.root, bumped);
  const mixed = computed(p.root)
    .slice(n)
    .filter((c) => c.startsWith('mix:'))
    .sort();
  assert.deepEqual(mixed, [`mix:${a}`, `mix:${b}`].sort());
  const mix = rows(p.root, bumped, 'mix');
  assert.deepEqual(mix[a], { id: a, v: 3 + 5 });
  assert.deepEqual(mix[b], { id: b, v: b * 7 * 3 + (b * 7 * 5 + 1) });
  assert.deepEqual(mix[b + 1], { id: b + 1, v: (b + 1) * 7 * 8 });
});

test('changedJoinValues compares only the segments between the shared ones, value by value', () => {
  const line = (id: number, v: number) => canonicalJson({ id, v });
  const segs: Record<string, string[]> = {
    a: [line(1, 1), line(2, 2)],
    b: [line(3, 3), line(4, 4)],
    b2: [line(3, 3), line(4, 40)],
    c: [line(5, 5)],
    d: [line(6, 6)],
  };
  const lines = (h: string) => segs[h] ?? null;
  assert.deepEqual(changedJoinValues(['a', 'b', 'c'], ['a', 'b', 'c'], 'id', lines), new Set());
  assert.deepEqual(changedJoinValues(['a', 'b', 'c'], ['a', 'b2', 'c'], 'id', lines), new Set(['4']));
  // A segment added at the end: its values, and nothing else.
  assert.deepEqual(changedJoinValues(['a', 'b'], ['a', 'b', 'd'], 'id', lines), new Set(['6']));
  // Shared segments reordered, or a changed segment's file gone: cannot tell.
  assert.equal(changedJoinValues(['a', 'c'], ['c', 'a'], 'id', lines), null);
  assert.equal(changedJoinValues(['a', 'x'], ['a', 'b'], 'id', lines), null);
  // Empty segments, repeated (a crossed stage's elements that give a segment no row): no rows,
  // so they align nothing and change nothing.
  const E = EMPTY_SEGMENT_HASH;
  const withEmpty = (h: string) => (h === E ? [] : lines(h));
  assert.deepEqual(changedJoinValues(['a', E, 'b', E], ['a', E, 'b2', E, 'd', E], 'id', withEmpty), new Set(['4', '6']));
  assert.deepEqual(changedJoinValues([E, 'a', E], ['a', E, E], 'id', withEmpty), new Set());
  assert.equal(sha256(''), E, 'the hash of a segment with no line');
});

test('memberText reads a top-level member of a canonical line; rowsWithValues finds its rows exactly', () => {
  assert.equal(memberText('{"a":1,"id":"g-1","z":[1]}', 'id'), '"g-1"');
  assert.equal(memberText('{"id":12,"z":2}', 'id'), '12');
  assert.equal(memberText('{"id":"a\\"b","z":2}', 'id'), '"a\\"b"');
  assert.equal(memberText('{"a":{"id":1},"id":2}', 'id'), '2', 'a nested member of that name is skipped');
  assert.equal(memberText('{"a":{"id":1}}', 'id'), undefined, 'only nested: the row has none');
  assert.equal(memberText('{"a":"{\\"id\\":1}","id":[1]}', 'id'), null, 'an array value: the caller parses');
  assert.equal(lineJoinValue('{"id":[1,2]}', 'id'), '[1,2]');
  assert.equal(lineJoinValue('{"x":1}', 'id'), 'null');
  assert.equal(memberText('{"a":1}', 'id'), undefined);
  const find = rowsWithValues('id', new Set(['"g-1"', '7']));
  assert.deepEqual(find('{"id":"g-1","t":"x"}'), { id: 'g-1', t: 'x' });
  assert.deepEqual(find('{"id":7}'), { id: 7 });
  assert.equal(find('{"id":70}'), null);
  assert.equal(find('{"t":"\\"id\\":7"}'), null, 'inside a string is not the member');
  assert.equal(find('{"a":{"id":7},"id":8}'), null, 'a nested member is not the row’s');
  const nulls = rowsWithValues('id', new Set(['null']));
  assert.deepEqual(nulls('{"t":1}'), { t: 1 }, 'a row without the column joins as null');
});

test('anyInZone: a value of a sorted list within [min, max]; an empty segment holds none', () => {
  assert.equal(anyInZone(['"a"', '"m"', '"z"'], ['"b"', '"n"']), true);
  assert.equal(anyInZone(['"a"', '"z"'], ['"b"', '"n"']), false);
  assert.equal(anyInZone(['"b"'], ['"b"', '"b"']), true);
  assert.equal(anyInZone([], ['"a"', '"z"']), false);
  assert.equal(anyInZone(['"a"'], null), false);
  // Numbers by value: a zone of ids 0–999 holds neither 5000 nor "5".
  assert.equal(anyInZone(sortJoinValues(['5000', '1000']), ['0', '999']), false);
  assert.equal(anyInZone(sortJoinValues(['5000', '17']), ['0', '999']), true);
  assert.equal(anyInZone(['"5"'], ['0', '999']), false);
  assert.deepEqual(sortJoinValues(['"b"', '10', '9', '-1', '"a"']), ['-1', '9', '10', '"a"', '"b"']);
});

test('unitKey is hashValue of { c, j, r, x }, written out directly', () => {
  const h = (s: string) => sha256(s);
  for (const [joined, x] of [
    [{}, null],
    [{ right: [h('a'), h('b')] }, h('x')],
    [{ vignettes: [h('v')], guidelines: [], trees: [h('t1'), h('t2')] }, null],
  ] as [Record<string, string[]>, string | null][]) {
    assert.equal(unitKey(h('c'), h('r'), x, joined), hashValue({ c: h('c'), r: h('r'), x, j: joined }));
  }
});

test('pickMembers builds only the wanted top-level members of a canonical line', () => {
  const line = canonicalJson({ a: { id: 1, t: 'x' }, id: 'g"1', n: 3, text: 'long, {with} "quotes"', v: [1, [2]] });
  assert.deepEqual(pickMembers(line, new Set(['id', 'v'])), { id: 'g"1', v: [1, [2]] });
  assert.deepEqual(pickMembers(line, new Set(['n', 'missing'])), { n: 3 });
  assert.deepEqual(pickMembers('{ "id": 1, "t": 2 }', new Set(['t'])), { t: 2 }, 'a line that is not compact is parsed whole');
});
