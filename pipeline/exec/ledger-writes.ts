/**
 * The run's writes of the ledger: at most once a second while stages finish, and once more at
 * the end of the run. A stage whose entry a kill loses is rebuilt from its memo, unit for unit,
 * so writing the whole ledger after every one of 200 stages buys nothing but time. Writes are
 * serialised so that concurrent stages never interleave two writes of the file.
 */
import { existsSync, renameSync } from 'node:fs';
import { loadLedger, writeLedger, type Ledger } from '../store/ledger.ts';

/**
 * The ledger as the last run left it. A damaged one counts as empty and, in a run that persists,
 * is kept aside rather than overwritten by this run's ledger: it may be worth a look.
 */
export function openLedger(path: string, persist: boolean, warn: (message: string) => void): Ledger {
  const { ledger, warning } = loadLedger(path);
  if (warning) {
    const kept = persist && existsSync(path);
    if (kept) renameSync(path, `${path}.corrupt`);
    warn(`${warning}: every stage counts as never run${kept ? `; the damaged file is kept as ${path}.corrupt` : ''}`);
  }
  return ledger;
}

export class LedgerWrites {
  /** Entries changed since the last write. */
  dirty = false;
  private last = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly ledger: Ledger,
  ) {}

  save(opts: { now?: boolean } = {}): Promise<void> {
    this.dirty = true;
    if (!opts.now && Date.now() - this.last < 1000) return this.writing;
    this.last = Date.now();
    this.dirty = false;
    this.writing = this.writing.then(() => writeLedger(this.path, this.ledger));
    return this.writing;
  }

  /** Writes what is still unwritten and waits for every write. */
  async flush(): Promise<void> {
    if (this.dirty) await this.save({ now: true });
    await this.writing;
  }
}
