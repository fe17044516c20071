/** `cdp dag`: the graph as text, Mermaid or Graphviz dot. */
import { Option } from 'commander';
import type { RegisterCommand } from '../config-exports.ts';
import { renderDag, type DagFormat } from '../render-dag.ts';

export const dag: RegisterCommand = (program, project) => {
  program
    .command('dag')
    .description('print the DAG')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'mermaid', 'dot']).default('text'))
    .action(async (o: { format: DagFormat }) => {
      process.stdout.write(renderDag((await project()).dag, o.format));
    });
};
