/**
 * The fake OpenAI-compatible server in a process of its own (fake-openai-server-main.ts), so a
 * benchmark's client does not share its event loop with the server it measures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), 'fake-openai-server-main.ts');

/** Starts the server with `latencyMs` per request; resolves with its base URL once it listens. */
export async function startFakeServerProcess(latencyMs: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, String(latencyMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = buf.match(/listening (\S+)\n/);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`fake server exited with ${code}`)));
  });
  return { url, child };
}
