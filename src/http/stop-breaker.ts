/** The stop breaker: after requests in a row got no answer at all the server is gone, and nothing more is sent. */
import { RunError } from '../model/errors.js';
import type { Exchange } from '../model/exchange.js';
import type { RunStop } from './run-stop.js';
import { type OutgoingRequest, type Sender, TransportError } from './sender.js';

/** After this many requests in a row got no answer at all, the server is gone and the run stops. */
export const FAILURES_BEFORE_STOP = 3;

/** Lets requests through until the client stopped; counts answers, and stops the client when the server stopped answering. */
export class StopBreaker implements Sender {
  private answered = 0;
  private failuresInARow = 0;

  constructor(
    private readonly inner: Sender,
    private readonly stop: RunStop,
  ) {}

  async send(request: OutgoingRequest): Promise<Exchange> {
    const halted = this.stop.halted('interrupted before the request was sent');
    if (halted !== undefined) throw halted;
    const answeredBefore = this.answered;
    let exchange: Exchange;
    try {
      exchange = await this.inner.send(request);
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      throw this.noteFailure(error.withAnsweredMeanwhile(this.answered - answeredBefore));
    }
    this.answered += 1;
    this.failuresInARow = 0;
    return exchange;
  }

  /** Counts a request that got no answer; enough of them in a row mean the server is gone, and the run stops at once. */
  private noteFailure(error: TransportError): TransportError | RunError {
    this.failuresInARow += 1;
    if (this.failuresInARow < FAILURES_BEFORE_STOP) return error;
    return this.stop.stop(
      new RunError(
        'ERR_SERVER_GONE',
        `the server stopped answering: ${this.failuresInARow} requests in a row got no answer (last: ${error.sent.method} ${error.sent.target}: ${error.message} (${error.code})); the run stopped`,
      ),
    );
  }
}
