import { addArms, type ArmsCounts } from './experiment-changes';
import type { InsightChange } from './insight-changes';

/** Actions, resets and new users of one day. */
export type DayCounts = [actions: number, resets: number, newUsers: number];

/**
 * One CTA's counts, added up: a user's pending changes (insight-pending.ts), the pending changes
 * the fold adds to the folded rows, or the folded rows and then the pending changes (what a read
 * answers). One sum for all, so a read answers the same before and after the fold.
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
  /** The experiment's entered, exposed and converted users, per arm (treatment, holdout). */
  readonly arms: ArmsCounts = [
    [0, 0, 0],
    [0, 0, 0],
  ];

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

  /** A change a write counted (InsightChange), or a user's pending changes of the CTA. */
  add({ days, users, states, arms }: Pick<InsightChange, 'days' | 'users' | 'states' | 'arms'>): void {
    if (arms) addArms(this.arms, arms);
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
