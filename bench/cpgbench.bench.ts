// CPGBench at the paper's scale on this machine (benc./cpgbench-corpus.ts): 3,418 documents,
// 32,155 shipped recommendations, 8 evaluated models × 2 tasks (the 3 simulated stand-ins and 5
// models on a local OpenAI-compatible server this benchmark starts, run with --simulated so the
// stand-ins and the simulated judge stay), 3 judgements per answer by the simulated judge.
// CDP_SCALE_FRACTION runs a fraction of it. After the full run: a no-op, and one guideline added.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from './report.ts';
import { CPG_PAPER, writeCpgScaleCorpus } from './cpgbench-corpus.ts';
import { startFakeOpenAIServer, type ChatBody } from '../pipeline/llm/testing/fake-openai-server.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVED = ['bench-model-1', 'bench-model-2', 'bench-model-3', 'bench-model-4', 'bench-model-5'];

interface Measured {
  wall: number;
  cpu: number;
  rssMiB: number;
  stages: {
    stage: string;
    status: string;
    rowsComputed: number;
    seconds: number;
    /** A partitioned table stage's partitions computed and taken from its memo. */
    partitions?: { computed: number; reused: number };
  }[];
}

const partitionsOf = (m: Measured, stage: string) => m.stages.find((s) => s.stage === stage && s.status === 'ran')?.partitions;

/** The partitioned stages of a run, as "stage c of n partitions computed, s". */
const partitioned = (m: Measured) =>
  m.stages
    .filter((s) => s.partitions)
    .map(
      (s) =>
        `${s.stage} ${s.partitions!.computed} of ${s.partitions!.computed + s.partitions!.reused} partitions computed, ${s.seconds.toFixed(1)} s`,
    )
    .join('; ') || 'none';

function cdp(args: string[], env: NodeJS.ProcessEnv): Promise<Measured> {
  return new Promise((res, rej) => {
    const c = spawn('/usr/bin/time', ['-f', 'TIME %e %U %S %M', process.execPath, join(repo, 'bin', 'cdp.mjs'), ...args], {
      cwd: repo,
      env: { ...process.env, ...env },
    });
    const out: Buffer[] = [];
    let stderr = '';
    c.stdout.on('data', (d: Buffer) => out.push(d));
    c.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-100_000)));
    c.on('error', rej);
    c.on('close', (code) => {
      const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(stderr);
      if (code !== 0 || !m) return rej(new Error(`cdp ${args.join(' ')} failed (exit ${code}):\n${stderr.slice(-3000)}`));
      const stages = (JSON.parse(Buffer.concat(out).toString('utf8')) as { stages: Measured['stages'] }).stages;
      res({ wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), rssMiB: Number(m[4]) / 1024, stages });
    });
  });
}

/** The five stages that took longest in a run, as "stage s". */
const slowest = (m: Measured) =>
  m.stages
    .filter((s) => s.status === 'ran')
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 6)
    .map((s) => `${s.stage} ${s.seconds.toFixed(1)} s`)
    .join(', ');

// Rows computed by a row-mapped stage; a partitioned stage's are its partitions' (they are listed apart).
const computed = (m: Measured) =>
  Object.fromEntries(m.stages.filter((s) => s.status === 'ran' && !s.partitions).map((s) => [s.stage, s.rowsComputed]));

/** The served models' answers: a detection answer and a next turn that differ by sample, as sampled answers do. */
const answer = (b: ChatBody) =>
  b.messages[0]!.content.startsWith('You will read a conversation')
    ? `Contains guideline recommendations: yes\n1. Recommendation: (sample ${String(b.seed)})`
    : `Let us look at the options together (sample ${String(b.seed)}).`;

