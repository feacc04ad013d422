/**
 * Deadlines that always fire. `AbortSignal.timeout` runs on an unreferenced timer that Node 20 may garbage-collect with
 * its signal before it fires (nodejs/node#57736), and `AbortSignal.any` holds its sources weakly: a request waiting on
 * either can wait forever. Here a referenced timer holds the controller it aborts, and links are plain listeners that
 * `dispose` takes away.
 */
import type { Exchange } from '../model/exchange.js';
import type { OutgoingRequest, Sender } from './sender.js';

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
 * A signal that aborts after `ms` (a TimeoutError, as AbortSignal.timeout's) or when any `linked` signal aborts (its
 * reason); no deadline when `ms` is undefined. `schedule` is the timer (a test's fires when the test says).
 */
export function guardSignal(
  ms: number | undefined,
  linked: ReadonlyArray<AbortSignal | undefined>,
  schedule: ScheduleTimer = REAL_TIMER,
): GuardSignal {
  const controller = new AbortController();
  let expired = false;
  const cancel =
    ms === undefined
      ? undefined
      : schedule(() => {
          expired = true;
          controller.abort(new DOMException(`no complete response within ${ms} ms`, 'TimeoutError'));
        }, ms);
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
      cancel?.();
      for (const [signal, follow] of links) signal.removeEventListener('abort', follow);
    },
  };
}

/**
 * One deadline for the whole exchange (connect, headers, every byte of the body), whatever pace the body comes at; the
 * exchange is aborted too when a linked signal aborts (the client stopped, the run's grace ran out).
 */
export class Deadline implements Sender {
  constructor(
    private readonly inner: Sender,
    private readonly ms: number,
    private readonly linked: ReadonlyArray<AbortSignal | undefined>,
    private readonly schedule: ScheduleTimer = REAL_TIMER,
  ) {}

  async send(request: OutgoingRequest): Promise<Exchange> {
    const guard = guardSignal(this.ms, [...this.linked, request.signal], this.schedule);
    try {
      return await this.inner.send({ ...request, signal: guard.signal });
    } finally {
      guard.dispose();
    }
  }
}
