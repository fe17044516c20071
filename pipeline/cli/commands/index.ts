/** The runner's own commands, one per module; a project adds its own (the configuration's `cliCommands`). */
import type { RegisterCommand } from '../config-exports.ts';
import { run } from './run.ts';
import { estimate } from './estimate.ts';
import { status } from './status.ts';
import { dag } from './dag.ts';
import { explain } from './explain.ts';
import { sql } from './sql.ts';
import { clean } from './clean.ts';
import { verify } from './verify.ts';

export const runnerCommands: RegisterCommand[] = [run, estimate, status, verify, dag, explain, sql, clean];
