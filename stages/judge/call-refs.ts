/**
 * Which stored calls a judging made, so every judge run's raw answer can be read back from the
 * call log (llm_calls, joined on key and attempt). Answers without a stored call (offline
 * simulated judges, estimates) leave no reference: their list stays empty.
 */
import type { Chatter } from '../../pipeline/stage.ts';

export interface CallRef {
  key: string;
  /** The call's fresh attempt (earlier answers of the same request rejected), for the join. */
  attempt: number;
  /** The judge run the call belongs to (0…runs−1); re-asks carry their run's index. */
  run: number;
}

/** A view of `client` that appends the call of every answer it returns to `into`, tagged with `run`. */
export function recordingCalls(client: Chatter, run: number, into: CallRef[]): Chatter {
  return {
    async chat(req) {
      const r = await client.chat(req);
      if (r.ok && r.call) into.push({ key: r.call.key, attempt: r.call.attempt, run });
      return r;
    },
    ...(client.reject ? { reject: (result, reason) => client.reject!(result, reason) } : {}),
  };
}

/** The stage columns of a judging's calls, parallel lists in run order. */
export function callColumns(refs: readonly CallRef[]): { call_keys: string[]; call_attempts: number[]; call_runs: number[] } {
  return { call_keys: refs.map((r) => r.key), call_attempts: refs.map((r) => r.attempt), call_runs: refs.map((r) => r.run) };
}

export const CALL_COLUMNS = { call_keys: 'VARCHAR[]', call_attempts: 'INTEGER[]', call_runs: 'INTEGER[]' } as const;