export default async function (): Promise<BenchReport> {
  const fraction = Number(process.env.CDP_SCALE_FRACTION ?? 1);
  const corpus = writeCpgScaleCorpus(mkdtempSync(join(tmpdir(), 'cdp-cpg-scale-corpus-')), fraction);
  const store = mkdtempSync(join(tmpdir(), 'cdp-cpg-scale-store-'));
  const server = await startFakeOpenAIServer({ answer, keepRequests: false });
  try {
    const modelsFile = join(store, 'models.json');
    writeFileSync(
      modelsFile,
      JSON.stringify({
        models: SERVED.map((name) => ({
          name,
          baseURL: server.url,
          model: name,
          roles: ['evaluated'],
          contextWindow: 200_000,
          concurrency: 32,
        })),
      }),
    );
    // Reports go to <store>/reports; the store's own call cache. The same options on every run, so
    // that the no-op can take the fast path.
    const env = { CDP_STORE: store, CDP_LLM_CACHE: join(store, 'llm-cache'), CDP_NO_FAST_PATH: '' };
    const args = ['--config', 'cpgbench.config.ts', 'run', '--json', '--corpus', corpus.dir, '--models', modelsFile, '--simulated'];
    const full = await cdp(args, env);
    const requests = server.counters.chat;
    const storeBytes = Number(spawnSync('du', ['-sb', store], { encoding: 'utf8' }).stdout.split('\t')[0]);
    const noop = await cdp(args, env);
    // One more guideline: a copy of the first one under a new id.
    const line = readFileSync(join(corpus.dir, 'guidelines.csv'), 'utf8').split('\n')[1]!;
    const [src, language] = line.split(',');
    writeFileSync(
      join(corpus.dir, 'guidelines', language!, 'cpg-added.md'),
      readFileSync(join(corpus.dir, 'guidelines', language!, `${src}.md`)),
    );
    writeFileSync(join(corpus.dir, 'recommendations', 'cpg-added.json'), readFileSync(join(corpus.dir, 'recommendations', `${src}.json`)));
    appendFileSync(join(corpus.dir, 'guidelines.csv'), `cpg-added,${line.split(',').slice(1).join(',')}\n`);
    const added = await cdp(args, env);
    const addedComputed = computed(added);
    const k = (JSON.parse(readFileSync(join(corpus.dir, 'recommendations', 'cpg-added.json'), 'utf8')) as { recommendations: unknown[] })
      .recommendations.length;
    const onlyItsUnits =
      addedComputed.guidelines === 1 &&
      addedComputed.cpg_documents === 1 &&
      addedComputed.cpg_conversations === k &&
      addedComputed.cpg_detection === k * CPG_PAPER.models &&
      // Its guideline's partition of cpg_outcomes, and the groups it is in (overall, region, specialty, language, safety) of cpg_rates.
      partitionsOf(added, 'cpg_outcomes')?.computed === 1 &&
      (partitionsOf(added, 'cpg_rates')?.computed ?? Infinity) <= 5;
    const minutes = full.wall / 60;
    const fc = computed(full);
    return {
      title: `CPGBench at ${fraction === 1 ? "the paper's scale" : `${(fraction * 100).toFixed(1)} % of the paper's scale`} (3 simulated stand-ins and 5 served models, the simulated judge)`,
      rows: [
        {
          name: 'full run: wall',
          value: minutes,
          unit: 'min',
          target: fraction === 1 ? { text: '< 20 min', met: minutes < 20 } : undefined,
        },
        { name: 'full run: CPU (user + system)', value: full.cpu / 60, unit: 'min' },
        { name: 'full run: peak RSS', value: full.rssMiB / 1024, unit: 'GiB', target: { text: '< 4 GiB', met: full.rssMiB < 4096 } },
        { name: 'store size', value: storeBytes / 2 ** 30, unit: 'GiB' },
        { name: 'no-op rerun (with --config)', value: noop.wall, unit: 's', target: { text: '< 1 s', met: noop.wall < 1 } },
        {
          name: 'adding one guideline',
          value: added.wall,
          unit: 's',
          target: { text: '< 30 s, only its units', met: added.wall < 30 && onlyItsUnits },
        },
      ],
      notes: [
        `Corpus: ${corpus.documents.toLocaleString('en')} documents, ${corpus.recommendations.toLocaleString('en')} recommendations (paper ${CPG_PAPER.documents.toLocaleString('en')} and ${CPG_PAPER.recommendations.toLocaleString('en')}), ${corpus.safety.toLocaleString('en')} safety-critical; Markdown with shipped recommendations (no PDF ingestion, no builder calls), conversations by simulated-cpg-writer.`,
        `Units computed by the full run: ${['guidelines', 'cpg_conversations', 'cpg_detection', 'cpg_adherence', 'cpg_detection_judgements', 'cpg_adherence_judgements'].map((s) => `${s} ${(fc[s] ?? 0).toLocaleString('en')}`).join(', ')}; ${requests.toLocaleString('en')} requests reached the local server (5 models × 2 tasks × items).`,
        `Adding one guideline (${k} recommendations) computed: ${Object.entries(addedComputed)
          .filter(([s]) => !s.startsWith('cpg_report') && s !== 'cpg_corpus_files')
          .map(([s, n]) => `${s} ${n}`)
          .join(
            ', ',
          )} (only its units: ${onlyItsUnits ? 'yes' : 'NO'}); partitions: ${partitioned(added)} (full run: ${partitioned(full)}).`,
        `Slowest stages of the full run: ${slowest(full)}; of adding one guideline: ${slowest(added)} (seconds from inputs ready to committed, waiting for a job slot included).`,
        `The no-op is measured with --config cpgbench.config.ts, which the fast path takes (pipeline/cli/fast-noop.mjs): it answers from the store's fingerprint before TypeScript is loaded.`,
      ],
    };
  } finally {
    await server.close();
  }
}
