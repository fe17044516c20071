/**
 * The call log as a warehouse relation. The call store's JSONL segments are read by DuckDB
 * natively (no extension): one row per finished call with its answer text and finish reason, so
 * any raw answer can be read back, and whether a reader rejected it (the `rejected` lines of the
 * store, joined on key and attempt, are not rows of their own).
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
  text: 'VARCHAR',
  finishReason: 'VARCHAR',
  sample: 'VARCHAR',
  role: 'VARCHAR',
  attempt: 'INTEGER',
  reason: 'VARCHAR',
};

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/**
 * A DuckDB relation over the call log — wrap it as `create view llm_calls as select * from <it>` —
 * or null while no call has been logged. Columns: key, status ('ok' | 'failed'), model, model_id,
 * stage, role, sample, attempt (fresh attempts before this one: 0 unless earlier answers of the
 * same request were rejected), prompt_hash, repeat, tokens_in, tokens_out, latency_ms, attempts
 * (HTTP attempts), finished_at, error, batch_id, text (the answer; null for a failure),
 * finish_reason, rejected (a reader refused the answer: it is kept here, never served again) and
 * rejected_reason.
 */
export function llmCallsRelation(cacheDir: string): string | null {
  const dir = join(cacheDir, 'calls');
  if (!existsSync(dir) || !readdirSync(dir).some((f) => f.endsWith('.jsonl'))) return null;
  const cols = Object.entries(LLM_CALLS_COLUMNS)
    .map(([k, t]) => `${sqlString(k)}: ${sqlString(t)}`)
    .join(', ');
  const src = `read_json(${sqlString(join(dir, '*.jsonl'))}, format = 'newline_delimited', columns = {${cols}}, ignore_errors = true)`;
  // One scan of the log; rejections are few, so the join is over a small side.
  return (
    `(with lines as (select *, coalesce(attempt, 0) as att from ${src}), ` +
    `refusals as (select key, att, min(reason) as reason from lines where status = 'rejected' group by key, att) ` +
    `select l.key, l.status, l.model, l.modelId as model_id, l.stage, l.role, l.sample, l.att as attempt, ` +
    `l.promptHash as prompt_hash, l."repeat", l.inputTokens as tokens_in, l.outputTokens as tokens_out, ` +
    `l.latencyMs as latency_ms, l.attempts, cast(l.ts as timestamp) as finished_at, l.error, l.batchId as batch_id, ` +
    `l.text, l.finishReason as finish_reason, (r.key is not null) as rejected, r.reason as rejected_reason ` +
    `from lines l left join refusals r on l.status = 'ok' and r.key = l.key and r.att = l.att ` +
    // A line torn by a kill (or being written right now) reads as all nulls: leave it out.
    `where l.status in ('ok', 'failed'))`
  );
}
