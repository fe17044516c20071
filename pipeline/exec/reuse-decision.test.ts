import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideReuse, type ReuseFacts } from './reuse-decision.ts';

const ok = { ok: true, restat: null } as const;
const damaged = { ok: false, reason: 'artifact missing' } as const;
const facts = (over: Partial<ReuseFacts>): ReuseFacts => ({ sameKey: true, check: ok, staleness: () => ['params changed: x'], ...over });

test('the same key with a sound artifact is reused, and nothing else is', () => {
  assert.deepEqual(decideReuse(facts({})), { run: false });
  assert.deepEqual(decideReuse(facts({ retryFailed: true, failedRows: 0 })), { run: false }, '--retry-failed without failed rows reuses');
  assert.deepEqual(decideReuse(facts({ failedRows: 3 })), { run: false }, 'failed rows alone do not rerun');
});

test('each reason to run, in precedence order, is the reason shown', () => {
  const pendingInputs = [{ local: 'cdps', from: 'test_cases' }];
  assert.deepEqual(decideReuse(facts({ pendingInputs, forced: true, sameKey: false })), {
    run: true,
    reasons: ["input 'cdps' (test_cases) will change"],
    rebuildOnly: false,
  });
  assert.deepEqual(decideReuse(facts({ forced: true, retryFailed: true, failedRows: 2 })), {
    run: true,
    reasons: ['--force'],
    rebuildOnly: false,
  });
  assert.deepEqual(decideReuse(facts({ retryFailed: true, failedRows: 2, check: damaged })), {
    run: true,
    reasons: ['--retry-failed: 2 failed rows'],
    rebuildOnly: false,
  });
  assert.deepEqual(decideReuse(facts({ check: damaged })), { run: true, reasons: ['artifact missing'], rebuildOnly: true });
  assert.deepEqual(decideReuse(facts({ sameKey: false, check: { ok: false, reason: 'key changed' } })), {
    run: true,
    reasons: ['params changed: x'],
    rebuildOnly: false,
  });
});

test('staleness is explained only for a changed key', () => {
  let asked = 0;
  const staleness = () => (asked++, ['never ran']);
  decideReuse(facts({ staleness }));
  decideReuse(facts({ staleness, check: damaged }));
  assert.equal(asked, 0);
  assert.deepEqual(decideReuse(facts({ staleness, sameKey: false })), { run: true, reasons: ['never ran'], rebuildOnly: false });
  assert.equal(asked, 1);
});
