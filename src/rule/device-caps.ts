import type { WindowUnit } from './rule.types';

/**
 * Frequency caps as the mobile SDK counts them (measured with its code, README "Support tools"):
 * caps count resets, not displays; a window holds the resets at most `value × unit` before now,
 * the boundary included; a limit of 0 (or none) is not checked. The simulator and the explain
 * tool's device view both count here.
 */

const WINDOW_UNIT_MS: Readonly<Record<WindowUnit, number>> = {
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
};

export interface CapWindow {
  unit: WindowUnit;
  value: number;
}

/** How many of `times` lie in the window ending at `now`: at most `value × unit` before it (inclusive). */
export function countInWindow(times: readonly number[], window: CapWindow, now: number): number {
  const length = window.value * WINDOW_UNIT_MS[window.unit];
  let count = 0;
  for (const time of times) {
    if (now - time <= length) count++;
  }
  return count;
}

/** Whether `count` reaches a cap of `limit`: never for a limit of 0 or none, which devices do not check. */
export const capReached = (limit: number | undefined, count: number): boolean => limit !== undefined && limit > 0 && count >= limit;
