import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgePromptBudgets } from './judge-prompt-budgets.ts';

test('budgets are context window minus the answer reserve; judges without a window get none', () => {
  const roster = [{ name: 'big', contextWindow: 128_000 }, { name: 'small', contextWindow: 32_768 }, { name: 'offline' }];
  assert.deepEqual(judgePromptBudgets(roster, ['big', 'small', 'offline']), { big: 119_808, small: 24_576 });
  assert.deepEqual(judgePromptBudgets(roster, ['small'], 1000), { small: 31_768 });
  assert.throws(() => judgePromptBudgets(roster, ['missing']), /judge missing is not in the roster/);
  assert.throws(() => judgePromptBudgets(roster, ['small'], 40_000), /lower the reserve/);
});
