/**
 * A kept-alive connection may be closed by the server (its idle timeout) just as a request goes out on it: an idempotent
 * request that got no response byte is sent once more, on a fresh connection. The load runner follows the same rule.
 */
import type { Exchange } from '../model/exchange.js';
import { type OutgoingRequest, type Sender, TransportError } from './sender.js';

/** Codes of a connection that closed under a request: on a kept-alive connection, the server may have closed it as idle. */
const CLOSED_CONNECTION_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Whether a request whose connection closed under it may be sent once more: idempotent, no response byte yet, not sent again already. */
export function mayResend(method: string, closedBeforeResponse: boolean, alreadyResent: boolean): boolean {
  return closedBeforeResponse && !alreadyResent && IDEMPOTENT_METHODS.has(method);
}

/** Why a request was sent a second time, as the exchange's evidence says. */
function resentBecause(code: string, message: string): string {
  return `the connection closed before any response byte (${code}: ${message}); sent once more on a fresh connection`;
}

/**
 * Sends once more on a fresh connection what a closed kept-alive connection lost before any response byte, and sends what
 * may not be sent twice on a fresh connection from the start.
 */
export class ConnectionRetry implements Sender {
  private resent = 0;

  constructor(private readonly inner: Sender) {}

  /** Requests sent again so far. */
  get count(): number {
    return this.resent;
  }

  async send(request: OutgoingRequest): Promise<Exchange> {
    // A request that may not be sent twice goes on a connection of its own: a kept-alive one may be closed under it (a
    // proxy's per-connection cap closes it after a response, without Connection: close), and then it is lost for good.
    if (!IDEMPOTENT_METHODS.has(request.method)) return this.inner.send({ ...request, freshConnection: true });
    try {
      return await this.inner.send(request);
    } catch (error) {
      if (!(error instanceof TransportError) || !CLOSED_CONNECTION_CODES.has(error.code)) throw error;
      if (!mayResend(request.method, error.beforeResponse, false)) throw error;
      this.resent += 1;
      const exchange = await this.inner.send({ ...request, freshConnection: true }).catch((again: unknown) => {
        throw again instanceof TransportError && CLOSED_CONNECTION_CODES.has(again.code) ? again.closedAgain() : again;
      });
      exchange.connectionRetry = resentBecause(error.code, error.message);
      return exchange;
    }
  }
}
