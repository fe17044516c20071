/** A stage's current rows as the ledger names them, read from its segments (for tests). */
import { readRows } from '../store/artifacts.ts';
import { readLedger } from '../store/ledger.ts';
import type { Row } from '../dag/define.ts';

export function stageRows(ws: { store: string; ledger: string }, stage: string): Row[] {
  const e = readLedger(ws.ledger).entries[stage];
  if (!e?.segments) throw new Error(`stage '${stage}' has no artifact in ${ws.store}`);
  return readRows(ws.store, stage, e.segments);
}
