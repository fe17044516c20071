/**
 * A store's own part of the project's shared call cache. Every store of a project asks through
 * one call cache (so a store that differs in one model re-sends only that model's calls), yet
 * its `llm_calls` view must show the calls its own runs used, not every store's. So a store has:
 *
 * - an id (`<dir>/store-id`, made once): every line its runs write to the shared cache names it
 *   (`store`);
 * - copies of the answers it was served that another store's run made (`<dir>/used/*.jsonl`,
 *   call-store segments of their own), written the first time it uses each.
 *
 * Its view (call-log.ts) is its own lines of the shared cache, plus those copies, plus the
 * store-local log of the runs before the cache was shared (`<dir>/calls/`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { CallStore, type CachedAnswer } from './call-store.ts';

const ID_FILE = 'store-id';

/** The store's id, made when `create` and there is none yet; undefined when there is none. */
export function storeId(dir: string, create: boolean): string | undefined {
  const file = join(dir, ID_FILE);
  if (existsSync(file)) {
    const id = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{16}$/.test(id)) return id;
    if (!create) return undefined;
  }
  if (!create) return undefined;
  mkdirSync(dir, { recursive: true });
  const id = randomBytes(8).toString('hex');
  writeFileSync(file, `${id}\n`);
  return id;
}

export class StoreLog {
  private readonly used: CallStore;
  /** Copies being written, by key and attempt: two callers served one answer at once copy it once. */
  private readonly copying = new Map<string, Promise<void>>();

  private constructor(
    readonly id: string | undefined,
    used: CallStore,
  ) {
    this.used = used;
  }

  /** Opens a store's part; read-only (estimates) creates nothing. */
  static open(dir: string, opts: { readOnly?: boolean; warn?: (line: string) => void } = {}): StoreLog {
    const id = storeId(dir, !opts.readOnly);
    return new StoreLog(id, CallStore.open(dir, { subdir: 'used', readOnly: opts.readOnly, warn: opts.warn }));
  }

  /**
   * Notes that this store was served `hit` from the shared cache: a line another store made is
   * copied here the first time (resolving once durable), so this store's view shows it.
   */
  async served(shared: CallStore, key: string, hit: CachedAnswer): Promise<void> {
    if (!this.id || hit.store === this.id) return;
    const id = `${key}:${hit.attempt}`;
    const pending = this.copying.get(id);
    if (pending) return pending;
    const mine = this.used.get(key);
    if (mine && mine.attempt === hit.attempt) return;
    const line = shared.record(key);
    if (!line) return;
    const copy = this.used.append(line).finally(() => this.copying.delete(id));
    this.copying.set(id, copy);
    await copy;
  }

  close(): Promise<void> {
    return this.used.close();
  }
}
