/**
 * Deadlines that always fire. `AbortSignal.timeout` runs on an unreferenced timer that Node 20 may garbage-collect with
 * its signal before it fires (nodejs/node#57736), and `AbortSignal.any` holds its sources weakly: a request waiting on
 * either can wait forever. Here a referenced timer holds the controller it aborts, and links are plain listeners that
 * `dispose` takes away.
 */
import type { Exchange } from '../model/exchange.js';
import { type BodyProgress, type OutgoingRequest, type Sender, TransportError } from './sender.js';

/** A signal aborted at its deadline or when a linked signal aborts; `dispose` must be called once the guarded work ends. */
export interface GuardSignal {
  readonly signal: AbortSignal;
  /** Whether the deadline (not a linked signal) aborted it. */
  readonly expired: boolean;
  dispose(): void;
}

/** Calls `fire` after `ms` on a referenced timer; the function it returns cancels it. */
export type ScheduleTimer = (fire: () => void, ms: number) => () => void;

/** The real timer: referenced, so the process waits for the deadline it guards. */
const REAL_TIMER: ScheduleTimer = (fire, ms) => {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
};

/**
 * Arms a deadline: calls `expire` with the words of the abort when it passes; returns what disarms it.
 */
type ArmDeadline = (expire: (message: string) => void) => () => void;

/** A signal aborted by `arm`'s deadline (a TimeoutError, as AbortSignal.timeout's) or when any `linked` signal aborts (its reason). */
function linkedGuard(linked: ReadonlyArray<AbortSignal | undefined>, arm: ArmDeadline | undefined): GuardSignal {
  const controller = new AbortController();
  let expired = false;
  const disarm = arm?.((message) => {
    expired = true;
    controller.abort(new DOMException(message, 'TimeoutError'));
  });
  const links: Array<[AbortSignal, () => void]> = [];
  for (const signal of linked) {
    if (signal === undefined) continue;
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const follow = (): void => controller.abort(signal.reason);
    signal.addEventListener('abort', follow, { once: true });
    links.push([signal, follow]);
  }
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    dispose() {
      disarm?.();
      for (const [signal, follow] of links) signal.removeEventListener('abort', follow);
    },
  };
}

/**
 * A signal that aborts after `ms` (a TimeoutError, as AbortSignal.timeout's) or when any `linked` signal aborts (its
 * reason); no deadline when `ms` is undefined. `schedule` is the timer (a test's fires when the test says).
 */
export function guardSignal(
  ms: number | undefined,
  linked: ReadonlyArray<AbortSignal | undefined>,
  schedule: ScheduleTimer = REAL_TIMER,
): GuardSignal {
  return linkedGuard(linked, ms === undefined ? undefined : (expire) => schedule(() => expire(`no complete response within ${ms} ms`), ms));
}

/**
 * How long a body that keeps arriving may go on past the deadline. curl's speed limit works this way (`--speed-limit`,
 * `--speed-time`): at the deadline, and every `windowMs` after it, the body must have brought `minBytesPerSecond` over
 * the last window, else the exchange is cut; `ceilingMs` bounds the whole exchange whatever the pace.
 */
export interface BodyPace {
  windowMs: number;
  minBytesPerSecond: number;
  /** The longest a whole exchange may take, however steadily its body arrives (a multiple of the deadline). */
  ceilingFactor: number;
}

/**
 * The default pace: 4 KiB/s over 5 s windows, up to 10 × the deadline. A slow link (10 KB/s) brings a 1 MiB answer in
 * under two minutes; a body dripping a byte at a time, stalled inside a chunk or short of its Content-Length, still ends
 * at the deadline.
 */
const DEFAULT_BODY_PACE: BodyPace = { windowMs: 5_000, minBytesPerSecond: 4 * 1024, ceilingFactor: 10 };

/** A kind of request that went unanswered past its deadline, and what later requests of that kind wait. */
interface StuckKind {
  /** The first exchange of the kind that went unanswered, in words (`GET /v1/pets?limit=100`). */
  readonly first: string;
  readonly waitedMs: number;
}

/** The shortest deadline a request of a kind that went unanswered before is given. */
const SHORT_DEADLINE_FLOOR_MS = 2_000;
/** The short deadline is this many times the slowest answer of the same operation so far. */
const SHORT_DEADLINE_FACTOR = 4;

