/** `cdp estimate [stage…]`: a plan of what the stages would send to LLMs, with what it assumes; nothing is sent or stored. */
import { runDag, type RunSummary } from '../../exec/executor.ts';
import { estimateJson } from '../../llm/estimate-report.ts';
import type { RegisterCommand } from '../config-exports.ts';
import { estimateFacts } from '../estimate-plan.ts';
import { refuseOnProblems } from '../refuse.ts';

export const estimate: RegisterCommand = (program, project) => {
  program
    .command('estimate')
    .description(
      'a plan of what the named stages (all when none) would send to LLMs: requests missing from the cache, tokens, cost and prompts over a window, per stage and model, with what it assumes; nothing is sent or stored',
    )
    .argument('[stages...]', 'stages to estimate')
    .option(
      '--json',
      'print {"stages", "models", "total", "rows", "assumptions", "windows"}: the plan with requests, tokens, cost and overflows, what it assumes, each model\'s window and its source',
    )
    .action(async (stages: string[], o: { json?: boolean }) => {
      const p = await project();
      if (refuseOnProblems(p)) return;
      const { llmClient } = p.extensions;
      if (!llmClient) throw new Error('this project defines no LLM client (export llmClient from its configuration)');
      const llm = await llmClient(p, { mode: 'estimate' });
      if (!llm?.estimate) throw new Error('the project LLM client cannot estimate');
      let summary: RunSummary;
      try {
        // Stale stages are computed without persisting anything: offline (simulated) models
        // answer as usual, real models' cache misses are counted instead of sent. No progress
        // lines: what is printed is a plan, not a run.
        summary = await runDag(p.dag, p.ws, { targets: stages, ephemeral: true, llm: llm.client });
      } finally {
        await llm.close();
      }
      const rows = llm.estimateRows?.() ?? [];
      const facts = estimateFacts(p.dag, summary, rows);
      if (o.json) {
        const assumptions = llm.estimateAssumptions?.(facts) ?? [];
        process.stdout.write(JSON.stringify({ ...estimateJson(rows), assumptions, windows: llm.windows?.() ?? [] }) + '\n');
        return;
      }
      process.stdout.write(llm.estimate(facts) + '\n');
    });
};
