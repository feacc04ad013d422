/** The one write gate of a run: read-only mode and --max-writes, for every phase, in front of the client. */
import type { Exchange } from '../model/exchange.js';
import type { OutgoingRequest, Sender } from './sender.js';

export type { Sender } from './sender.js';

/** Methods that may change what the store holds. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** A write the gate did not send, and why: `read-only` (the run writes nothing) or `write-budget` (--max-writes is spent). */
export class WriteRefused extends Error {
  readonly reason: 'read-only' | 'write-budget';

  constructor(reason: 'read-only' | 'write-budget', message: string) {
    super(message);
    this.name = 'WriteRefused';
    this.reason = reason;
  }
}

/** What the gate lets through. */
export interface WriteLimits {
  readOnly: boolean;
  /** The most pets the run may create; every write in flight holds one of them until its answer shows whether it created one. */
  maxWrites?: number;
}

/**
 * Sends reads as they come and writes only while the limits allow: none in read-only mode, and no more than `maxWrites`
 * pets created, counting every write in flight as one that will create (so concurrent phases never overshoot).
 */
export class WriteGate implements Sender {
  private inFlight = 0;
  private createdPets = 0;

  constructor(
    private readonly inner: Sender,
    private readonly limits: WriteLimits,
  ) {}

  /** How many pets the writes through this gate created (answers 201). */
  get created(): number {
    return this.createdPets;
  }

  /** Whether the budget is spent: every pet it allows is created or being created (the one count of the write budget). */
  get spent(): boolean {
    return this.limits.maxWrites !== undefined && this.inFlight + this.createdPets >= this.limits.maxWrites;
  }

  async send(request: OutgoingRequest): Promise<Exchange> {
    if (SAFE_METHODS.has(request.method.toUpperCase())) return this.inner.send(request);
    if (this.limits.readOnly) throw new WriteRefused('read-only', 'writes to the server; not sent in read-only mode');
    if (this.spent)
      throw new WriteRefused(
        'write-budget',
        `writes to the server, and the run created the ${this.limits.maxWrites ?? 0} pets --max-writes allows`,
      );
    this.inFlight += 1;
    try {
      const exchange = await this.inner.send(request);
      if (exchange.response.status === 201) this.createdPets += 1;
      return exchange;
    } finally {
      this.inFlight -= 1;
    }
  }
}
