import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Provider } from '../types.ts';
import { offlineProvider } from './offline.ts';

test('an offline handler becomes a provider answering through callApi; a provider is used as it is', async () => {
  const seen: unknown[] = [];
  const wrapped = offlineProvider((prompt) => `${prompt.model} heard ${String(prompt.messages[0].content)}`);
  const r = await wrapped.callApi({ model: 'patient-simulated', messages: [{ role: 'user', content: 'pain?' }] }, { case: 1 });
  assert.deepEqual(r, { output: 'patient-simulated heard pain?' });

  const own: Provider = {
    async callApi(_prompt, context) {
      seen.push(context);
      return { output: 'yes', metadata: { via: 'context' } };
    },
  };
  assert.equal(offlineProvider(own), own);
  assert.deepEqual(await offlineProvider(own).callApi({ model: 'm', messages: [] }, { case: 2 }), {
    output: 'yes',
    metadata: { via: 'context' },
  });
  assert.deepEqual(seen, [{ case: 2 }]);
});
