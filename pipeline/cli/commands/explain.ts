/** `cdp explain <stage>`: the components of a stage key and their hashes. */
import type { RegisterCommand } from '../config-exports.ts';
import { explainStage } from '../explain.ts';

export const explain: RegisterCommand = (program, project) => {
  program
    .command('explain')
    .description('the components of a stage key and their hashes')
    .argument('<stage>')
    .action(async (stage: string) => {
      process.stdout.write(await explainStage(await project(), stage));
    });
};
