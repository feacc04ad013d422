/**
 * Pacing, in two layers over one Pacer: the throttle (at the top) waits out 429 and 503 with Retry-After and sends again;
 * the turns (just above the wire) make every exchange, a connection retry's included, wait for its turn (--rate-limit, a
 * pause the server asked for), so that nothing goes out faster than promised.
 */
import { RunError } from '../model/errors.js';
import type { Exchange, ReceivedResponse, SentRequest, ServerWait } from '../model/exchange.js';
import { guardSignal } from './deadline.js';
import { type Pacer, retryAfterMs, type WaitGranted, type WaitRefusal } from './pacer.js';
import type { RunStop } from './run-stop.js';
import type { OutgoingRequest, Sender } from './sender.js';

/** The first backoff of a throttled request, doubled each time the same request is throttled again. */
const THROTTLE_BACKOFF_MS = 250;

/** The wait a throttling response asks for (ms; NaN for a 429 that names none), or undefined when the response is an answer. */
function askedToWait(received: ReceivedResponse): number | undefined {
  const retryAfter = retryAfterMs(received.headers['retry-after']);
  if (received.status === 429) return retryAfter ?? Number.NaN;
  if (received.status === 503 && retryAfter !== undefined) return retryAfter;
  return undefined;
}

/**
 * After this many answers in a row, of any requests, that were all throttling, the server only rate-limits the run: it
 * stops (a limiter's Retry-After is followed by answers, not by as many refusals in a row). Six: one request alone, told
 * `Retry-After: 5` each time, is named after 25 s of waiting, where the wait budget alone took 262 s.
 */
const THROTTLED_IN_A_ROW_BEFORE_STOP = 6;

/** Sends each request again after every wait the server asks for, within the pacer's bounds; a refused wait stops the client. */
export class Throttle implements Sender {
  private readonly told: ServerWait[] = [];
  /** Throttling answers in a row, of every request: any other answer starts the count again. */
  private throttledInARow = 0;

  constructor(
    private readonly inner: Sender,
    private readonly pacer: Pacer,
    private readonly stop: RunStop,
    /** Told of every wait as it begins (so that a person sees why nothing moves). */
    private readonly onWait?: (wait: ServerWait) => void,
  ) {}

  /** Every wait that added to the time the run waited, in order. */
  get waits(): ServerWait[] {
    return [...this.told];
  }

  /** The exchange that answered, its duration counting every wait and every throttled response before it. */
  async send(request: OutgoingRequest): Promise<Exchange> {
    const started = performance.now();
    let connectionRetry: string | undefined;
    let throttled = 0;
    let waitedMs = 0;
    for (;;) {
      const exchange = await this.inner.send(request);
      connectionRetry ??= exchange.connectionRetry;
      const asked = askedToWait(exchange.response);
      if (asked === undefined) {
        this.throttledInARow = 0;
        exchange.durationMs = performance.now() - started;
        if (connectionRetry !== undefined) exchange.connectionRetry = connectionRetry;
        if (throttled > 0) exchange.throttled = { responses: throttled, waitedMs: Math.round(waitedMs) };
        return exchange;
      }
      throttled += 1;
      this.throttledInARow += 1;
      if (this.throttledInARow >= THROTTLED_IN_A_ROW_BEFORE_STOP) throw this.stop.stop(this.onlyThrottles(exchange));
      // A request throttled again backs off further, whatever the server asks (Retry-After: 0 forever must not become a busy loop).
      const backoff = Math.min(THROTTLE_BACKOFF_MS * 2 ** (throttled - 1), this.pacer.options.maxWaitMs);
      const ms = Math.max(Number.isNaN(asked) ? 1000 : asked, backoff);
      waitedMs += ms;
      const granted = this.pacer.pause(ms);
      if (granted.kind !== 'granted') throw this.stop.stop(this.waitRefused(granted, exchange.response, exchange.request));
      if (granted.addedMs > 0)
        this.noteWait({ waitMs: ms, askedMs: asked, inARow: throttled }, granted, exchange.response, exchange.request);
    }
  }

