/**
 * `cdp` in a fresh process, as a user runs it, for end-to-end tests and benchmarks: the exit
 * code and everything it printed. The environment given is laid over the caller's. A test's own
 * store (CDP_STORE) gets its own call cache beside it unless the test names one (CDP_LLM_CACHE):
 * tests never read or fill the project's shared cache, nor each other's.
 */
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CdpOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCdp(args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd: string = REPO): Promise<CdpOutcome> {
  return new Promise((res) => {
    const cache = env.CDP_STORE && !env.CDP_LLM_CACHE ? { CDP_LLM_CACHE: join(env.CDP_STORE, 'llm-cache') } : {};
    const c = spawn(process.execPath, [join(REPO, 'bin', 'cdp.mjs'), ...args], { cwd, env: { ...process.env, ...cache, ...env } });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d) => (stdout += d));
    c.stderr.on('data', (d) => (stderr += d));
    c.on('exit', (code) => res({ code: code ?? -1, stdout, stderr }));
  });
}
