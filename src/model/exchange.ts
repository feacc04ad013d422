/** One request/response exchange: what every check function judges. */
import type { JsonValue } from './json.js';
import type { AuthVariant, OperationName } from './contract-names.js';

/** A request as the engine sent it: `headers` name the credential instead of holding it; the body is as sent. */
export interface SentRequest {
  method: string;
  url: string;
  /** Path relative to the base URL, with the query, as the scenario named it. */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** The body's bytes in hex, when they were sent as bytes (not all UTF-8): `body` then shows them as text. */
  bodyHex?: string;
  /** The parsed JSON body sent, when the request had one. */
  json?: JsonValue;
  auth: AuthVariant;
  operation: OperationName;
}

/** A response as received: headers lower-cased, body bounded, JSON parsed exactly when it parses. */
export interface ReceivedResponse {
  status: number;
  headers: Record<string, string>;
  /** The body's bytes as the server sent them (up to the size cap), its content coding undone: what byte-level checks judge. */
  raw: Buffer;
  /** The body decoded as UTF-8 (U+FFFD where it is not). */
  bodyText: string;
  /** Bytes read off the wire (before a content coding is undone). */
  bytes: number;
  /** True when the body was cut at the response size cap (decoded, for a body the server sent compressed). */
  truncated: boolean;
  /** The content coding the body was decoded from (`gzip`), when the server sent one: `raw` and `bodyText` are decoded. */
  coding?: string;
  /** The body parsed as JSON (bigint for integers beyond 2^53); absent when empty or not JSON. */
  json?: JsonValue;
  /** Why the body did not parse as JSON, when it was not empty. */
  jsonError?: string;
  /** The byte offset of the first byte that is not UTF-8, when the body has one (the text holds U+FFFD there). */
  invalidUtf8At?: number;
}

/** A complete exchange. */
export interface Exchange {
  request: SentRequest;
  response: ReceivedResponse;
  durationMs: number;
  /** Why the request was sent a second time on a fresh connection, when it was (a kept-alive connection closed under it). */
  connectionRetry?: string;
  /** Responses that asked the suite to wait (429, or 503 with Retry-After) before this one, and the time waited. */
  throttled?: { responses: number; waitedMs: number };
}

/**
 * One wait the server asked for (429, or 503 with Retry-After): what asked, for how long, and how much of the run's wait
 * budget is spent.
 */
export interface ServerWait {
  /** When the wait began. */
  at: string;
  method: string;
  /** The target relative to the base URL, query included. */
  target: string;
  status: number;
  /** The Retry-After the server sent, as sent; absent when it sent none. */
  retryAfter?: string;
  /** How long from `at` nothing is sent: what the server asked, or the backoff when that is longer. */
  waitMs: number;
  /** What the server asked for (its Retry-After), when it named a wait; less than waitMs when a backoff was longer. */
  askedMs?: number;
  /** How many times in a row this request was throttled, this time included (the backoff doubles with each). */
  inARow?: number;
  /** What this wait added to the time the run waited (less than waitMs when it began during another). */
  addedMs: number;
  /** The waiting the run has done, this wait included; concurrent requests throttled together share one wait. */
  spentMs: number;
  /** All the waiting the run may do (--wait-budget). */
  budgetMs: number;
}
