/**
 * Runs the fake OpenAI server as its own process (benchmarks keep it off the client's core):
 * prints `listening <baseURL>` on stdout and serves until killed.
 * Usage: tsx fake-openai-server-main.ts [latencyMs]
 */
import { startFakeOpenAIServer } from './fake-openai-server.ts';

const latencyMs = Number(process.argv[2] ?? 0);
const srv = await startFakeOpenAIServer({ latencyMs, keepRequests: false });
process.stdout.write(`listening ${srv.url}\n`);
process.on('SIGTERM', () => void srv.close().then(() => process.exit(0)));
