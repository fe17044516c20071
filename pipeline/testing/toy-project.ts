/**
 * A small DAG of the runner's own, written into a temporary directory, for testing the runner
 * without anything the benchmark is about:
 *
 *   docs (files docs/*.txt) ─► words (per doc) ─► shout (per words row, uses helpers/shout.ts)
 *                                  │                     │
 *                                  └─► totals (table) ───┴─► report (table)
 *
 * Row-mapped stages append the unit they compute to compute.log, so tests can count exactly
 * which rows were computed (and that committed rows are never computed again).
 */
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DagConfig } from '../dag/define.ts';

const pipelineDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface ToyOptions {
  totalsScale?: number;
  wordsDelayMs?: number;
  wordsConcurrency?: number;
  extraStages?: DagConfig['stages'];
}

export interface ToyProject {
  root: string;
  config(overrides?: ToyOptions): DagConfig;
  writeDoc(name: string, text: string): void;
  /** Units computed so far, in order, as "stage:key-ish label". */
  computed(): string[];
  writeConfigFile(overrides?: ToyOptions): void;
}

export function makeToyProject(
  docs: Record<string, string> = { 'a.txt': 'alpha beta', 'b.txt': 'gamma delta epsilon', 'c.txt': 'zeta' },
): ToyProject {
  const root = mkdtempSync(join(tmpdir(), 'cdp-toy-'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(join(root, 'stages', 'helpers'), { recursive: true });
  const stageImport = JSON.stringify(join(pipelineDir, 'stage.ts'));
  const log = JSON.stringify(join(root, 'compute.log'));

  writeFileSync(
    join(root, 'stages', 'helpers', 'shout.ts'),
    `export function shout(s: string): string { return s.toUpperCase() + '!'; }\n`,
  );
  writeFileSync(
    join(root, 'stages', 'words.ts'),
    `import { rowStage, z } from ${stageImport};
import { readFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
export default rowStage<{ delayMs: number; failOn?: string }>({
  inputs: { docs: 'drives' },
  params: { delayMs: z.number().min(0).default(0), failOn: z.string().optional() },
  columns: { path: 'VARCHAR', text: 'VARCHAR', n_words: 'INTEGER' },
  async run({ row }, ctx) {
    const path = row.path as string;
    if (ctx.params.delayMs) await new Promise((r) => setTimeout(r, ctx.params.delayMs));
    appendFileSync(${log}, 'words:' + path + '\\n');
    const text = readFileSync(join(ctx.root, path), 'utf8').trim();
    if (ctx.params.failOn && text.includes(ctx.params.failOn)) throw new Error('cannot read ' + path + ': it contains ' + ctx.params.failOn);
    return { path, text, n_words: text.split(/\\s+/).filter(Boolean).length };
  },
});
`,
  );
  writeFileSync(
    join(root, 'stages', 'shout.ts'),
    `import { rowStage } from ${stageImport};
import { appendFileSync } from 'node:fs';
import { shout } from './helpers/shout.ts';
export default rowStage({
  inputs: { words: 'drives' },
  columns: { path: 'VARCHAR', loud: 'VARCHAR' },
  run({ row }) {
    appendFileSync(${log}, 'shout:' + row.path + '\\n');
    return { path: row.path, loud: shout(row.text as string) };
  },
});
`,
  );
  writeFileSync(
    join(root, 'stages', 'totals.ts'),
    `import { tableStage, z } from ${stageImport};
export default tableStage<{ scale: number }>({
  inputs: { words: 'whole' },
  params: { scale: z.number().default(1) },
  columns: { docs: 'INTEGER', words: 'DOUBLE' },
  run({ words }, ctx) {
    return [{ docs: words.length, words: words.reduce((s, r) => s + (r.n_words as number ?? 0), 0) * ctx.params.scale }];
  },
});
`,
  );
  writeFileSync(
    join(root, 'stages', 'report.ts'),
    `import { tableStage } from ${stageImport};
export default tableStage({
  inputs: { totals: 'whole', shout: 'whole' },
  columns: { line: 'VARCHAR' },
  run({ totals, shout }) {
    return [{ line: 'docs=' + totals[0].docs + ' words=' + totals[0].words }, ...shout.map((r) => ({ line: String(r.loud) }))];
  },
});
`,
  );
  for (const [name, text] of Object.entries(docs)) writeFileSync(join(root, 'docs', name), text);

  const config = (o: ToyOptions = {}): DagConfig => ({
    sources: { docs: { kind: 'files', patterns: ['docs/*.txt'] } },
    stages: [
      {
        name: 'words',
        module: 'stages/words.ts',
        inputs: { docs: 'docs' },
        forEach: 'docs',
        params: { delayMs: o.wordsDelayMs ?? 0 },
        commitEvery: 1,
        concurrency: o.wordsConcurrency,
      },
      { name: 'shout', module: 'stages/shout.ts', inputs: { words: 'words' }, forEach: 'words' },
      { name: 'totals', module: 'stages/totals.ts', inputs: { words: 'words' }, params: { scale: o.totalsScale ?? 1 } },
      { name: 'report', module: 'stages/report.ts', inputs: { totals: 'totals', shout: 'shout' } },
      ...(o.extraStages ?? []),
    ],
  });

  return {
    root,
    config,
    writeDoc(name, text) {
      writeFileSync(join(root, 'docs', name), text);
    },
    computed() {
      const p = join(root, 'compute.log');
      return existsSync(p) ? readFileSync(p, 'utf8').split('\n').filter(Boolean) : [];
    },
    writeConfigFile(o = {}) {
      const c = config(o);
      writeFileSync(
        join(root, 'dag.config.ts'),
        `import { defineDag } from ${JSON.stringify(join(pipelineDir, 'index.ts'))};\nexport default defineDag(${JSON.stringify(c, null, 2)});\n`,
      );
    },
  };
}
