import { LRUCache } from 'lru-cache';

interface KeyRecord<Summary> {
  lastLineAt: number;
  /** What happened since the last line, and how many times. */
  pending: { summary: Summary; events: number } | null;
  /** Writes `pending` once the period is over, when no later event does. */
  flush: NodeJS.Timeout | null;
}

export interface ThrottledLogOptions<Event, Summary> {
  /** At most one line per key in this many ms. */
  periodMs: number;
  /** Keys remembered (least recently used forgotten, their pending line written first): bounds the memory. */
  maxKeys: number;
  /** The summary of a first event. */
  summarize(event: Event): Summary;
  /** Adds a later event to the summary of those since the last line. */
  add(summary: Summary, event: Event): void;
  /** Writes the line of `events` events (at least 1) summarised by `summary`. */
  write(key: string, summary: Summary, events: number): void;
}

/**
 * A log that writes at most one line per key (a cause, an app user) every `periodMs`: the
 * first event writes at once; the events during the rest of the period are summed up and
 * written, with their number, when it ends. However many events, the log stays small.
 */
export class ThrottledLog<Event, Summary> {
  private readonly keys: LRUCache<string, KeyRecord<Summary>>;

  constructor(private readonly options: ThrottledLogOptions<Event, Summary>) {
    this.keys = new LRUCache({
      max: options.maxKeys,
      dispose: (record, key, reason) => {
        if (reason === 'evict') this.write(key, record);
      },
    });
  }

  record(key: string, event: Event): void {
    let record = this.keys.get(key);
    if (!record) {
      record = { lastLineAt: Number.NEGATIVE_INFINITY, pending: null, flush: null };
      this.keys.set(key, record);
    }
    if (record.pending) {
      this.options.add(record.pending.summary, event);
      record.pending.events++;
    } else {
      record.pending = { summary: this.options.summarize(event), events: 1 };
    }
    const sinceLine = Date.now() - record.lastLineAt;
    if (sinceLine >= this.options.periodMs) {
      this.write(key, record);
    } else if (!record.flush) {
      const pending = record;
      pending.flush = setTimeout(() => this.write(key, pending), this.options.periodMs - sinceLine);
      pending.flush.unref();
    }
  }

  private write(key: string, record: KeyRecord<Summary>): void {
    if (record.flush) {
      clearTimeout(record.flush);
      record.flush = null;
    }
    if (!record.pending) {
      return;
    }
    this.options.write(key, record.pending.summary, record.pending.events);
    record.pending = null;
    record.lastLineAt = Date.now();
  }
}
