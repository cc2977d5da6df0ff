import { Logger } from '@nestjs/common';
import { ThrottledLog } from '../common/throttled-log';
import type { Truncation } from './user-state-bounds';

/** At most one line per app user in this many ms. */
export const USER_LOG_PERIOD_MS = 5000;
/** App users remembered by the log (least recently used forgotten): bounds its memory. */
const MAX_LOGGED_USERS = 10_000;
/** CTA ids a line names at most (the counts cover all of them): keeps a line under 1 KB. */
const MAX_NAMED_CTAS = 5;

type UserEvent = { tenantId: string; userId: string } & ({ truncations: Truncation[] } | { refusedWith: number } | { bodyIgnored: true });

interface UserSummary {
  tenantId: string;
  userId: string;
  /** Requests whose merge dropped something, and what. */
  truncated: { requests: number; machinesPerCta: number; userStateBytes: number; ctaIds: string[] };
  /** Requests refused, by HTTP status (413: the body limit; 429: the per-user gate or the rate limit). */
  refused: Record<string, number>;
  /** Launches answered without their body, which was over the SDK body limit. */
  bodiesIgnored: number;
}

/**
 * What an app user's requests ran into: merges that dropped
 * entries to stay within the caps, and requests refused for their size or their number. One warn
 * line per user at most every USER_LOG_PERIOD_MS, with tenant, user and counts (never the
 * entries), so one client cannot fill the log: the first event at once, the rest of the period in
 * one line when it ends, with the number of requests it covers.
 */
export class SdkUserLog {
  private readonly logger = new Logger('SdkUserLimits');
  private readonly log = new ThrottledLog<UserEvent, UserSummary>({
    periodMs: USER_LOG_PERIOD_MS,
    maxKeys: MAX_LOGGED_USERS,
    summarize: (event) => {
      const summary: UserSummary = {
        tenantId: event.tenantId,
        userId: event.userId,
        truncated: { requests: 0, machinesPerCta: 0, userStateBytes: 0, ctaIds: [] },
        refused: {},
        bodiesIgnored: 0,
      };
      addEvent(summary, event);
      return summary;
    },
    add: addEvent,
    write: (_key, { tenantId, userId, truncated, refused, bodiesIgnored }, requests) =>
      this.logger.warn(
        {
          tenantId,
          userId,
          requests,
          ...(truncated.requests > 0 ? { truncated } : {}),
          ...(Object.keys(refused).length > 0 ? { refused } : {}),
          ...(bodiesIgnored > 0 ? { bodiesIgnored } : {}),
        },
        'app user over its limits: entries dropped from its state, requests refused, or launch bodies ignored (counts since the last line)',
      ),
  });

  /** A merge of the user's state dropped `truncations` to stay within the caps. */
  truncated(tenantId: string, userId: string, truncations: Truncation[]): void {
    this.log.record(keyOf(tenantId, userId), { tenantId, userId, truncations });
  }

  /** A request of the user was refused with `status` before its body was merged. */
  refused(tenantId: string, userId: string, status: number): void {
    this.log.record(keyOf(tenantId, userId), { tenantId, userId, refusedWith: status });
  }

  /** A launch of the user was answered without its body, which was over the SDK body limit. */
  bodyIgnored(tenantId: string, userId: string): void {
    this.log.record(keyOf(tenantId, userId), { tenantId, userId, bodyIgnored: true });
  }
}

const keyOf = (tenantId: string, userId: string): string => `${tenantId}\u0000${userId}`;

function addEvent(summary: UserSummary, event: UserEvent): void {
  if ('bodyIgnored' in event) {
    summary.bodiesIgnored++;
    return;
  }
  if ('refusedWith' in event) {
    summary.refused[event.refusedWith] = (summary.refused[event.refusedWith] ?? 0) + 1;
    return;
  }
  const truncated = summary.truncated;
  truncated.requests++;
  for (const { reason, ctaId, dropped } of event.truncations) {
    if (reason === 'machines_per_cta') truncated.machinesPerCta += dropped;
    else truncated.userStateBytes += dropped;
    if (ctaId !== undefined && truncated.ctaIds.length < MAX_NAMED_CTAS && !truncated.ctaIds.includes(ctaId)) {
      // CTA ids are decimal strings of at most 20 characters; a stored document of another era is cut to that.
      truncated.ctaIds.push(ctaId.slice(0, 20));
    }
  }
}

/** One per process, as the outage log: every app in it shares each user's quiet period. */
export const sdkUserLog = new SdkUserLog();
