/**
 * At most N exchanges in flight (--concurrency), whichever phase sends them: phases and examples that run side by side
 * share the same N. A request waits for a slot before its first attempt and holds it to its answer (throttle waits and a
 * connection retry included), so its measured duration and deadline never count the time it queued.
 */
import type { Exchange } from '../model/exchange.js';
import type { OutgoingRequest, Sender } from './sender.js';

/** Holds each request until fewer than `limit` are in flight; slots are handed out in the order they were asked for. */
export class Slots implements Sender {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly inner: Sender,
    limit: number,
  ) {
    this.free = Math.max(1, Math.floor(limit));
  }

  async send(request: OutgoingRequest): Promise<Exchange> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((granted) => this.waiting.push(granted));
    try {
      // A stopped client is not waited on here: the layers below throw its reason at once, and the slot passes on.
      return await this.inner.send(request);
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.free += 1;
      else next();
    }
  }
}
