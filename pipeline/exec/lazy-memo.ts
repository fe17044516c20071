/**
 * A row stage's memo (its units' rows by key, under <store>/units/<stage>), opened only when some
 * unit has to be looked up there: a run whose parts all stand never reads it.
 */
import { join } from 'node:path';
import { RowStore, type RowStoreWriter, type UnitLookup } from '../store/row-store.ts';

export class LazyMemo {
  private readonly store: RowStore;
  private lookup: UnitLookup | null = null;

  constructor(storeDir: string, stage: string) {
    this.store = new RowStore(join(storeDir, 'units', stage));
  }

  get units(): UnitLookup {
    return (this.lookup ??= this.store.open());
  }

  writer(): RowStoreWriter {
    return this.store.writer();
  }

  /** Closes the lookup if it was opened. */
  close(): void {
    this.lookup?.close();
  }
}