/**
 * A kind of request: its operation, method and the names of its query parameters (not their values, nor the body).
 * Requests of one kind take one path through a server: one that hangs on `limit=100` hangs with or without a status.
 */
function kindOf(request: OutgoingRequest): string {
  const names = [...new Set(request.query.map(([name]) => name))].sort();
  return `${request.operation} ${request.method} ${request.path.split('/').length} ${names.join('&')}`;
}

/**
 * One deadline for the whole exchange (connect, headers, the body at a useful pace); the exchange is aborted too when a
 * linked signal aborts (the client stopped, the run's grace ran out). Once a kind of request went unanswered past its
 * deadline, later requests of that kind get a short one (a few times the slowest answer of their operation, at least
 * 2 s), and their failure names the first: the run's time is bounded by what the server does, not by how often it asks.
 */
export class Deadline implements Sender {
  private readonly stuck = new Map<string, StuckKind>();
  /** The slowest answered exchange of each operation (ms). */
  private readonly slowest = new Map<string, number>();

  constructor(
    private readonly inner: Sender,
    private readonly ms: number,
    private readonly linked: ReadonlyArray<AbortSignal | undefined>,
    private readonly schedule: ScheduleTimer = REAL_TIMER,
    private readonly pace: BodyPace = DEFAULT_BODY_PACE,
  ) {}

  async send(request: OutgoingRequest): Promise<Exchange> {
    const kind = kindOf(request);
    const stuck = this.stuck.get(kind);
    const ms = stuck === undefined && request.brief !== true ? this.ms : this.shortDeadline(request.operation);
    const progress: BodyProgress = { bytes: 0 };
    const guard = pacedGuard(ms, [...this.linked, request.signal], progress, this.pace, this.schedule);
    try {
      const exchange = await this.inner.send({ ...request, signal: guard.signal, progress });
      // The capture's own duration: nothing between it and this layer waits.
      if (exchange.durationMs > (this.slowest.get(request.operation) ?? 0)) this.slowest.set(request.operation, exchange.durationMs);
      return exchange;
    } catch (error) {
      if (!(error instanceof TransportError) || !error.timedOut) throw error;
      if (stuck === undefined) {
        if (!this.stuck.has(kind)) this.stuck.set(kind, { first: `${error.sent.method} ${error.sent.target}`, waitedMs: ms });
        throw error;
      }
      throw error.withMessage(
        `${error.message} (a short wait: ${stuck.first}, a request of the same kind, went unanswered for ${stuck.waitedMs} ms)`,
      );
    } finally {
      guard.dispose();
    }
  }

  /** The deadline of a request whose kind went unanswered before: never longer than the run's own. */
  private shortDeadline(operation: string): number {
    const slowest = this.slowest.get(operation) ?? 0;
    return Math.min(this.ms, Math.max(SHORT_DEADLINE_FLOOR_MS, Math.ceil(slowest * SHORT_DEADLINE_FACTOR)));
  }
}

/**
 * A guard whose deadline gives way to a body arriving at a useful pace: at `ms`, and every window after it up to the
 * ceiling, it aborts unless the last window brought enough bytes.
 */
export function pacedGuard(
  ms: number,
  linked: ReadonlyArray<AbortSignal | undefined>,
  progress: BodyProgress,
  pace: BodyPace,
  schedule: ScheduleTimer = REAL_TIMER,
): GuardSignal {
  const ceiling = ms * pace.ceilingFactor;
  const needed = (pace.minBytesPerSecond * pace.windowMs) / 1000;
  return linkedGuard(linked, (expire) => {
    let disarm: () => void;
    let seen = 0;
    let at = ms;
    // At `at`: the bytes since the last check must reach the window's share, and the ceiling must be ahead.
    const check = (): void => {
      const brought = progress.bytes - seen;
      seen = progress.bytes;
      if (brought < needed || at + pace.windowMs > ceiling) {
        expire(`no complete response within ${Math.round(at)} ms`);
        return;
      }
      at += pace.windowMs;
      disarm = schedule(check, pace.windowMs);
    };
    // The first window is the one before the deadline: a body that began just then counts whole.
    const windowStart = Math.max(0, ms - pace.windowMs);
    const startWindow = (): void => {
      seen = progress.bytes;
      disarm = schedule(check, ms - windowStart);
    };
    if (windowStart === 0) startWindow();
    else disarm = schedule(startWindow, windowStart);
    return () => disarm();
  });
}
