/**
 * A stage's code identity: its module file plus every project-local module it imports,
 * transitively, each hashed by content; and the versions of the packages those modules import.
 * Editing a helper therefore reruns exactly the stages that (transitively) import it.
 *
 * Imports are read from the source text (imports.ts, TypeScript's parser) rather than by asking
 * the module loader, so that `cdp status` can explain staleness without executing stage code.
 * Type-only imports count too: conservative, and a types file rarely changes alone. What a file
 * imports is remembered by its content hash, in this process and in the stat cache, so a run
 * parses only the files that changed since the last one.
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, resolve, relative, join, extname } from 'node:path';
import { builtinModules } from 'node:module';
import type { StatCache } from './stat-cache.ts';
import { hashValue, sha256 } from './canonical.ts';
import { IMPORT_SCANNER, importSpecifiers } from './imports.ts';

export interface CodeIdentity {
  /** Project-relative path → sha256 of the file, for the module and everything local it imports. */
  files: Record<string, string>;
  /** Bare package imports → installed version (or "unresolved"). */
  packages: Record<string, string>;
  hash: string;
}

const EXTENSIONS = ['', '.ts', '.mts', '.js', '.mjs', '/index.ts', '/index.js'];
const builtins = new Set(builtinModules);
/** Content hash and extension → specifiers, shared by every hasher of the process. */
const scanned = new Map<string, string[]>();

export class CodeHasher {
  private memo = new Map<string, { hash: string; local: string[]; bare: string[] }>();
  private versions = new Map<string, string>();

  constructor(
    private readonly root: string,
    private readonly stat: StatCache,
  ) {}

  identity(moduleFile: string): CodeIdentity {
    const files: Record<string, string> = {};
    const packages: Record<string, string> = {};
    const stack = [resolve(this.root, moduleFile)];
    const seen = new Set<string>();
    while (stack.length) {
      const file = stack.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const info = this.scan(file);
      files[relative(this.root, file)] = info.hash;
      for (const dep of info.local) stack.push(dep);
      for (const pkg of info.bare) packages[pkg] = this.packageVersion(pkg);
    }
    const sortedFiles = Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
    const sortedPkgs = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a < b ? -1 : 1)));
    return { files: sortedFiles, packages: sortedPkgs, hash: hashValue({ files: sortedFiles, packages: sortedPkgs }) };
  }

  private scan(file: string): { hash: string; local: string[]; bare: string[] } {
    const hash = this.stat.hashFile(file);
    const hit = this.memo.get(file);
    if (hit && hit.hash === hash) return hit;
    const local: string[] = [];
    const bare: string[] = [];
    for (const spec of this.specifiers(file, hash)) {
      if (spec.startsWith('.') || spec.startsWith('/')) {
        local.push(this.resolveLocal(file, spec));
      } else if (!spec.startsWith('node:') && !builtins.has(spec)) {
        bare.push(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
      }
    }
    const info = { hash, local, bare };
    this.memo.set(file, info);
    return info;
  }

  /** What the file imports: known by its content (the stat cache, then this process), else parsed. */
  private specifiers(file: string, hash: string): string[] {
    const key = `${hash}${extname(file)}`;
    const known = this.stat.importsOf(file, hash, IMPORT_SCANNER) ?? scanned.get(key);
    if (known) {
      scanned.set(key, known);
      this.stat.rememberImports(file, hash, IMPORT_SCANNER, known);
      return known;
    }
    const source = readFileSync(file);
    const specs = importSpecifiers(source.toString('utf8'), file);
    // Remembered only as the imports of the content hashed: a file edited meanwhile is parsed again next time.
    if (sha256(source) === hash) {
      scanned.set(key, specs);
      this.stat.rememberImports(file, hash, IMPORT_SCANNER, specs);
    }
    return specs;
  }

  private resolveLocal(from: string, spec: string): string {
    const base = resolve(dirname(from), spec);
    for (const ext of EXTENSIONS) {
      const candidate = base + ext;
      if (existsSync(candidate) && !candidate.endsWith('/')) {
        try {
          this.stat.hashFile(candidate);
          return candidate;
        } catch {
          continue; // a directory named like the module; keep looking
        }
      }
    }
    // Tolerate the `.js` → `.ts` convention of TypeScript sources.
    if (spec.endsWith('.js') && existsSync(base.slice(0, -3) + '.ts')) return base.slice(0, -3) + '.ts';
    throw new Error(`${relative(this.root, from)} imports '${spec}', which resolves to no file; fix the import path`);
  }

  private packageVersion(name: string): string {
    let v = this.versions.get(name);
    if (v === undefined) {
      try {
        v = (JSON.parse(readFileSync(join(this.root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
      } catch {
        v = 'unresolved';
      }
      this.versions.set(name, v);
    }
    return v;
  }
}
