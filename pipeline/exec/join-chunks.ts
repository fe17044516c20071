/**
 * A row stage's pending driving segments in consecutive groups, each planned and run before the
 * next is planned, so that the rows its units join are held for one group at a time. A stage
 * joining little plans in one group, as before: each group ends with its slowest unit (the units
 * of the next are not yet planned), which costs a stage of server calls a tail per group.
 *
 * Measured at the paper's size: `threshold_labels` joins every judged pathway's score matrices,
 * `predicted_pathways` every dialogue and prediction; planned at once, their joined rows alone
 * came to about a gigabyte of heap.
 */
import type { RowShape } from './row-shape.ts';
import type { PendingSegment } from './runner-types.ts';

/** Joined NDJSON planned at once, about: parsed, the rows take two to three times as much heap. */
export const JOINED_BYTES_PER_GROUP = 64 * 2 ** 20;

/**
 * The groups, in order, whole driving segments each, of about equal rows. How many: the bytes of
 * the joined inputs' segments, scaled by the share of the driving rows pending (a rerun that plans
 * one segment joins about that share), over `budget`.
 */
export function joinGroups(shape: RowShape, pending: readonly PendingSegment[], budget = JOINED_BYTES_PER_GROUP): PendingSegment[][] {
  const rows = pending.reduce((n, p) => n + p.rows.length, 0);
  const drivingRows = shape.driving.segments?.reduce((n, s) => n + s.rows, 0) ?? rows;
  let joinedBytes = 0;
  for (const j of shape.joinNames) for (const s of shape.inputs[j].segments ?? []) joinedBytes += s.files.ndjson.size;
  const needed = joinedBytes * Math.min(1, rows / Math.max(1, drivingRows));
  const groups = Math.min(pending.length, Math.ceil(needed / budget));
  if (groups <= 1) return pending.length ? [pending.slice()] : [];
  const out: PendingSegment[][] = [[]];
  let placed = 0;
  for (const p of pending) {
    const current = out[out.length - 1]!;
    if (current.length && placed >= (rows / groups) * out.length) out.push([p]);
    else current.push(p);
    placed += p.rows.length;
  }
  return out;
}
