import { Logger } from '@nestjs/common';
import { ThrottledLog } from '../common/throttled-log';

/** At most one line per cause in this many ms (docs/decisions/0022-database-outages.md). */
export const OUTAGE_LOG_PERIOD_MS = 5000;
/** Causes remembered: driver error codes and the service's own refusal messages are few. */
const MAX_CAUSES = 1000;

interface Refusal {
  detail: string;
  requestId?: string;
}

/**
 * The log of a database outage (docs/decisions/0022-database-outages.md): every refused request still gets
 * its 503, but the log gets one warn line per cause (driver error code) at most
 * every OUTAGE_LOG_PERIOD_MS, with the number of requests refused since the
 * previous line and no stack trace: the error is expected, its trace says nothing.
 */
export class OutageLog {
  private readonly logger = new Logger('DatabaseOutage');
  private readonly log = new ThrottledLog<Refusal, Refusal>({
    periodMs: OUTAGE_LOG_PERIOD_MS,
    maxKeys: MAX_CAUSES,
    // The line names the first refusal since the last one; its request only when it is the one refusal.
    summarize: (refusal) => ({ ...refusal }),
    add: () => undefined,
    write: (cause, { detail, requestId }, refused) =>
      this.logger.warn(
        { cause, refused, detail, ...(requestId && refused === 1 ? { requestId } : {}) },
        'database unavailable: requests answered 503',
      ),
  });

  /** A request answered 503 for `cause` (a driver error code, or the refusal's message); `detail` is logged with it. */
  refused(cause: string, detail: string, requestId?: string): void {
    this.log.record(cause, { detail, requestId });
  }
}

/** One per process: every app and filter in it shares the quiet period. */
export const outageLog = new OutageLog();
