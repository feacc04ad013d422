/**
 * The stop breaker: after requests in a row got no answer at all, and a plain request (the listing) gets none either, the
 * server is gone and nothing more is sent. A server that still answers the plain request has stopped answering one kind
 * of request only: those requests fail (a verdict on the contract), and the run goes on. An answer that cannot be read
 * (it breaks HTTP/1.1, or its head is over --max-header-bytes) is an answer: such a server is never called gone, and
 * when its answers in a row and its plain answer all cannot be read, the run stops saying that.
 */
import { RunError } from '../model/errors.js';
import type { Exchange } from '../model/exchange.js';
import type { RunStop } from './run-stop.js';
import { type OutgoingRequest, type Sender, TransportError } from './sender.js';

/** After this many requests in a row got no answer at all, the server is gone and the run stops. */
const FAILURES_BEFORE_STOP = 3;

/** Lets requests through until the client stopped; counts answers, and stops the client when the server stopped answering. */
export class StopBreaker implements Sender {
  private answered = 0;
  private failuresInARow = 0;
  private unreadableInARow = 0;
  /** The requests under way, each marked once answered. */
  private readonly underWay = new Set<{ answered: boolean }>();
  /** The plain request in flight, which every failure meanwhile waits on instead of sending its own. */
  private probe: Promise<boolean> | undefined;

  /** `alive`: the plain request that tells a server gone from one that refuses some requests (none: the run stops at once). */
  constructor(
    private readonly inner: Sender,
    private readonly stop: RunStop,
    private readonly alive?: OutgoingRequest,
  ) {}

  async send(request: OutgoingRequest): Promise<Exchange> {
    const halted = this.stop.halted('interrupted before the request was sent');
    if (halted !== undefined) throw halted;
    const answeredBefore = this.answered;
    // Only an answer to a request begun after this one shows the server still answering once it took this one: the
    // answers of requests already under way (side by side with it) do not count.
    const earlier = [...this.underWay];
    const mine = { answered: false };
    this.underWay.add(mine);
    let exchange: Exchange;
    try {
      exchange = await this.inner.send(request);
    } catch (error) {
      this.underWay.delete(mine);
      if (!(error instanceof TransportError)) throw error;
      const meanwhile = this.answered - answeredBefore - earlier.filter((other) => other.answered).length;
      if (error.unreadable) {
        mine.answered = true;
        // A body that breaks HTTP/1.1 after its head came is an answer cut short, told apart as any other by the plain listing.
        const cut = !error.beforeResponse && meanwhile === 0 && (await this.answers());
        throw await this.noteUnreadable(error.withAnsweredMeanwhile(cut ? 1 : meanwhile));
      }
      // Closed on a fresh connection too, or cut after its answer began: whether the server answers the plain request tells
      // its refusal (or its broken answer) from its end.
      const refused = error.closedTwice || (!error.beforeResponse && !error.timedOut);
      if (refused && meanwhile === 0 && (await this.answers())) throw error.withAnsweredMeanwhile(1);
      throw await this.noteFailure(error.withAnsweredMeanwhile(meanwhile));
    }
    this.underWay.delete(mine);
    mine.answered = true;
    this.answered += 1;
    this.failuresInARow = 0;
    this.unreadableInARow = 0;
    return exchange;
  }

  /** Counts an answer that cannot be read; enough in a row, and the plain request's unreadable too, and nothing can be judged. */
  private async noteUnreadable(error: TransportError): Promise<TransportError | RunError> {
    this.answered += 1;
    this.failuresInARow = 0;
    this.unreadableInARow += 1;
    if (this.unreadableInARow < FAILURES_BEFORE_STOP || (await this.answers())) {
      if (this.unreadableInARow >= FAILURES_BEFORE_STOP) this.unreadableInARow = 0;
      return error;
    }
    const listing = this.alive === undefined ? '' : ", the plain listing's too";
    const last = `${error.sent.method} ${error.sent.target}: ${error.message} (${error.code})`;
    return this.stop.stop(
      new RunError(
        'ERR_UNREADABLE',
        `the server answers, but ${this.unreadableInARow} answers in a row could not be read${listing} (last: ${last}); the run stopped`,
      ),
    );
  }

  /** Counts a request that got no answer; enough of them in a row, and no answer to the plain request, mean the server is gone. */
  private async noteFailure(error: TransportError): Promise<TransportError | RunError> {
    this.failuresInARow += 1;
    if (this.failuresInARow < FAILURES_BEFORE_STOP) return error;
    if (await this.answers()) {
      this.failuresInARow = 0;
      return error;
    }
    return this.stop.stop(
      new RunError(
        'ERR_SERVER_GONE',
        `the server stopped answering: ${this.failuresInARow} requests in a row got no answer (last: ${error.sent.method} ` +
          `${error.sent.target}: ${error.message} (${error.code})); the run stopped`,
      ),
    );
  }

  /** Whether the server answers the plain request at all (any status): it is there, and refuses only some requests. */
  private answers(): Promise<boolean> {
    const alive = this.alive;
    if (alive === undefined || this.stop.halted('') !== undefined) return Promise.resolve(false);
    // A server still there answers the plain request as fast as before: waiting the whole deadline again tells nothing more.
    this.probe ??= this.inner.send({ ...alive, brief: true }).then(
      () => {
        this.answered += 1;
        return true;
      },
      () => false,
    );
    const probe = this.probe;
    void probe.finally(() => {
      if (this.probe === probe) this.probe = undefined;
    });
    return probe;
  }
}
