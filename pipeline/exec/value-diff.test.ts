import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedPaths, describeChange, listChanges } from './value-diff.ts';

test('changedPaths: the dotted paths of differing leaves, objects member by member, arrays whole', () => {
  assert.deepEqual(changedPaths({ a: 1, b: { c: 2, d: [1, 2] } }, { a: 1, b: { c: 3, d: [1, 2, 3] } }), ['b.c', 'b.d']);
  assert.deepEqual(changedPaths({ a: 1 }, { a: 1, e: null }), [], 'an absent member and a null one are the same value');
  assert.deepEqual(changedPaths({ a: 1 }, { b: 1 }), ['a', 'b']);
  assert.deepEqual(changedPaths(1, 2), ['(value)']);
  assert.deepEqual(changedPaths({ x: { y: 1 } }, { x: 'text' }), ['x']);
});

test('listChanges: named elements matched by name (changed, added, removed); others by value', () => {
  const a = { name: 'a', s: { t: 0 } };
  const b = { name: 'b', s: { t: 0 } };
  assert.deepEqual(listChanges([a, b], [{ ...a, s: { t: 0.2 } }, b]), ['a changed: s.t']);
  assert.deepEqual(listChanges([a, b], [b, { name: 'c' }]), ['added c', 'removed a']);
  assert.deepEqual(listChanges([a, b], [b, a]), ['elements reordered']);
  assert.deepEqual(listChanges(['x', 'y'], ['y', 'z']), ['added z', 'removed x']);
  assert.deepEqual(listChanges([1, 2], [1, 2]), []);
});

test('describeChange: a named value by its name, a plain object by its paths, a scalar says nothing more', () => {
  assert.equal(describeChange({ name: 'p', id: 'x' }, { name: 'p', id: 'y' }), 'p changed: id');
  assert.equal(describeChange({ name: 'p' }, { name: 'q' }), 'p → q');
  assert.equal(describeChange({ k: { g: 1 } }, { k: { g: 2 } }), 'changed: k.g');
  assert.equal(
    describeChange(
      [{ name: 'a', v: 1 }],
      [
        { name: 'a', v: 2 },
        { name: 'b', v: 1 },
      ],
    ),
    'a changed: v; added b',
  );
  assert.equal(describeChange(1, 2), null);
  assert.equal(describeChange({ a: 1 }, { a: 1 }), null);
});
