/**
 * Each input segment's smallest and largest join values (its zone, by segment hash and column),
 * as the last run recorded them and as this run learns them: a segment whose zone holds none of
 * the values looked for is not read. Only the zones of this run's segments are recorded, so the
 * record does not grow with history.
 */
import type { RowStageRecord } from '../store/ledger.ts';
import { widen, type Zone } from './join-delta.ts';

export class ZoneBook {
  private readonly zones: Record<string, Record<string, Zone>> = {};

  constructor(private readonly before: NonNullable<RowStageRecord['zones']>) {}

  of(seg: string, column: string): Zone | undefined {
    return this.zones[seg]?.[column] ?? this.before[seg]?.[column];
  }

  keep(seg: string, column: string, zone: Zone): void {
    (this.zones[seg] ??= {})[column] = zone;
  }

  /** A segment read in full: its zone per column, from its rows' join values (one per column, in order). */
  learn(seg: string, columns: readonly string[], rows: readonly { values: readonly string[] }[]): void {
    const zs = columns.map((): Zone => null);
    for (const r of rows) r.values.forEach((v, i) => (zs[i] = widen(zs[i], v)));
    columns.forEach((c, i) => this.keep(seg, c, zs[i]));
  }

  /** A segment not read: the zones known of it carry over to this run's record. */
  carry(seg: string, columns: readonly string[]): void {
    for (const c of columns) {
      const z = this.of(seg, c);
      if (z !== undefined) this.keep(seg, c, z);
    }
  }

  /** The zones of the segments in `current` (this run's inputs), for the record. */
  recorded(current: ReadonlySet<string>): NonNullable<RowStageRecord['zones']> {
    for (const seg of Object.keys(this.zones)) if (!current.has(seg)) delete this.zones[seg];
    return this.zones;
  }
}
