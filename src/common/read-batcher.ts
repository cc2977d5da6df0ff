/** The most lookups one batched read asks for (one prepared statement per batch size). */
export const MAX_READ_BATCH = 32;

/** A lookup waiting for its batch; a failed batch rejects each of its lookups. */
export interface PendingLookup {
  reject(error: unknown): void;
}

/**
 * Coalesces lookups on the launch hot path: those of one tenant issued in the same turn of
 * the event loop (under load, many launches at once) go out as reads of up to MAX_READ_BATCH
 * lookups, so the statement, and on MySQL the round trip, is paid once per batch, not per launch.
 */
export class ReadBatcher<Lookup extends PendingLookup> {
  private pending = new Map<string, Lookup[]>();

  /** `read` answers every lookup of the batch (one tenant's). */
  constructor(private readonly read: (tenantId: string, batch: Lookup[]) => Promise<void>) {}

  add(tenantId: string, lookup: Lookup): void {
    if (this.pending.size === 0) {
      setImmediate(() => this.flush());
    }
    let lookups = this.pending.get(tenantId);
    if (!lookups) this.pending.set(tenantId, (lookups = []));
    lookups.push(lookup);
  }

  private flush(): void {
    const pending = this.pending;
    this.pending = new Map();
    for (const [tenantId, lookups] of pending) {
      for (let start = 0; start < lookups.length; start += MAX_READ_BATCH) {
        const batch = lookups.slice(start, start + MAX_READ_BATCH);
        this.read(tenantId, batch).catch((error: unknown) => batch.forEach((lookup) => lookup.reject(error)));
      }
    }
  }
}
