// Throughput of the simulated similarity judges through the whole judging path: Prompt 5
// rendered, five offline calls through the LLM client, each answer read back, parsed, averaged
// and normalised (judgeStepScores). Reference, measured in the same run: the bare similarity
// matrices of the same pathway pairs (five times, as the five runs), i.e. what the prompt
// round trip costs on top of the similarity itself. Projection: the paper's evaluation has
// 7,458 cases × 16 models × 2 settings = 238,656 pathway pairs per judge.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchReport, BenchRow } from './report.ts';
import { createLlmClient } from '../pipeline/llm/client.ts';
import { judgeStepScores } from '../stages/judge/judge-step-scores.ts';
import { SIMULATED_JUDGES, simulatedJudgeHandlers, simulatedJudgeSpecs } from '../stages/agents/judges/simulated-judges.ts';

const PAPER_PAIRS = 7458 * 16 * 2;
const WORDS = (
  'patient fever cough weeks chest x-ray infiltrate antibiotics amoxicillin dose daily blood pressure ' +
  'systolic diastolic mmHg heart rate oxygen saturation refer cardiology urgent assessment history ' +
  'diabetes HbA1c glucose insulin start stop continue review months years age older children pregnant ' +
  'rash pain severe mild moderate stage grade score ≥ < 38.5 140/90 7% 发热 咳嗽 两周 胸片 异常 抗生素'
).split(' ');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function pathway(r: () => number, len: number): string[] {
  return Array.from({ length: len }, () =>
    Array.from({ length: 8 + Math.floor(r() * 10) }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' '),
  );
}

export default async (): Promise<BenchReport> => {
  const r = rng(2026);
  const pairs = Array.from({ length: 400 }, () => ({
    reference: pathway(r, 4 + Math.floor(r() * 6)),
    candidate: pathway(r, 4 + Math.floor(r() * 6)),
  }));
  const client = createLlmClient({
    cacheDir: mkdtempSync(join(tmpdir(), 'bench-judges-')),
    roster: simulatedJudgeSpecs(),
    offlineHandlers: simulatedJudgeHandlers(),
    env: {},
  });
  const view = client.forStage('step_scores');
  const rows: BenchRow[] = [];
  for (const judge of SIMULATED_JUDGES) {
    // Warm-up: JIT and the template cache.
    for (const p of pairs.slice(0, 40)) await judgeStepScores({ client: view, judge: judge.name, setting: 'single', ...p });
    let t0 = performance.now();
    for (const p of pairs) for (let run = 0; run < 5; run++) judge.matrix(p.reference, p.candidate);
    const bare = (performance.now() - t0) / pairs.length;
    t0 = performance.now();
    for (const p of pairs) {
      const res = await judgeStepScores({ client: view, judge: judge.name, setting: 'single', ...p });
      if (!res.ok) throw new Error(`${judge.name}: ${res.reason}`);
    }
    const full = (performance.now() - t0) / pairs.length;
    const projectedMin = (full * PAPER_PAIRS) / 60_000;
    rows.push({
      name: `${judge.name}: pathway pair, 5 runs, through prompt and client`,
      value: full,
      unit: 'ms/pair',
      reference: { name: 'bare similarity matrices ×5', value: bare },
    });
    rows.push({
      name: `${judge.name}: the paper's ${PAPER_PAIRS} pairs (projected, one core)`,
      value: projectedMin,
      unit: 'min',
      target: { text: '< 30 min', met: projectedMin < 30 },
    });
  }
  await client.close();
  return {
    title: 'Simulated similarity judges (stages/judge)',
    rows,
    notes: [
      `400 synthetic pathway pairs, 4–9 steps a side, 8–17 words a step (English and Chinese vocabulary), Prompt 5; offline client, no call cache for offline models.`,
      'The five runs of a simulated judge are identical answers; they are still five calls, as for an LLM judge.',
    ],
  };
};
