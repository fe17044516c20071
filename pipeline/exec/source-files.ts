/**
 * `ctx.file(path)`: the file a files-source row names. Rows carry a source's paths as it listed
 * them (relative to its base when it declares one) so that the same data under another directory
 * keys the same; this resolver, outside every key like `ctx.root`, puts the directory back when a
 * stage reads the file.
 *
 * The rule: the path is matched against the patterns of the file sources the stage reads,
 * directly or through the stages it reads (no other source's rows can reach it); the source whose
 * pattern has the path's shape gives the directory: its base, else the project root (an absolute
 * path is itself). A path no such source lists is an error naming it, and so is one that sources
 * with different directories both list, rather than a guess between two files.
 */
import { isAbsolute, resolve } from 'node:path';
import type { FileSource } from '../dag/define.ts';
import { globMatcher } from '../hash/glob.ts';
import { sourceDir } from './sources.ts';

/** A source as the resolver needs it: plain data, since it crosses to worker threads. */
export interface SourcePlace {
  name: string;
  /** Where its relative paths start, absolute: its base, else the project root. */
  dir: string;
  based: boolean;
  patterns: readonly string[];
}

/** `ctx.file`, carrying the places it was made from so that a worker can make the same one. */
export type FileResolver = ((path: string) => string) & { readonly places: readonly SourcePlace[] };

/** The file sources a stage reads, directly or through its inputs' inputs, in the DAG's source order. */
export function sourcesRead(stage: string, inputsOf: (node: string) => readonly string[] | undefined, sources: Set<string>): string[] {
  const seen = new Set<string>();
  const todo = [...(inputsOf(stage) ?? [])];
  while (todo.length) {
    const n = todo.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    todo.push(...(inputsOf(n) ?? []));
  }
  return [...sources].filter((s) => seen.has(s));
}

export function sourcePlaces(root: string, sources: Record<string, FileSource>, names: readonly string[]): SourcePlace[] {
  return names.map((name) => {
    const src = sources[name]!;
    return { name, dir: sourceDir(root, src), based: src.base !== undefined, patterns: src.patterns };
  });
}

const describe = (p: SourcePlace) => `${p.name}: ${p.patterns.join(', ')}${p.based ? ` under ${p.dir}` : ''}`;

export function fileResolver(stage: string, places: readonly SourcePlace[]): FileResolver {
  const matchers = places.map((place) => ({
    place,
    patterns: place.patterns.map((p) => ({ absolute: isAbsolute(p), matches: globMatcher(p.replace(/^\/+/, '')) })),
  }));
  const file = (path: string): string => {
    const absolute = isAbsolute(path);
    const bare = path.replace(/^\/+/, '');
    const found = new Map<string, string[]>();
    for (const { place, patterns } of matchers) {
      if (!patterns.some((p) => p.absolute === absolute && p.matches(bare))) continue;
      const at = absolute ? path : resolve(place.dir, path);
      found.set(at, [...(found.get(at) ?? []), place.name]);
    }
    if (found.size === 1) return [...found.keys()][0]!;
    if (found.size > 1) {
      const where = [...found].map(([at, names]) => `${names.join(', ')}: ${at}`).join('; ');
      throw new Error(
        `stage '${stage}': '${path}' is a file of several sources it reads, in different directories (${where}); give their patterns different folders, or read it in a stage that reads one of them only`,
      );
    }
    const read = places.length ? places.map(describe).join('; ') : 'none';
    throw new Error(
      `stage '${stage}': '${path}' is not a file of any source it reads (its file sources: ${read}); pass ctx.file a path as a source's row gives it, or add the source that holds the file to the stage's inputs in the configuration`,
    );
  };
  return Object.assign(file, { places });
}

/** The places behind a context's `file`, for a worker to make the same one (none for a hand-made context). */
export function placesOf(file: (path: string) => string): readonly SourcePlace[] {
  return (file as Partial<FileResolver>).places ?? [];
}
