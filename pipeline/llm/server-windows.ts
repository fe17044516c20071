/**
 * The context windows servers reported (`cdp models --check` reads vLLM's `max_model_len` and its
 * kin), kept in the store as `model-windows.json` so that every later command knows them: the
 * client refuses a prompt over the window before sending it, and `cdp estimate` counts it as an
 * overflow. A window is the server's for one model id at one base URL; another URL is another
 * server, whose window is not known until it is checked.
 *
 * Which window a model gets: the server's when the models file declares none (instead of the
 * assumed default) or declares more than the server serves; the declared one otherwise (a lower
 * declared window is a deliberate limit).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic.ts';
import type { ModelSpec } from './types.ts';

export interface ServerWindow {
  modelId: string;
  baseURL: string;
  window: number;
  /** ISO time of the check that read it. */
  checkedAt: string;
}

export type WindowSource = 'declared' | 'server' | 'assumed';

export interface WindowFact {
  model: string;
  window: number | null;
  source: WindowSource;
  /** The server's, when it was checked (also when the declared one is used). */
  server?: ServerWindow;
  declared?: number;
}

const FILE = 'model-windows.json';
const idOf = (modelId: string, baseURL: string) => `${modelId} @ ${baseURL}`;

export function serverWindowsPath(storeDir: string): string {
  return join(storeDir, FILE);
}

/** The recorded windows by model id and base URL; none when nothing was checked (or the file is unreadable). */
export function readServerWindows(storeDir: string): Map<string, ServerWindow> {
  const path = serverWindowsPath(storeDir);
  const out = new Map<string, ServerWindow>();
  if (!existsSync(path)) return out;
  try {
    for (const w of JSON.parse(readFileSync(path, 'utf8')) as ServerWindow[]) {
      if (Number.isInteger(w.window) && w.window > 0) out.set(idOf(w.modelId, w.baseURL), w);
    }
  } catch {
    // A cache of what servers said: unreadable, it is as if nothing had been checked.
  }
  return out;
}

/** Records what a check read, over what was recorded before (a model checked again replaces its entry). */
export function recordServerWindows(storeDir: string, read: readonly { spec: ModelSpec; window: number | null }[], now = new Date()): void {
  const all = readServerWindows(storeDir);
  let changed = false;
  for (const { spec, window } of read) {
    const baseURL = spec.baseURLs?.[0];
    if (!window || !baseURL) continue;
    const modelId = spec.modelId ?? spec.name;
    all.set(idOf(modelId, baseURL), { modelId, baseURL, window, checkedAt: now.toISOString() });
    changed = true;
  }
  if (changed) writeFileAtomic(serverWindowsPath(storeDir), JSON.stringify([...all.values()], null, 1) + '\n');
}

/** The window a model's server reported, if it was checked at the model's first base URL. */
export function serverWindowOf(spec: ModelSpec, windows: ReadonlyMap<string, ServerWindow>): ServerWindow | undefined {
  const baseURL = spec.baseURLs?.[0];
  return baseURL ? windows.get(idOf(spec.modelId ?? spec.name, baseURL)) : undefined;
}

/**
 * A server-backed model's window and where it comes from; `assumed` says the models file declared
 * none (the spec's window is then a default).
 */
export function windowFact(spec: ModelSpec, assumed: boolean, windows: ReadonlyMap<string, ServerWindow>): WindowFact {
  const server = serverWindowOf(spec, windows);
  const declared = assumed ? undefined : spec.contextWindow;
  if (server && (declared === undefined || declared > server.window)) {
    return { model: spec.name, window: server.window, source: 'server', server, ...(declared !== undefined ? { declared } : {}) };
  }
  if (declared !== undefined) return { model: spec.name, window: declared, source: 'declared', declared, ...(server ? { server } : {}) };
  return { model: spec.name, window: spec.contextWindow ?? null, source: 'assumed' };
}

export function describeWindow(f: WindowFact): string {
  const checked = f.server ? `read from the server by cdp models --check, ${f.server.checkedAt.slice(0, 16).replace('T', ' ')}` : '';
  if (f.source === 'server') {
    return `${f.model}: ${f.window} tokens, ${checked}${f.declared !== undefined ? ` (the models file declares ${f.declared})` : ''}`;
  }
  if (f.source === 'declared')
    return `${f.model}: ${f.window} tokens, declared in the models file${f.server ? ` (the server serves ${f.server.window})` : ''}`;
  return `${f.model}: ${f.window ?? '?'} tokens, assumed (none declared or checked): run cdp models --check to read the server's`;
}
