import { Clock } from '../src/common/clock';

/** Real time plus an offset that a test can move forward. */
export class TestClock extends Clock {
  private offsetMs = 0;

  override now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** Time units to move the clock by, in milliseconds. */
export const MINUTE = 60 * 1000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
