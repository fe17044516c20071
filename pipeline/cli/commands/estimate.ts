/** `cdp estimate [stage…]`: what the stages would send to LLMs (cache misses, tokens, cost); nothing is sent or stored. */
import { runDag } from '../../exec/executor.ts';
import { estimateJson } from '../../llm/estimate-report.ts';
import type { RegisterCommand } from '../extensions.ts';
import { progressSink } from '../progress.ts';
import { refuseOnProblems } from '../refuse.ts';

export const estimate: RegisterCommand = (program, project) => {
  program
    .command('estimate')
    .description(
      'what the named stages (all when none) would send to LLMs: calls missing from the cache, tokens and cost; nothing is sent or stored',
    )
    .argument('[stages...]', 'stages to estimate')
    .option('--json', 'print {"stages", "models", "total", "rows"} with requests, inputTokens, outputTokens and cost')
    .action(async (stages: string[], o: { json?: boolean }) => {
      const p = await project();
      if (refuseOnProblems(p)) return;
      const { llmClient } = p.extensions;
      if (!llmClient) throw new Error('this project defines no LLM client (export llmClient from its configuration)');
      const llm = await llmClient(p, { mode: 'estimate' });
      if (!llm?.estimate) throw new Error('the project LLM client cannot estimate');
      const progress = progressSink();
      try {
        // Stale stages are computed without persisting anything: offline (simulated) models
        // answer as usual, real models' cache misses are counted instead of sent.
        await runDag(p.dag, p.ws, { targets: stages, ephemeral: true, llm: llm.client, onEvent: progress.sink });
      } finally {
        progress.stop();
        await llm.close();
      }
      if (o.json) {
        process.stdout.write(JSON.stringify(estimateJson(llm.estimateRows?.() ?? [])) + '\n');
        return;
      }
      process.stdout.write(llm.estimate() + '\n');
      process.stdout.write(
        "Identical requests are counted once. Real models' answers are stood in for by the simulated agents (who ask about the reference questions), so the stages after them are estimated too; output tokens are the stand-ins' unless a model declares expectedOutputTokens.\n",
      );
    });
};
