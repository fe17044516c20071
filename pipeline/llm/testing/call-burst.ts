/**
 * A child process for the kill test: makes N distinct calls through the client against a
 * server URL and prints `done <i>` as each answer comes back (after it is durable).
 * Usage: tsx call-burst.ts <cacheDir> <baseURL> <n> <concurrency> [prefix]
 * (the prompts are `<prefix>call <i>`, so two bursts with different prefixes make different calls).
 */
import { createLlmClient } from '../client.ts';

const [cacheDir, baseURL, nArg, concArg, prefix = ''] = process.argv.slice(2);
if (!cacheDir || !baseURL) {
  console.error('usage: tsx call-burst.ts <cacheDir> <baseURL> <n> <concurrency>');
  process.exit(2);
}
const n = Number(nArg ?? 20);
const concurrency = Number(concArg ?? 4);
const client = createLlmClient({
  cacheDir,
  roster: [
    {
      name: 'burst',
      roles: ['judge'],
      provider: 'openai-compatible',
      baseURLs: [baseURL],
      apiKeyEnv: 'BURST_KEY',
      apiKeyOptional: true,
      concurrency,
    },
  ],
});
let next = 0;
async function worker(): Promise<void> {
  while (next < n) {
    const i = next++;
    const r = await client.chat({ model: 'burst', role: 'judge', messages: [{ role: 'user', content: `${prefix}call ${i}` }] });
    process.stdout.write(r.ok ? `done ${i}${r.cached ? ' cached' : ''}\n` : `failed ${i} ${r.error}\n`);
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await client.close();
process.stdout.write('finished\n');
