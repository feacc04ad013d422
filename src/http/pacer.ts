/**
 * How fast the suite may talk to a server: at most `--rate-limit` requests per second, and nothing while the server
 * asked to wait (429, or 503 with Retry-After). Rate limits are never a verdict on the contract (reading-the-contract.md):
 * the suite waits as asked, within a per-wait cap and a run-wide budget, and a run that would exceed them could not be completed.
 */
import { REAL_CLOCK, type Clock } from '../model/clock.js';

/** Bounds on waiting for a server that asks the suite to slow down. */
export interface PacingOptions {
  /** Requests per second the suite may send at most (a staging that publishes its limit); undefined: no limit. */
  ratePerSecond?: number;
  /** The longest single wait the suite accepts; a server asking for more stops the run. */
  maxWaitMs: number;
  /** All the waiting a run may do. */
  waitBudgetMs: number;
}

/** Defaults: a wait of up to a minute, five minutes in all. */
export const DEFAULT_PACING: PacingOptions = { maxWaitMs: 60_000, waitBudgetMs: 300_000 };

/** How long a Retry-After value (delay-seconds or an HTTP date) asks to wait, in ms; undefined when it is neither. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) || !/[A-Za-z]/.test(text) ? undefined : Math.max(0, date - now);
}

/** Why a wait cannot be made: it is longer than the per-wait cap, or the budget is spent. */
export type WaitRefusal = { kind: 'too-long'; askedMs: number } | { kind: 'budget'; spentMs: number };

/** A wait made: how much it added to the pause already under way (0 when it ends inside it), and the waiting spent so far. */
export interface WaitGranted {
  kind: 'granted';
  addedMs: number;
  spentMs: number;
}

/** Spaces a client's requests and holds them while the server asked to wait; counts what the waiting cost. */
export class Pacer {
  private readonly intervalMs: number;
  private nextSlot = 0;
  private pausedUntil = 0;
  private waited = 0;
  private throttledResponses = 0;

  constructor(
    readonly options: PacingOptions,
    private readonly clock: Clock = REAL_CLOCK,
  ) {
    this.intervalMs = options.ratePerSecond === undefined ? 0 : 1000 / options.ratePerSecond;
  }

  /** Waits `ms` on the pacer's clock (a turn taken by `take`). */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.clock.sleep(ms, signal);
  }

  /**
   * Takes this request's turn (after any pause the server asked for, one rate interval after the previous request): how
   * long it must wait for it (0: it may go now).
   */
  take(): number {
    const now = this.clock.now();
    const at = Math.max(now, this.pausedUntil, this.nextSlot);
    this.nextSlot = at + this.intervalMs;
    return at - now;
  }

  /** Records a throttled response asking for `ms` of quiet; every request waits it out. Returns what it added, or why it cannot be made. */
  pause(ms: number): WaitGranted | WaitRefusal {
    this.throttledResponses += 1;
    if (ms > this.options.maxWaitMs) return { kind: 'too-long', askedMs: ms };
    const now = this.clock.now();
    const until = now + ms;
    // Concurrent requests throttled together share one pause: only the time that extends it is spent.
    const extension = this.pausedUntil <= now ? ms : Math.max(0, until - this.pausedUntil);
    if (this.waited + extension > this.options.waitBudgetMs) return { kind: 'budget', spentMs: this.waited };
    this.waited += extension;
    this.pausedUntil = Math.max(this.pausedUntil, until);
    return { kind: 'granted', addedMs: extension, spentMs: this.waited };
  }

  /** Throttled responses received and the time spent waiting for them, for the report. */
  get totals(): { throttledResponses: number; waitedMs: number } {
    return { throttledResponses: this.throttledResponses, waitedMs: Math.round(this.waited) };
  }
}
