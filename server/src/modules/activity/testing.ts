import type { Clock } from '../../clock';

/** For tests: a clock that never gives the same millisecond twice, so 'newest first' is defined. */
export class TickingClock implements Clock {
  private last = 0;
  now(): Date {
    this.last = Math.max(Date.now(), this.last + 1);
    return new Date(this.last);
  }
}
