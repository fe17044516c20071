/**
 * Files a configuration reads while it loads (a models file, say) besides its own code. The
 * no-op fast path fingerprints them, present or absent, so editing, adding or deleting one
 * always takes the full runner — the files' counterpart of env-reads.ts.
 */
import { resolve } from 'node:path';

const inputs = new Set<string>();

/** Records that the configuration's outcome depends on this file (whether or not it exists). */
export function configInput(path: string): string {
  const abs = resolve(path);
  inputs.add(abs);
  return abs;
}

export function configInputs(): string[] {
  return [...inputs].sort();
}
