/** The interface every layer of the client implements, the request it takes, and the one error of a failed exchange. */
import type { Exchange, SentRequest } from '../model/exchange.js';
import type { JsonValue } from '../model/json.js';
import type { AuthVariant, KeyElsewhere, OperationName } from '../model/contract-names.js';

/** A request to send, relative to the base URL. */
export interface OutgoingRequest {
  method: string;
  /** Path relative to the base URL, e.g. /pets/42 (already filled, already encoded). */
  path: string;
  /**
   * The path goes exactly as spelled: its dot segments and empty segments are not resolved (RFC 3986 §5.2.4), as a URL
   * would resolve them; a request that tests how the server reads a path's structure.
   */
  rawPath?: boolean;
  query: Array<[string, string]>;
  /** The query string exactly as sent (already percent-encoded, repeated names and all): it wins over `query`. */
  rawQuery?: string;
  headers: Record<string, string>;
  body?: string;
  /** A body of bytes sent as is, which need not be UTF-8 (a malformed request); it wins over `body`. */
  bytes?: Buffer;
  json?: JsonValue;
  auth: AuthVariant;
  /** The API key also sent in a place the contract takes no credential from (reports name the place, never the key). */
  keyElsewhere?: KeyElsewhere;
  /** Default headers (`accept`) left out of the request. */
  omitHeaders?: readonly string[];
  /** The body sent with chunked transfer coding, without a Content-Length. */
  chunked?: boolean;
  operation: OperationName;
  /** Counts every exchange this request begins (retried and throttled ones included): a phase's own count while others send too. */
  tally?: RequestTally;
  /** Sent on a connection of its own, never a kept-alive one (the connection retry asks for it). */
  freshConnection?: boolean;
  /** Aborts the exchange: its deadline, or the client's stop (the deadline layer sets it). */
  signal?: AbortSignal;
  /**
   * A question whose answer is quick or none (the stop breaker's plain listing: is the server there?): it gets the short
   * deadline of a kind that went unanswered, whatever its kind did.
   */
  brief?: boolean;
  /** Counts the response body's bytes as they arrive, for the deadline that gives way to a body arriving at a useful pace. */
  progress?: BodyProgress;
  /** Where the exchange belongs, in words (`case lifecycle.create`): what the store model names it by. */
  label?: string;
  /** Who sent it (a phase of the run, by id): what the observers that keep what each one did (the pets it created) file it under. */
  sentBy?: string;
}

/** The bytes of a response body read so far: the capture counts them, the deadline reads the pace from them. */
export interface BodyProgress {
  bytes: number;
}

/** What a phase's requests cost at the wire, counted where the client counts its own. */
export interface RequestTally {
  sent: number;
}

/** What the engine sends requests through: the client, or a layer over it. */
export interface Sender {
  send(request: OutgoingRequest): Promise<Exchange>;
}

/** A layer of the client: it does one job around the sender under it (undici's interceptor, over a Sender). */
export type Layer = (next: Sender) => Sender;

/**
 * The transport with its layers around it, the first listed innermost (as undici's `compose` applies interceptors):
 * `compose(capture, deadline, retry)` sends through the retry, then the deadline, then the capture.
 */
export function compose(transport: Sender, ...layers: readonly Layer[]): Sender {
  return layers.reduce<Sender>((inner, layer) => layer(inner), transport);
}

/** Error codes of a TLS certificate that failed verification. */
export const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME|UNABLE_TO_GET_ISSUER/;

/** Whether a connection failed on TLS (a handshake OpenSSL refused, or a certificate that failed verification): something listens. */
export function isTlsFailure(code: string): boolean {
  return code.startsWith('ERR_SSL_') || CERTIFICATE_CODES.test(code);
}

/** How a failed exchange went: whether it hit a deadline, what else was answered meanwhile, whether any response came, where it failed. */
export interface FailureTiming {
  /** The request waited out a deadline (connect excluded). */
  timedOut: boolean;
  answeredMeanwhile: number;
  /** It failed before a response (status and headers) was read (only then may an idempotent request be sent again). */
  beforeResponse?: boolean;
  /** Sent once more on a fresh connection, it was closed there too: the server, not an idle connection, refused it. */
  closedTwice?: boolean;
  /** The server answered, and its answer cannot be read: it breaks HTTP/1.1, or its head is over --max-header-bytes. */
  unreadable?: boolean;
  /**
   * The proxy the request went through (its URL, no credentials, and its variable), when the failure was met there or on
   * the way through it.
   */
  via?: string;
}

/**
 * A request the client did not send, and why: `http10` is a chunked body to a server that answered in HTTP/1.0, which
 * need not read one (RFC 9112 §6.1). What depended on it is not judged.
 */
export class NotSent extends Error {
  readonly reason: 'http10';

  constructor(reason: 'http10', message: string) {
    super(message);
    this.name = 'NotSent';
    this.reason = reason;
  }
}

/** A failure to exchange at all: no response to judge. `code` is stable (undici's, Node's or the response reader's). */
export class TransportError extends Error {
  readonly code: string;
  readonly sent: SentRequest;
  /** The request waited out a deadline (connect excluded): the server took it and did not answer. */
  readonly timedOut: boolean;
  /** How many other requests the server answered while this one waited. */
  readonly answeredMeanwhile: number;
  /** No response (status and headers) had been read when it failed. */
  readonly beforeResponse: boolean;
  /** Sent once more on a fresh connection, it was closed there too. */
  readonly closedTwice: boolean;
  /** The server answered, and the answer cannot be read: never a server that stopped answering. */
  readonly unreadable: boolean;
  /** The proxy the request went through, when the failure was met there or on the way through it. */
  readonly via: string | undefined;

  constructor(code: string, message: string, sent: SentRequest, timing: FailureTiming = { timedOut: false, answeredMeanwhile: 0 }) {
    super(message);
    this.name = 'TransportError';
    this.code = code;
    this.sent = sent;
    this.timedOut = timing.timedOut;
    this.answeredMeanwhile = timing.answeredMeanwhile;
    this.beforeResponse = timing.beforeResponse ?? false;
    this.closedTwice = timing.closedTwice ?? false;
    this.unreadable = timing.unreadable ?? false;
    this.via = timing.via;
  }

  /** How this failure went, for a copy that changes part of it. */
  private get timing(): FailureTiming {
    return {
      timedOut: this.timedOut,
      answeredMeanwhile: this.answeredMeanwhile,
      beforeResponse: this.beforeResponse,
      closedTwice: this.closedTwice,
      unreadable: this.unreadable,
      ...(this.via === undefined ? {} : { via: this.via }),
    };
  }

  /** The same failure, with how many requests the server answered while it waited. */
  withAnsweredMeanwhile(answeredMeanwhile: number): TransportError {
    return new TransportError(this.code, this.message, this.sent, { ...this.timing, answeredMeanwhile });
  }

  /** The same failure, told in other words (a deadline that was shorter, and why). */
  withMessage(message: string): TransportError {
    return new TransportError(this.code, message, this.sent, this.timing);
  }

  /** The same failure, closed on a fresh connection too. */
  closedAgain(): TransportError {
    return new TransportError(this.code, this.message, this.sent, { ...this.timing, closedTwice: true });
  }
}
