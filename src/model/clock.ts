/**
 * The time the suite waits by: the pacer's pauses (a rate limit, Retry-After) and a read-after-write step's backoff
 * within its consistency window. The real clock in every run; a test gives a virtual one, on which a wait takes no time.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface Clock {
  /** Milliseconds on a monotonic scale (the real clock: performance.now()). */
  now(): number;
  /** Resolves after `ms`; rejects (AbortError) as soon as `signal` aborts, at once when it already has. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The clock of every run. */
export const REAL_CLOCK: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) => sleep(ms, undefined, signal === undefined ? {} : { signal }),
};
