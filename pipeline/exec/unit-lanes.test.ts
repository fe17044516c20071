import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elementName, laneWidths, MAX_UNITS_IN_FLIGHT, unitLanes } from './unit-lanes.ts';

const unit = (cross: unknown, i: number) => ({ cross, i });

test("units go to their crossed element's lane when it has a width, in plan order; the others share one lane", () => {
  const units = [unit({ name: 'a' }, 0), unit('b', 1), unit({ name: 'c' }, 2), unit({ name: 'a' }, 3), unit(undefined, 4), unit(7, 5)];
  const lanes = unitLanes(units, { laneWidths: { a: 3, b: 2 } });
  assert.deepEqual(
    [...lanes].map(([lane, us]) => [lane === 'a' || lane === 'b' ? lane : 'shared', us.map((u) => u.i)]),
    [
      ['a', [0, 3]],
      ['b', [1]],
      ['shared', [2, 4, 5]],
    ],
  );
  // Without lane widths every unit shares one lane, as a stage always did.
  assert.deepEqual(
    [...unitLanes(units, {}).values()].map((us) => us.length),
    [6],
  );
  assert.deepEqual([elementName({ name: 'm' }), elementName('s'), elementName({ id: 1 }), elementName(undefined)], ['m', 's', null, null]);
});

test('a lane is as wide as declared but no wider than its units; the shared lane takes `concurrency` (4 unset)', () => {
  const units = [...Array(10).keys()].map((i) => unit(i % 2 ? { name: 'wide' } : { name: 'other' }, i));
  const lanes = unitLanes(units, { laneWidths: { wide: 64 } });
  const widths = laneWidths(lanes, { laneWidths: { wide: 64 }, concurrency: 2 });
  assert.deepEqual([...widths.values()].sort(), [2, 5]);
  assert.deepEqual([...laneWidths(unitLanes(units, {}), {}).values()], [4]);
});

test(`all lanes together keep at most ${MAX_UNITS_IN_FLIGHT} units in flight, each lane at least one`, () => {
  const many = (name: string, n: number) => Array.from({ length: n }, (_, i) => unit({ name }, i));
  const units = [...many('a', 3000), ...many('b', 1000), ...many('c', 5)];
  const decl = { laneWidths: { a: 1536, b: 512, c: 1 } };
  const widths = laneWidths(unitLanes(units, decl), decl);
  // 1536 + 512 + 1 = 2049 → scaled by 1024 / 2049, floored, at least one.
  assert.deepEqual(Object.fromEntries(widths), { a: 767, b: 255, c: 1 });
  assert.ok([...widths.values()].reduce((s, w) => s + w, 0) <= MAX_UNITS_IN_FLIGHT);
});
