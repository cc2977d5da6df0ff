import type { PendingChange } from './insight-pending';

/** Actions, resets and new users of one day. */
export type DayCounts = [actions: number, resets: number, newUsers: number];

/**
 * One CTA's counts, added up: from pending rows (what the fold adds to the folded rows), or from
 * the folded rows and then the pending ones (what a read answers). One sum for both, so a read
 * answers the same before and after the fold.
 */
export class CtaCounts {
  /** By day number. */
  readonly days = new Map<number, DayCounts>();
  /** By `currentState`. */
  readonly states = new Map<string, number>();
  /** Users with machines of the CTA now. */
  users = 0;
  /** Users with any action, ever: the sum of every day's new users. */
  usersReached = 0;

  addDay(day: number, actions: number, resets: number, newUsers: number): void {
    const counts = this.days.get(day);
    if (counts) {
      counts[0] += actions;
      counts[1] += resets;
      counts[2] += newUsers;
    } else {
      this.days.set(day, [actions, resets, newUsers]);
    }
  }

  addMachines(state: string, machines: number): void {
    this.states.set(state, (this.states.get(state) ?? 0) + machines);
  }

  /** A pending row's change. */
  add({ days, users, states }: PendingChange): void {
    for (const [day, actions, resets, newUsers] of days) {
      this.addDay(day, actions, resets, newUsers);
      this.usersReached += newUsers;
    }
    this.users += users;
    states.forEach(([state, machines]) => this.addMachines(state, machines));
  }
}

/** Counts by CTA id; `of` creates them on first use. */
export class CountsByCta<Key = number> extends Map<Key, CtaCounts> {
  of(key: Key): CtaCounts {
    let counts = this.get(key);
    if (!counts) this.set(key, (counts = new CtaCounts()));
    return counts;
  }
}
