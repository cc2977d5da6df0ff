import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How much later `race` sends its second request than its first, in ms (negative: earlier). The
 * extremes settle the order, whatever each request's own latency; the ones between overlap them.
 */
export const RACE_OFFSETS_MS = [-50, 0, 2, 5, 10, 20, 40, 200];

/** Sends `first`, and `second` `offsetMs` after it (before it when negative); answers both as given. */
export function race<A, B>(offsetMs: number, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
  const after = <T>(delayMs: number, send: () => Promise<T>): Promise<T> => sleep(Math.max(0, delayMs)).then(send);
  return Promise.all([after(-offsetMs, first), after(offsetMs, second)]);
}
