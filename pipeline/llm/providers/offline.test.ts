import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThreadPool } from '../../threads/pool.ts';
import { threadedProviders } from '../../threads/threaded-providers.ts';
import { createLlmClient } from '../client.ts';
import type { ChatMessage, ModelSpec, Provider } from '../types.ts';
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

test('a provider that answers from the context gets the roles without the text, on the main thread and on a worker alike; another gets the text with its blobs', async () => {
  const seen: Record<string, unknown> = {};
  const own = (name: string, answersFromContext: boolean): Provider => ({
    ...(answersFromContext ? { answersFromContext } : {}),
    async callApi(prompt) {
      seen[name] = prompt.messages;
      return { output: 'ok' };
    },
  });
  const offline = (name: string): ModelSpec => ({ name, roles: ['judge'], provider: 'offline', simulated: true });
  const dir = mkdtempSync(join(tmpdir(), 'offline-'));
  try {
    const client = createLlmClient({
      cacheDir: dir,
      roster: [offline('reads-context-simulated'), offline('reads-prompt-simulated')],
      offlineHandlers: {
        'reads-context-simulated': own('reads-context-simulated', true),
        'reads-prompt-simulated': own('reads-prompt-simulated', false),
      },
      env: {},
    });
    const s = client.forStage('judging');
    const guideline = client.blob('A long guideline. '.repeat(50));
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are a doctor.' },
      { role: 'user', content: [{ type: 'text', text: 'Guideline: ' }, guideline] },
    ];
    for (const model of ['reads-context-simulated', 'reads-prompt-simulated'])
      assert.ok((await s.chat({ model, role: 'judge', messages, context: { case: 1 } })).ok);
    await client.close();
    assert.deepEqual(seen['reads-context-simulated'], [
      { role: 'system', content: '' },
      { role: 'user', content: '' },
    ]);
    assert.deepEqual(seen['reads-prompt-simulated'], [
      { role: 'system', content: 'You are a doctor.' },
      { role: 'user', content: `Guideline: ${'A long guideline. '.repeat(50)}` },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // On a worker: the flag crosses with the threaded stand-in, so the call that crosses has no text.
  const threaded = threadedProviders(
    new ThreadPool({ size: 1 }),
    { a: own('a', true), b: (p) => String(p.model), c: own('c', false) },
    'unused.ts',
    'f',
  );
  assert.deepEqual(
    Object.entries(threaded).map(([n, p]) => [n, p.answersFromContext === true]),
    [
      ['a', true],
      ['b', false],
      ['c', false],
    ],
  );
});
