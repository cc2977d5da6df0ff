import { setTimeout as sleep } from 'node:timers/promises';
import type { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import type { Clock } from '../common/clock';

/**
 * A request that must know whether a tenant unheard of exists now (to ignore its snapshots)
 * waits at most about this long for the shared check, however long `CACHE_REVALIDATE_MS` is.
 */
export const MAX_UNKNOWN_TENANT_WAIT_MS = 1000;

/** A check of the directory under way, and its read number (see `CatalogueCacheService.freshnessMark`). */
interface Check {
  done: Promise<void>;
  number: number;
}

/**
 * Which tenants have a catalogue, for all of them at once, so that unknown tenants cost
 * nothing per request. The tenant header is not authenticated, so a flood of made-up ids must
 * not cost a database read each: a tenant is told by its catalogue revision row, which its first
 * admin write creates and nothing deletes. The instance holds the ids of those rows (one string
 * per real tenant, never per id asked about) and checks them with one statement for all: at most
 * one every `maxAgeMs` on behalf of launches, and at most one every MAX_UNKNOWN_TENANT_WAIT_MS on
 * behalf of a request about to ignore snapshots (that one must start after the request arrived:
 * a stale catalogue never loses data). The statement reads only the number of rows unless it changed.
 */
export class TenantDirectory {
  private readonly tenants = new Set<string>();
  /** Rows counted by the last check that listed them; -1 before the first. */
  private listedCount = -1;
  /** When (clock ms) the last completed check started, and its read number. */
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checkedNumber = 0;
  private check: Check | null = null;
  /** When (monotonic ms) the last check started. */
  private lastCheckStartedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly revisions: CatalogueRevisionService,
    private readonly clock: Clock,
    private readonly maxAgeMs: number,
    /** The next read number: checks are numbered with the catalogue's revision reads. */
    private readonly nextReadNumber: () => number,
  ) {}

  /** Whether the tenant is known to have a catalogue; final, since revision rows are never deleted. */
  has(tenantId: string): boolean {
    return this.tenants.has(tenantId);
  }

  /** A tenant this instance has just written to. */
  add(tenantId: string): void {
    this.tenants.add(tenantId);
  }

  /** Whether the tenant has a catalogue, by a check of all tenants at most `maxAgeMs` old. */
  async exists(tenantId: string): Promise<boolean> {
    if (!this.tenants.has(tenantId) && this.clock.now() - this.checkedAt >= this.maxAgeMs) {
      await (this.check ?? this.startCheck()).done;
    }
    return this.tenants.has(tenantId);
  }

  /** Whether the tenant has a catalogue, by a check that started after `mark` was taken. */
  async existsAfter(tenantId: string, mark: number): Promise<boolean> {
    for (;;) {
      if (this.tenants.has(tenantId)) return true;
      if (this.checkedNumber > mark) return false;
      if (this.check) {
        await this.check.done.catch(() => undefined);
        continue;
      }
      const wait = this.lastCheckStartedAt + Math.min(this.maxAgeMs, MAX_UNKNOWN_TENANT_WAIT_MS) - performance.now();
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      await this.startCheck().done;
    }
  }

  private startCheck(): Check {
    const startedAt = this.clock.now();
    const number = this.nextReadNumber();
    this.lastCheckStartedAt = performance.now();
    const check: Check = {
      number,
      done: this.revisions.tenantsUnlessCount(this.listedCount).then(({ count, tenantIds }) => {
        // Only ever added to: a tenant written here meanwhile may be missing from what was read.
        tenantIds?.forEach((tenantId) => this.tenants.add(tenantId));
        if (tenantIds) this.listedCount = count;
        this.checkedAt = startedAt;
        this.checkedNumber = Math.max(this.checkedNumber, number);
      }),
    };
    this.check = check;
    void check.done
      .finally(() => {
        if (this.check === check) this.check = null;
      })
      .catch(() => undefined);
    return check;
  }
}
