/** `cdp models [--check]`: the run's models, their roles, and whether they answer. */
import type { RegisterCommand } from '../../pipeline/cli/config-exports.ts';

export const models: RegisterCommand = (program, _project, options) => {
  program
    .command('models')
    .description('the models of this run: roles, used or why not, endpoint, context window, price (keys are never shown)')
    .option('--json', 'print {"models": [{"name", "roles", "active", "reason", …}], "roles", "warnings", "problems"}')
    .option('--check', "send one tiny request to every model the run uses, and read the server's context window")
    .action(async (o: { json?: boolean; check?: boolean }) => {
      const { modelsCommand } = await import('../models/models-command.ts');
      // Only the options, not the DAG: a configuration with problems is listed with them, not refused.
      const c = await options();
      // --check sends each model's key, read from the environment at call time as the client does.
      process.exitCode = await modelsCommand(c.options, { ...o, store: c.ws.store }, (s) => process.stdout.write(s), process.env);
    });
};
