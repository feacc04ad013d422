/** The stop every layer of a client shares: once stopped (the server gone, too much waiting asked), nothing more is sent. */
import { RunError } from '../model/errors.js';

/** Why the client stopped, the signal that tells the run, and the run's own interruption. */
export class RunStop {
  private readonly controller = new AbortController();
  private why: RunError | undefined;

  /** `abort` aborts the requests in flight: the run was interrupted and their grace ran out. */
  constructor(readonly abort?: AbortSignal) {}

  /** Aborted once the client stopped. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the client stopped, when it did. */
  get reason(): RunError | undefined {
    return this.why;
  }

  /** Whether the run was interrupted and its requests in flight aborted. */
  get interrupted(): boolean {
    return this.abort?.aborted === true;
  }

  /** Stops the client; the first reason stays the reason. */
  stop(reason: RunError): RunError {
    this.why ??= reason;
    this.controller.abort();
    return this.why;
  }

  /**
   * The error a request meets when it cannot go on (the stop's reason, or the interruption told as `interruption`);
   * undefined when it can.
   */
  halted(interruption: string): RunError | undefined {
    return this.why ?? (this.interrupted ? new RunError('ERR_INTERRUPTED', interruption) : undefined);
  }
}
