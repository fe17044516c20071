/**
 * The call log as a warehouse relation. The call store's JSONL segments are read by DuckDB
 * natively (no extension): one row per finished call with its answer text and finish reason, so
 * any raw answer can be read back, and whether a reader rejected it (the `rejected` lines of the
 * store, joined on key and attempt, are not rows of their own).
 *
 * The call cache is shared by every store of a project; a store's view shows the calls its own
 * runs used (store-log.ts): the shared lines that name the store, the copies of other stores'
 * answers it was served, and its store-local log from before the cache was shared.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { storeId } from './store-log.ts';

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
  kind: 'VARCHAR',
  httpStatus: 'INTEGER',
  window: 'INTEGER',
  seed: 'BIGINT',
  store: 'VARCHAR',
};

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** `read_json` over the segments of a directory, or null when it holds none. */
function segments(dir: string): string | null {
  if (!existsSync(dir) || !readdirSync(dir).some((f) => f.endsWith('.jsonl'))) return null;
  const cols = Object.entries(LLM_CALLS_COLUMNS)
    .map(([k, t]) => `${sqlString(k)}: ${sqlString(t)}`)
    .join(', ');
  return `read_json(${sqlString(join(dir, '*.jsonl'))}, format = 'newline_delimited', columns = {${cols}}, ignore_errors = true)`;
}

/**
 * A DuckDB relation over the call log — wrap it as `create view llm_calls as select * from <it>` —
 * or null while no call has been logged. With `storeLogDir`, only the calls that store's runs
 * used (see the file comment); without, every call in `cacheDir`. Columns: key, status ('ok' |
 * 'failed'), model, model_id, stage, role, sample, attempt (fresh attempts before this one: 0
 * unless earlier answers of the same request were rejected), prompt_hash, repeat, seed (the seed
 * sent, when one was), tokens_in, tokens_out, latency_ms, attempts (HTTP attempts), finished_at,
 * error, failure_kind (a failure's kind: context-overflow, unavailable, http, timeout, …),
 * http_status, server_window (the window a server stated in an overflow), batch_id, text (the
 * answer; null for a failure), finish_reason, rejected (a reader refused the answer: it is kept
 * here, never served again) and rejected_reason.
 */
export function llmCallsRelation(cacheDir: string, storeLogDir?: string): string | null {
  const shared = segments(join(cacheDir, 'calls'));
  let mine: string[];
  // Rejections are facts about an answer: any store's refusal marks it.
  let all: string[];
  if (storeLogDir === undefined || resolve(storeLogDir) === resolve(cacheDir)) {
    mine = shared ? [`select * from ${shared}`] : [];
    all = mine;
  } else {
    const id = storeId(storeLogDir, false);
    const used = segments(join(storeLogDir, 'used'));
    const legacy = segments(join(storeLogDir, 'calls'));
    mine = [
      ...(shared && id ? [`select * from ${shared} where store = ${sqlString(id)}`] : []),
      ...(used ? [`select * from ${used}`] : []),
      ...(legacy ? [`select * from ${legacy}`] : []),
    ];
    all = [...(shared ? [`select * from ${shared}`] : []), ...(legacy ? [`select * from ${legacy}`] : [])];
  }
  if (!mine.length) return null;
  // One scan of each source; rejections are few, so the join is over a small side.
  return (
    `(with lines as (select *, coalesce(attempt, 0) as att from (${mine.join(' union all ')})), ` +
    `refusals as (select key, coalesce(attempt, 0) as att, min(reason) as reason from (${all.join(' union all ')}) ` +
    `where status = 'rejected' group by all) ` +
    `select l.key, l.status, l.model, l.modelId as model_id, l.stage, l.role, l.sample, l.att as attempt, ` +
    `l.promptHash as prompt_hash, l."repeat", l.seed, l.inputTokens as tokens_in, l.outputTokens as tokens_out, ` +
    `l.latencyMs as latency_ms, l.attempts, cast(l.ts as timestamp) as finished_at, l.error, l.kind as failure_kind, ` +
    `l.httpStatus as http_status, l."window" as server_window, l.batchId as batch_id, ` +
    `l.text, l.finishReason as finish_reason, (r.key is not null) as rejected, r.reason as rejected_reason ` +
    `from lines l left join refusals r on l.status = 'ok' and r.key = l.key and r.att = l.att ` +
    // A line torn by a kill (or being written right now) reads as all nulls: leave it out.
    `where l.status in ('ok', 'failed'))`
  );
}
