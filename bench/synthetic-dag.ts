/**
 * The runner benchmark's workload, written twice into temporary directories: once as a cdp
 * project and once as a Snakemake workflow of the same structure.
 *
 *   source numbers.txt (ROWS lines) ─► seed (table: one row per line)
 *   seed ─► s1_0 … s1_9 ─► s2_0 … s2_9 ─► … ─► s20_0 … s20_8      (199 row-mapped stages)
 *
 * Stage s{l}_{k} maps over s{l-1}_{k} (seed for l = 1) and joins s{l-1}_{(k+1) mod 10} on `id`,
 * so each layer mixes two chains. Every row-mapped stage carries ROWS rows: 200 stages in all.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const pipelineDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'pipeline');
export const LAYERS = 20;
export const WIDTH = 10;

export function stageNames(): { name: string; main: string; side: string }[] {
  const out: { name: string; main: string; side: string }[] = [];
  for (let l = 1; l <= LAYERS; l++) {
    for (let k = 0; k < WIDTH; k++) {
      if (l === LAYERS && k === WIDTH - 1) continue; // 199 row stages + seed = 200
      const prev = (j: number) => (l === 1 ? 'seed' : `s${l - 1}_${j % WIDTH}`);
      out.push({ name: `s${l}_${k}`, main: prev(k), side: prev(k + 1) });
    }
  }
  return out;
}

function numbers(rows: number, changed: readonly number[] = []): string {
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) lines.push(String(changed.includes(i) ? i * 7 + 1 : i * 7));
  return lines.join('\n') + '\n';
}

export function writeCdpProject(rows: number): { root: string; changeOneRow(): void; changeRows(rows: readonly number[]): void } {
  const root = mkdtempSync(join(tmpdir(), 'cdp-bench-'));
  mkdirSync(join(root, 'stages'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(root, 'numbers.txt'), numbers(rows));
  const stageTs = JSON.stringify(join(pipelineDir, 'stage.ts'));
  writeFileSync(
    join(root, 'stages', 'seed.ts'),
    `import { tableStage } from ${stageTs};
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
export default tableStage({
  inputs: { src: 'whole' },
  columns: { id: 'INTEGER', v: 'BIGINT' },
  run(inputs, ctx) {
    const text = readFileSync(join(ctx.root, inputs.src[0].path as string), 'utf8');
    return text.split('\\n').filter(Boolean).map((line, id) => ({ id, v: Number(line) }));
  },
});
`,
  );
  writeFileSync(
    join(root, 'stages', 'mix.ts'),
    `import { rowStage } from ${stageTs};
export default rowStage({
  inputs: { main: 'drives', side: 'joined' },
  columns: { id: 'INTEGER', v: 'BIGINT' },
  run({ row, joined }) {
    const side = joined.side[0];
    return { id: row.id, v: ((row.v as number) * 31 + ((side?.v as number) ?? 0)) % 1000000007 };
  },
});
`,
  );
  const stages = [
    `    stage('seed', { module: 'stages/seed.ts', inputs: { src: 'src' } }),`,
    ...stageNames().map(
      (s) =>
        `    stage('${s.name}', { module: 'stages/mix.ts', inputs: { main: '${s.main}', side: '${s.side}' }, forEach: { input: 'main', join: { side: 'id' } }, concurrency: 1, commitEvery: 2000 }),`,
    ),
  ];
  writeFileSync(
    join(root, 'dag.config.ts'),
    `import { defineDag, stage, files } from ${JSON.stringify(join(pipelineDir, 'index.ts'))};
export default defineDag({
  sources: { src: files('numbers.txt') },
  stages: [
${stages.join('\n')}
  ],
});
`,
  );
  return {
    root,
    changeOneRow: () => writeFileSync(join(root, 'numbers.txt'), numbers(rows, [Math.floor(rows / 2)])),
    changeRows: (changed) => writeFileSync(join(root, 'numbers.txt'), numbers(rows, changed)),
  };
}

export function writeSnakemakeProject(rows: number): { root: string; changeOneRow(): void } {
  const root = mkdtempSync(join(tmpdir(), 'smk-bench-'));
  writeFileSync(join(root, 'numbers.txt'), numbers(rows));
  const names = stageNames();
  const rules: string[] = [
    `rule all:\n    input: ${names.map((s) => `"out/${s.name}.tsv"`).join(', ')}\n`,
    `rule seed:\n    input: "numbers.txt"\n    output: "out/seed.tsv"\n    run:\n        with open(input[0]) as f, open(output[0], "w") as o:\n            for i, line in enumerate(l for l in f if l.strip()):\n                o.write(f"{i}\\t{int(line)}\\n")\n`,
  ];
  for (const s of names) {
    rules.push(
      `rule ${s.name}:\n    input: main="out/${s.main}.tsv", side="out/${s.side}.tsv"\n    output: "out/${s.name}.tsv"\n    run:\n` +
        `        side = {}\n        with open(input.side) as f:\n            for line in f:\n                i, v = line.split("\\t"); side[i] = int(v)\n` +
        `        with open(input.main) as f, open(output[0], "w") as o:\n            for line in f:\n                i, v = line.split("\\t")\n                o.write(f"{i}\\t{(int(v) * 31 + side.get(i, 0)) % 1000000007}\\n")\n`,
    );
  }
  writeFileSync(join(root, 'Snakefile'), rules.join('\n'));
  return { root, changeOneRow: () => writeFileSync(join(root, 'numbers.txt'), numbers(rows, [Math.floor(rows / 2)])) };
}
