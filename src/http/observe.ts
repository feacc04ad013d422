/**
 * The observe layer: every exchange the client completes is told to the run's observers (the store model above all), so
 * that every phase's responses, whichever phase sent them, reach the model without a call of their own.
 */
import type { Exchange, SentRequest } from '../model/exchange.js';
import { type OutgoingRequest, type Sender, TransportError } from './sender.js';

/** Who is told of each exchange: `observe` for an answer, `unanswered` for a request that got none. */
export interface ExchangeObserver {
  /** An answered exchange, named by where it belongs (`case lifecycle.create`) and who sent it, when its request said. */
  observe(exchange: Exchange, label?: string, sentBy?: string): void;
  /** A request that got no answer at all: what it did to the store is unknown. */
  unanswered?(sent: SentRequest): void;
  /** A request is being sent (told before it leaves), and then that it is over, after `observe` or `unanswered`. */
  sending?(request: OutgoingRequest): void;
  sendingOver?(request: OutgoingRequest): void;
}

/** Tells the observer of every exchange that comes back through it, and of every request that got no answer. */
export class Observe implements Sender {
  constructor(
    private readonly inner: Sender,
    private readonly observer: ExchangeObserver,
  ) {}

  async send(request: OutgoingRequest): Promise<Exchange> {
    let exchange: Exchange;
    this.observer.sending?.(request);
    try {
      try {
        exchange = await this.inner.send(request);
      } catch (error) {
        if (error instanceof TransportError) this.observer.unanswered?.(error.sent);
        throw error;
      }
      this.observer.observe(exchange, request.label, request.sentBy);
    } finally {
      this.observer.sendingOver?.(request);
    }
    return exchange;
  }
}

/** One observer that tells each of `observers` in turn. */
export function everyObserver(observers: readonly ExchangeObserver[]): ExchangeObserver {
  return {
    observe: (exchange, label, sentBy) => {
      for (const observer of observers) observer.observe(exchange, label, sentBy);
    },
    unanswered: (sent) => {
      for (const observer of observers) observer.unanswered?.(sent);
    },
    sending: (request) => {
      for (const observer of observers) observer.sending?.(request);
    },
    sendingOver: (request) => {
      for (const observer of observers) observer.sendingOver?.(request);
    },
  };
}
