import { Injectable } from '@nestjs/common';

/** Current time in epoch milliseconds; injected so tests can move time. */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }
}