  /** Records a wait that added to the run's waiting, and tells whoever listens; `askedMs` is NaN when the server named no wait. */
  private noteWait(
    { waitMs, askedMs, inARow }: { waitMs: number; askedMs: number; inARow: number },
    granted: WaitGranted,
    received: ReceivedResponse,
    sent: SentRequest,
  ): void {
    const retryAfter = received.headers['retry-after'];
    const wait: ServerWait = {
      at: new Date().toISOString(),
      method: sent.method,
      target: sent.target,
      status: received.status,
      ...(retryAfter === undefined ? {} : { retryAfter }),
      waitMs: Math.round(waitMs),
      ...(Number.isNaN(askedMs) ? {} : { askedMs: Math.round(askedMs) }),
      inARow,
      addedMs: Math.round(granted.addedMs),
      spentMs: Math.round(granted.spentMs),
      budgetMs: this.pacer.options.waitBudgetMs,
    };
    this.told.push(wait);
    this.onWait?.(wait);
  }

  /** The server answered nothing but throttling, many times in a row: the run cannot be completed. */
  private onlyThrottles({ response, request }: Exchange): RunError {
    const retryAfter = response.headers['retry-after'];
    return new RunError(
      'ERR_RATE_LIMITED',
      `the server only rate-limits the run: ${this.throttledInARow} answers in a row were ${response.status}` +
        `${retryAfter === undefined ? '' : ` with Retry-After: ${retryAfter}`} (last: ${request.method} ${request.target}); ` +
        'the run could not be completed (--rate-limit N sends at most N requests per second, a pace a staging may publish)',
    );
  }

  private waitRefused(refusal: WaitRefusal, received: ReceivedResponse, sent: SentRequest): RunError {
    const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
    const where = `${sent.method} ${sent.target}`;
    if (refusal.kind === 'too-long') {
      return new RunError(
        'ERR_RATE_LIMITED',
        `the server asked the suite to wait ${seconds(refusal.askedMs)} (${received.status}, Retry-After: ` +
          `${received.headers['retry-after'] ?? ''} to ${where}), longer than one wait may take ` +
          `(${seconds(this.pacer.options.maxWaitMs)}, --max-wait); the run could not be completed`,
      );
    }
    return new RunError(
      'ERR_RATE_LIMITED',
      `the server kept rate-limiting the run (${received.status} to ${where}): ${seconds(refusal.spentMs)} spent waiting used up ` +
        `the budget of ${seconds(this.pacer.options.waitBudgetMs)} (--wait-budget); the run could not be completed`,
    );
  }
}

/** Holds each exchange until its turn: one rate interval after the previous one, and after any pause the server asked for. */
export class Turns implements Sender {
  constructor(
    private readonly inner: Sender,
    private readonly pacer: Pacer,
    private readonly stop: RunStop,
  ) {}

  async send(request: OutgoingRequest): Promise<Exchange> {
    // Most requests need not wait (no --rate-limit, no pause asked for): they go at once, with nothing to guard.
    const wait = this.pacer.take();
    if (wait > 0) await this.wait(wait);
    return this.inner.send(request);
  }

  /** Waits `ms` for the turn taken; a stop or an interruption ends the wait. */
  private async wait(ms: number): Promise<void> {
    const turn = guardSignal(undefined, [this.stop.signal, this.stop.abort]);
    try {
      await this.pacer.sleep(ms, turn.signal);
    } catch {
      throw (
        this.stop.reason ??
        new RunError(
          this.stop.interrupted ? 'ERR_INTERRUPTED' : 'ERR_SERVER_GONE',
          this.stop.interrupted ? 'interrupted while waiting out a rate limit' : 'the run stopped',
        )
      );
    } finally {
      turn.dispose();
    }
  }
}
