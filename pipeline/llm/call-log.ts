/**
 * The call log as a warehouse relation. The call store's JSONL segments are read by DuckDB
 * natively (no extension), with the answer text left out: llm_calls is for accounting.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Columns of the `llm_calls` view, in order, with their DuckDB types. */
export const LLM_CALLS_COLUMNS: Record<string, string> = {
  key: 'VARCHAR',
  status: 'VARCHAR',
  model: 'VARCHAR',
  modelId: 'VARCHAR',
  stage: 'VARCHAR',
  promptHash: 'VARCHAR',
  repeat: 'INTEGER',
  inputTokens: 'INTEGER',
  outputTokens: 'INTEGER',
  latencyMs: 'DOUBLE',
  attempts: 'INTEGER',
  ts: 'VARCHAR',
  error: 'VARCHAR',
  batchId: 'VARCHAR',
};

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/**
 * A DuckDB relation over the call log — wrap it as `create view llm_calls as select * from <it>` —
 * or null while no call has been logged. Columns: key, status ('ok' | 'failed'), model, model_id,
 * stage, prompt_hash, repeat, tokens_in, tokens_out, latency_ms, attempts, finished_at, error,
 * batch_id.
 */
export function llmCallsRelation(cacheDir: string): string | null {
  const dir = join(cacheDir, 'calls');
  if (!existsSync(dir) || !readdirSync(dir).some((f) => f.endsWith('.jsonl'))) return null;
  const cols = Object.entries(LLM_CALLS_COLUMNS)
    .map(([k, t]) => `${sqlString(k)}: ${sqlString(t)}`)
    .join(', ');
  const src = `read_json(${sqlString(join(dir, '*.jsonl'))}, format = 'newline_delimited', columns = {${cols}}, ignore_errors = true)`;
  return (
    `(select key, status, model, modelId as model_id, stage, promptHash as prompt_hash, "repeat", ` +
    `inputTokens as tokens_in, outputTokens as tokens_out, latencyMs as latency_ms, attempts, ` +
    `cast(ts as timestamp) as finished_at, error, batchId as batch_id from ${src} ` +
    // A line torn by a kill (or being written right now) reads as all nulls: leave it out.
    `where status in ('ok', 'failed'))`
  );
}
