/** Configuration problems stop `cdp run` and `cdp estimate` before anything runs; warnings are printed. */
import type { Project } from './load.ts';
import { configProblems } from './run-report.ts';

export function refuseOnProblems(p: Project): boolean {
  const text = configProblems(p.dag.config);
  if (text.warnings) process.stderr.write(text.warnings);
  if (!text.problems) return false;
  process.stderr.write(text.problems);
  process.exitCode = 2;
  return true;
}
