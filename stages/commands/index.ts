/**
 * The benchmark's own `cdp` subcommands, one per module: tools a researcher uses beside running
 * the DAG. Each imports its implementation when it runs, since every `cdp` invocation registers
 * them all.
 *   cdp models [--check]       the run's models, their roles, and whether they answer
 *   cdp ingest <file.pdf>      the Markdown of any PDF, as the guidelines stage would produce it
 *   cdp pathway-metrics        DTW/OT/LNDS for consistency matrices given as JSONL on stdin
 *   cdp notebooks              the Observable notebooks in notebooks/ built into the reports' site/
 *   cdp serve [--port N]       a preview of that site on 127.0.0.1
 *   cdp export benchmark|results DIR   the built benchmark, or a run's results, as Parquet + JSONL with a dataset card
 *   cdp import predictions FILE        predictions made elsewhere (JSONL) into <store>/imports/, judged by the next `cdp run`
 */
import type { RegisterCommand } from '../../pipeline/cli/config-exports.ts';
import { models } from './models.ts';
import { ingest } from './ingest.ts';
import { pathwayMetrics } from './pathway-metrics.ts';
import { notebooks } from './notebooks.ts';
import { serve } from './serve.ts';
import { exportData } from './export.ts';
import { importData } from './import.ts';

export const cliCommands: RegisterCommand[] = [models, ingest, pathwayMetrics, notebooks, serve, exportData, importData];
