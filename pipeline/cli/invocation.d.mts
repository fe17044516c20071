// Types of invocation.mjs (plain JavaScript, so that the no-op fast path runs before TypeScript is loaded).
import type { CliFlags, OneModel, ResolvedOptions } from '../dag/options.ts';

export interface OptionFlag {
  /** Commander's syntax: "--models <file>" takes a value, "--simulated" is a switch. */
  flags: string;
  key: keyof CliFlags;
  /** The environment variable read when the flag is absent. */
  env?: string;
  repeatable?: boolean;
  description: string;
}

export const OPTION_FLAGS: readonly OptionFlag[];
export const STORE_RECORD: string;

export interface Invocation {
  options: ResolvedOptions;
  notices: string[];
  problems: string[];
}

export interface EnvReads {
  values: string[];
  present: string[];
}

export function parseArgv(argv: readonly string[]): { flags: CliFlags; rest: string[] } | null;
export function findConfig(cwd: string, explicit?: string): string;
export function configName(file: string): string;
export function locations(
  root: string,
  name: string,
  given?: { store?: string; warehouse?: string; reports?: string },
): { store: string; warehouse: string; reports: string };
export function readStoreRecord(store: string): Record<string, unknown> | null;
export function projectPath(root: string, path: string): string;
export function resolveInvocation(flags: CliFlags, env: Readonly<Record<string, string | undefined>>, cwd: string): Invocation;
export function optionsHash(options: ResolvedOptions): string;
export function fingerprintPath(options: Pick<ResolvedOptions, 'store'>): string;
export function envReadsHash(reads: EnvReads, env: Readonly<Record<string, string | undefined>>): string;
export type { OneModel };
