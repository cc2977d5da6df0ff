import { Injectable } from '@nestjs/common';

/** Current time in epoch milliseconds; injected so tests can move time. */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }
}

/** The highest epoch millisecond a Date can hold (±100,000,000 days). */
const MAX_DATE_MS = 8.64e15;

/** A time as messages show it: "2026-11-25T11:43:34.000Z (1795693414000)", ISO 8601 beside the epoch milliseconds sent. */
export const describeInstant = (epochMs: number): string =>
  Math.abs(epochMs) <= MAX_DATE_MS ? `${new Date(epochMs).toISOString()} (${epochMs})` : `${epochMs} (beyond any date)`;
