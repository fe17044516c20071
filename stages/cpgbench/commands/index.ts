/**
 * CPGBench's own `cdp` subcommands, one per module (cpgbench.config.ts exports them):
 *   cdp --config cpgbench.config.ts notebooks [--out DIR]   its notebooks (notebooks/cpgbench/) built into the reports' site/
 *   cdp --config cpgbench.config.ts serve [--port N]        a preview of that site on 127.0.0.1
 *   cdp --config cpgbench.config.ts export benchmark|results DIR   the built benchmark, or a run's results, as Parquet + JSONL with a dataset card
 */
import type { RegisterCommand } from '../../../pipeline/cli/config-exports.ts';
import { notebooks } from './notebooks.ts';
import { serve } from './serve.ts';
import { exportData } from './export.ts';

export const cpgCliCommands: RegisterCommand[] = [notebooks, serve, exportData];
