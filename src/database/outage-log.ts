import { Logger } from '@nestjs/common';

/** At most one line per cause in this many ms (docs/decisions/0022-database-outages.md). */
export const OUTAGE_LOG_PERIOD_MS = 5000;

interface CauseRecord {
  /** Refused since the last line. */
  refused: number;
  lastLineAt: number;
  /** Writes the pending count once the period is over, when no later refusal does. */
  flush: NodeJS.Timeout | null;
}

/**
 * The log of a database outage (docs/decisions/0022-database-outages.md): every refused request still gets
 * its 503, but the log gets one warn line per cause (driver error code) at most
 * every OUTAGE_LOG_PERIOD_MS, with the number of requests refused since the
 * previous line and no stack trace: the error is expected, its trace says nothing.
 */
export class OutageLog {
  private readonly logger = new Logger('DatabaseOutage');
  private readonly causes = new Map<string, CauseRecord>();

  /** A request answered 503 for `cause` (a driver error code, or the refusal's message); `detail` is logged with it. */
  refused(cause: string, detail: string, requestId?: string): void {
    let record = this.causes.get(cause);
    if (!record) {
      record = { refused: 0, lastLineAt: Number.NEGATIVE_INFINITY, flush: null };
      this.causes.set(cause, record);
    }
    record.refused++;
    const sinceLine = Date.now() - record.lastLineAt;
    if (sinceLine >= OUTAGE_LOG_PERIOD_MS) {
      this.write(cause, record, detail, requestId);
    } else if (!record.flush) {
      const pending = record;
      pending.flush = setTimeout(() => this.write(cause, pending, detail), OUTAGE_LOG_PERIOD_MS - sinceLine);
      pending.flush.unref();
    }
  }

  private write(cause: string, record: CauseRecord, detail: string, requestId?: string): void {
    if (record.flush) {
      clearTimeout(record.flush);
      record.flush = null;
    }
    if (record.refused === 0) {
      return;
    }
    this.logger.warn(
      { cause, refused: record.refused, detail, ...(requestId ? { requestId } : {}) },
      'database unavailable: requests answered 503',
    );
    record.refused = 0;
    record.lastLineAt = Date.now();
  }
}

/** One per process: every app and filter in it shares the quiet period. */
export const outageLog = new OutageLog();
