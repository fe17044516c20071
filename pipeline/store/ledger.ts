/**
 * The record of what ran (DVC's lock file, kept in the store): for each stage, the key it ran
 * under, the components of that key, and the artifact it produced. `cdp status` compares the
 * current components against it to explain why a stage is stale.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from './atomic.ts';

export interface KeyComponents {
  code: { hash: string; files: Record<string, string>; packages: Record<string, string> };
  params: { hash: string; value: unknown };
  /** Local input name → the producing source/stage and its artifact hash. */
  inputs: Record<string, { from: string; hash: string }>;
  /** Hash of the stage's declared shape: columns and row mapping. */
  shape: string;
}

export interface LedgerEntry {
  key: string;
  components: KeyComponents | null;
  artifact: string;
  rows: number;
  /** Rows carrying an error (failure rows); `--retry-failed` reruns stages that have any. */
  failed: number;
  finishedAt: string;
}

export interface Ledger {
  version: 1;
  entries: Record<string, LedgerEntry>;
}

export function readLedger(path: string): Ledger {
  try {
    const l = JSON.parse(readFileSync(path, 'utf8')) as Ledger;
    if (l.version === 1 && l.entries) return l;
  } catch {
    /* fall through: no ledger yet */
  }
  return { version: 1, entries: {} };
}

export function writeLedger(path: string, ledger: Ledger): void {
  writeFileAtomic(path, JSON.stringify(ledger, null, 1));
}
