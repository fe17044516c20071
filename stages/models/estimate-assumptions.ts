/**
 * What `cdp estimate` assumes, in the benchmark's terms, beside its plan: how many test cases
 * (counted once the construction stages are in the store; on a fresh store with a real builder,
 * the stand-ins' vignettes decide QC, so every case they pass is assumed to pass), how long the
 * dialogues run, how long answers are, and each model's context window and where it comes from.
 */
import type { EstimateFacts } from '../../pipeline/cli/estimate-plan.ts';
import { standInAssumption } from '../../pipeline/cli/estimate-plan.ts';
import { describeWindow, type WindowFact } from '../../pipeline/llm/server-windows.ts';
import type { RunModels } from './run-roster.ts';

function testCases(f: EstimateFacts, models: RunModels): string | null {
  const tc = f.stages.find((s) => s.stage === 'test_cases');
  if (!tc) return null;
  if (tc.standIns.length) {
    const writer = models.builder.vignettes.name;
    return (
      `assumes all ${tc.rows} test cases pass QC; QC needs the vignettes, which ${writer} has not written yet ` +
      `(the estimate stood in for it in ${tc.standIns.join(', ')}): after \`cdp run test_cases\` builds the benchmark, the estimate counts the real test cases`
    );
  }
  const how = tc.status === 'reused' ? 'the benchmark is built' : 'QC judged the vignettes the run will have';
  return `${tc.rows} test cases, counted: ${how}`;
}

function dialogues(f: EstimateFacts, models: RunModels): string | null {
  const real = new Set(models.evaluated.filter((m) => !m.simulated).map((m) => m.name));
  const asked = f.rows.some((r) => r.stage === 'dialogues_multi' && real.has(r.model) && r.calls > 0);
  if (!asked) return null;
  return "multi-turn dialogues run as long as the stand-in agents make them (they ask about the reference questions); a real model's may be longer or shorter";
}

function outputTokens(f: EstimateFacts, models: RunModels): string | null {
  const planned = new Set(f.rows.filter((r) => r.calls > 0).map((r) => r.model));
  const undeclared = models.declared.filter((m) => planned.has(m.name) && !m.expectedOutputTokens).map((m) => m.name);
  if (!undeclared.length) return null;
  return `output tokens of ${undeclared.join(', ')} are the stand-ins' answers' lengths (declare "expectedOutputTokens" in the models file for a model's own)`;
}

export function estimateAssumptions(f: EstimateFacts, models: RunModels, windows: readonly WindowFact[]): string[] {
  const lines = [testCases(f, models), standInAssumption(f), dialogues(f, models), outputTokens(f, models)];
  const planned = new Set(f.rows.map((r) => r.model));
  for (const w of windows) if (planned.has(w.model)) lines.push(`window ${describeWindow(w)}`);
  return lines.filter((l): l is string => l !== null);
}

/** The estimate as printed: what it assumes, then the plan (per stage × model). */
export function formatPlanWithAssumptions(assumptions: readonly string[], plan: string): string {
  const head = assumptions.length ? `assumptions:\n${assumptions.map((a) => `  - ${a}`).join('\n')}\n\n` : '';
  return `${head}plan (nothing was sent or stored; identical requests count once):\n${plan}`;
}
