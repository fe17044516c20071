// Throughput of the offline construction writers and QC: how long the simulated vignette and
// narrative writers and the deterministic checks take per CDP, extrapolated to the paper's
// 42,353 CDPs. Workload: random paths over realistic conditions (stages/construct fixtures).
import type { BenchReport } from './report.ts';
import { writeVignette } from '../stages/agents/writers/vignette-writer.ts';
import { writeNarrative } from '../stages/agents/writers/narrative-writer.ts';
import { checkInstance } from '../stages/construct/qc-checks.ts';
import { summariseQc } from '../stages/construct/qc-summary.ts';
import { randomCdps } from '../stages/construct/testing/sample-cdps.ts';

const PAPER_CDPS = 42353;

function timeMs(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

export default async (): Promise<BenchReport> => {
  const cdps = randomCdps(5000, 2026);
  // Warm-up so the JIT has compiled the hot paths before timing.
  for (const c of cdps.slice(0, 300)) checkInstance({ cdp: c, vignette: writeVignette(c).vignette, narrative: writeNarrative(c).steps });
  const vignettes: string[] = [];
  const narratives: string[][] = [];
  const tV = timeMs(() => {
    for (const c of cdps) vignettes.push(writeVignette(c).vignette);
  });
  const tN = timeMs(() => {
    for (const c of cdps) narratives.push(writeNarrative(c).steps);
  });
  const reports: ReturnType<typeof checkInstance>[] = [];
  const tQ = timeMs(() => {
    cdps.forEach((c, i) => reports.push(checkInstance({ cdp: c, vignette: vignettes[i]!, narrative: narratives[i]! })));
  });
  const perCdp = (tV + tN + tQ) / cdps.length;
  const projected = (perCdp * PAPER_CDPS) / 1000;
  const s = summariseQc(reports);
  const consistent = reports.filter((r) => r.cdpOk);
  return {
    title: 'Offline vignette/narrative writers and QC (stages/construct)',
    rows: [
      { name: 'vignette writer', value: (tV / cdps.length) * 1000, unit: 'µs/CDP' },
      { name: 'narrative writer', value: (tN / cdps.length) * 1000, unit: 'µs/CDP' },
      { name: 'QC checks', value: (tQ / cdps.length) * 1000, unit: 'µs/CDP' },
      {
        name: `all three for the paper's ${PAPER_CDPS} CDPs (projected, one core)`,
        value: projected,
        unit: 's',
        target: { text: '< 60 s', met: projected < 60 },
      },
      { name: 'random paths that are contradictory (QC cdp problem rate)', value: s.cdpProblemRate * 100, unit: '%' },
      { name: 'offline vignettes QC flags (vignette problem rate, all paths)', value: s.vignetteProblemRate * 100, unit: '%' },
      {
        name: 'offline vignettes QC flags among consistent paths',
        value: consistent.length ? (consistent.filter((r) => !r.vignetteOk).length / consistent.length) * 100 : 0,
        unit: '%',
        target: { text: '< 1% (paper)', met: consistent.filter((r) => !r.vignetteOk).length < consistent.length * 0.01 },
      },
    ],
    notes: [
      `Workload: ${cdps.length} random CDPs (1–5 steps, 2/3 English, 1/3 Chinese) drawn from the realistic condition pool in stages/construct/testing/sample-cdps.ts, seed 2026.`,
      'Random paths combine conditions independently, so some are contradictory (e.g. BMI ≥ 27.5 yes and ≥ 23 no); a real tree rarely is.',
    ],
  };
};
