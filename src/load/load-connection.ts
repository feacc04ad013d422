/**
 * One keep-alive connection of a load stage, in the manner of autocannon's per-connection client: it opens its socket
 * (TLS, proxy and tunnel by the client's rules), writes one request at a time, reads the answer within bounds, sends a
 * request lost to an idle close once more by the client's retry rule, and tells its stage what happened; the stage counts.
 */
import net from 'node:net';
import tls from 'node:tls';
import { serviceSocketTls } from '../http/connection.js';
import { mayResend } from '../http/connection-retry.js';
import type { FramedRequest } from '../http/framing.js';
import { connectToProxy, endpointOf, openTunnel } from '../http/proxy-tunnel.js';
import { DEFAULT_MAX_HEAD_BYTES, ProtocolError, ResponseParser } from '../http/response-framing.js';
import { CERTIFICATE_CODES } from '../http/sender.js';
import type { ConnectionSettings, ProxyRoute } from '../model/connection.js';
import type { QueryMix } from '../model/load.js';

/**
 * A kept-alive connection that carried nothing for at least this long before a request was written on it was idle: a server
 * may close it (its keep-alive timeout) just as the request goes out, and the request is sent once more on a fresh connection.
 * That race can only follow a quiet gap as long as the server's timeout, and servers wait seconds (Node 5 s, nginx 75 s, load
 * balancers 60 s): 50 ms still covers a very eager one (the tests use 100 ms). A busy connection never gets near it: open
 * throttle writes the next request in the turn the previous answer completed, and a target rate about 1000 / rate ms later
 * (the connection freed last is used first), under 50 ms from 20/s on. Below 20/s every connection idles, and a server that
 * closes connections whatever they do cannot be told from one that closes idle ones.
 */
const IDLE_GAP_MS = 50;
/**
 * When the bytes an event hands over may have reached the socket at the earliest: the event loop reads a socket only between
 * its other work, so an answer read now may have waited there while the loop was busy (a large body parsed, a collection),
 * and the server's idle timer ran from when it sent it, not from when the loop read it. Bytes read in a loop turn arrived
 * after the last time the loop looked (and found nothing), which is at most the loop's busy time since the previous turn
 * that read a socket: measured by the event loop's own idle time, so that a busy machine lengthens the quiet gap a server
 * saw instead of hiding it. One per thread (each worker has its own loop).
 */
export class ArrivalClock {
  private turnOpen = false;
  private earliest: number;
  private lastAt: number;
  private lastIdleMs: number;

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly idleMs: () => number = () => performance.eventLoopUtilization().idle,
  ) {
    this.lastAt = now();
    this.lastIdleMs = idleMs();
    this.earliest = this.lastAt;
  }

  /** The earliest arrival of what the current loop turn reads: the first event of a turn measures it, the others share it. */
  arrivedBy(): number {
    if (this.turnOpen) return this.earliest;
    const at = this.now();
    const idle = this.idleMs();
    const busy = Math.max(0, at - this.lastAt - (idle - this.lastIdleMs));
    this.earliest = at - busy;
    this.lastAt = at;
    this.lastIdleMs = idle;
    this.turnOpen = true;
    setImmediate(() => {
      this.turnOpen = false;
    });
    return this.earliest;
  }
}

/** This thread's arrival clock, shared by its connections (they share its event loop). */
const ARRIVALS = new ArrivalClock();

/** A connection that cannot connect waits before it tries again: 10 ms, doubling, at most 1 s (no busy loop on a dead server). */
const FIRST_BACKOFF_MS = 10;
const MAX_BACKOFF_MS = 1000;

/** One request of the mix, its bytes built once. */
export interface PreparedRequest {
  target: string;
  query: QueryMix;
  bytes: Buffer;
}

/** The bytes of a framed GET on the wire; through a proxy, plain http asks in absolute form with the proxy's credentials. */
export function requestBytes(framed: FramedRequest, proxy: ProxyRoute | undefined): Buffer {
  const forwarded = proxy !== undefined && framed.url.protocol === 'http:';
  const path = `${framed.url.pathname}${framed.url.search}`;
  let head = `${framed.method} ${forwarded ? `${framed.url.origin}${path}` : path} HTTP/1.1\r\nHost: ${framed.url.host}\r\n`;
  for (const [name, value] of Object.entries(framed.headers))
    for (const one of Array.isArray(value) ? value : [value]) head += `${name}: ${one}\r\n`;
  if (forwarded && proxy.authorization !== undefined) head += `proxy-authorization: ${proxy.authorization}\r\n`;
  return Buffer.from(`${head}\r\n`, 'latin1');
}

/** A request on its way: sent, not yet answered. */
export interface InFlight {
  request: PreparedRequest;
  /** When the schedule meant it to be sent (the send time without a target rate): latency counts from here. */
  intended: number;
  sentAt: number;
  bodyBytes: number;
  status: number;
  body: Buffer[] | undefined;
  /** Its answer fell in the sample: judged against the schema and its query. */
  sampled: boolean;
  /** Its answer is judged against the store invariants. */
  judged: boolean;
  retried: boolean;
  /** The request went out on the current socket (a socket that failed to connect, or a rejected certificate, carried nothing). */
  written: boolean;
  /** When it went out (on the connection's clock): no byte of its answer can have arrived before. */
  writtenAt: number;
  /** It went out on a kept-alive connection that had been quiet for IDLE_GAP_MS or more (a server may close such a one under it). */
  afterIdle: boolean;
  /** Some byte of its answer arrived. */
  answerStarted: boolean;
  /** The Retry-After of an answer 429 or 503, as sent: how long the server asked this client to wait. */
  retryAfter: string | undefined;
}

/** Whether an answer is the server pacing its clients (429 Too Many Requests, 503 Service Unavailable): never a verdict. */
export function isRateLimited(status: number): boolean {
  return status === 429 || status === 503;
}

/** The value of header `name` (lower case) in a head's canonical lines, the first when repeated. */
export function headerOf(canonical: string, name: string): string | undefined {
  for (const line of canonical.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === name) return line.slice(colon + 1).trim();
  }
  return undefined;
}

/** Why a request failed. */
export interface FailureCause {
  code: string;
  message: string;
}

/** What a connection tells its stage. */
export interface ConnectionEvents {
  /** Whether the body of an answer just begun (its status read) is kept: the sample, or the listings' judge, wants it. */
  keepsBody(flight: InFlight): boolean;
  /** A body passed the cap: the connection is already closed, the request is answered next. */
  oversize(flight: InFlight): void;
  answered(connection: LoadConnection, flight: InFlight): void;
  /** `reset`: the server dropped a request it had been given, never sent again. */
  failed(connection: LoadConnection, flight: InFlight, cause: FailureCause, reset: boolean): void;
  /** A request lost to an idle close went out once more on a fresh connection. */
  resent(): void;
}

/** Where a connection goes and how: the origin, its route, the TLS and proxy settings, the body cap. */
export interface ConnectionTarget {
  base: URL;
  proxy: ProxyRoute | undefined;
  settings: ConnectionSettings;
  maxBodyBytes: number;
}

/** A socket or TLS failure in words: a certificate that failed verification says so. */
function describeSocketError(error: NodeJS.ErrnoException): FailureCause {
  const code = typeof error.code === 'string' ? error.code : 'ERR_LOAD_SOCKET';
  if (CERTIFICATE_CODES.test(code))
    return { code, message: `TLS certificate rejected (${error.message}); nothing was sent on this connection` };
  return { code, message: error.message };
}

/** One keep-alive connection; its socket is replaced when the server closes it or it fails. */
export class LoadConnection {
  private socket: net.Socket | undefined;
  private ready = false;
  private answeredOnSocket = 0;
  /** When the current socket last completed an answer or became ready: the start of its quiet time. */
  private quietSince = 0;
  private failuresInARow = 0;
  private lastError: FailureCause | undefined;
  private ended = false;
  /** The request on its way, if any. */
  inFlight: InFlight | undefined;

  private readonly now: () => number;
  /** The earliest arrival of the bytes being read now, on the clock of `now`. */
  private readonly arrivedBy: () => number;

  /**
   * `now` reads the clock `send` is given times on (the runner's performance.now()): a test injects its own, so that an idle
   * gap is one it sets and never one a busy machine makes, and `arrivedBy` with it (by default: this thread's ArrivalClock
   * with the runner's clock, `now` itself with an injected one).
   */
  constructor(
    private readonly target: ConnectionTarget,
    private readonly events: ConnectionEvents,
    now?: () => number,
    arrivedBy?: () => number,
  ) {
    this.now = now ?? (() => performance.now());
    this.arrivedBy = arrivedBy ?? (now === undefined ? () => ARRIVALS.arrivedBy() : now);
  }

  /** Writes `request` now when the socket is ready, once connected otherwise. */
  send(request: PreparedRequest, intended: number, now: number): void {
    const flight: InFlight = {
      request,
      intended,
      sentAt: now,
      bodyBytes: 0,
      status: 0,
      body: undefined,
      sampled: false,
      judged: false,
      retried: false,
      written: false,
      writtenAt: now,
      afterIdle: false,
      answerStarted: false,
      retryAfter: undefined,
    };
    this.inFlight = flight;
    if (this.ready && this.socket !== undefined) {
      flight.written = true;
      flight.writtenAt = now;
      flight.afterIdle = this.answeredOnSocket > 0 && now - this.quietSince >= IDLE_GAP_MS;
      this.socket.write(request.bytes);
    } else if (this.socket === undefined) this.connect();
  }

  /** How long to wait before this connection takes another request after `flight` failed: a dead server is not hammered in a busy loop. */
  backoffAfter(flight: InFlight): number {
    const neverAnswered = this.answeredOnSocket === 0 && !flight.answerStarted;
    if (!neverAnswered) return 0;
    this.failuresInARow += 1;
    return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (this.failuresInARow - 1));
  }

  /** Drops the socket; the next request opens a fresh one. */
  detach(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.ready = false;
    socket?.destroy();
  }

  /** Ends the connection for good: nothing it hears afterwards counts. */
  end(): void {
    this.ended = true;
    this.socket?.destroy();
  }

  /** Opens a socket (TLS verified against the run's trust, through the proxy when one applies) and writes the request once connected. */
  private connect(): void {
    const { base, proxy, settings } = this.target;
    const { host, port } = endpointOf(base);
    const secure = base.protocol === 'https:';
    if (proxy === undefined) {
      const tlsOptions = serviceSocketTls(host, settings);
      this.attach(secure ? tls.connect({ host, port, ...tlsOptions }) : net.connect({ host, port }), secure ? 'secureConnect' : 'connect');
      return;
    }
    const toProxy = connectToProxy(proxy, settings);
    if (!secure) {
      this.attach(toProxy.socket, toProxy.connectEvent);
      return;
    }
    const raw = toProxy.socket;
    this.adopt(raw);
    const authority = `${base.hostname}:${port}`;
    openTunnel(
      raw,
      toProxy.connectEvent,
      proxy,
      authority,
      () => {
        if (this.socket === raw && !this.ended)
          this.attach(tls.connect({ socket: raw, host, ...serviceSocketTls(host, settings) }), 'secureConnect');
      },
      (message) => {
        this.lastError = { code: 'ERR_LOAD_PROXY', message };
        raw.destroy();
      },
    );
  }

  /** Makes `socket` the connection's socket: failures are remembered, a close while it is current is handled. */
  private adopt(socket: net.Socket): void {
    socket.setNoDelay(true);
    this.socket = socket;
    this.ready = false;
    this.answeredOnSocket = 0;
    this.lastError = undefined;
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.lastError ??= describeSocketError(error);
    });
    socket.on('close', () => {
      if (this.socket === socket && !this.ended) this.closed();
    });
  }

  /** Reads answers on `socket`, which carries requests once `readyEvent` fired. */
  private attach(socket: net.Socket, readyEvent: 'connect' | 'secureConnect'): void {
    this.adopt(socket);
    const live = (): boolean => this.socket === socket && !this.ended;
    const parser = new ResponseParser(
      {
        onHead: ({ status, canonical }) => {
          if (!live()) return;
          const flight = this.inFlight;
          if (flight === undefined) throw new ProtocolError('an answer no request asked for');
          flight.status = status;
          if (isRateLimited(status)) flight.retryAfter = headerOf(canonical, 'retry-after');
          flight.answerStarted = true;
          if (this.events.keepsBody(flight)) flight.body = [];
        },
        onBody: (bytes) => {
          const flight = this.inFlight;
          if (!live() || flight === undefined) return;
          flight.answerStarted = true;
          flight.bodyBytes += bytes.length;
          if (flight.bodyBytes > this.target.maxBodyBytes) {
            this.events.oversize(flight);
            flight.body = undefined;
            this.detach();
            this.answer(flight);
            return;
          }
          flight.body?.push(bytes);
        },
        onComplete: (close) => {
          const flight = this.inFlight;
          if (!live() || flight === undefined) return;
          if (close) this.detach();
          this.answer(flight);
        },
      },
      'GET',
      this.target.settings.maxHeaderBytes ?? DEFAULT_MAX_HEAD_BYTES,
    );
    socket.once(readyEvent, () => {
      if (!live()) return;
      this.ready = true;
      this.quietSince = this.now();
      const flight = this.inFlight;
      if (flight === undefined) return;
      flight.written = true;
      flight.writtenAt = this.now();
      socket.write(flight.request.bytes);
    });
    socket.on('data', (chunk: Buffer) => {
      if (!live()) return;
      this.read(() => parser.feed(chunk));
      // The first bytes of a head, held until the rest arrives, are part of the answer too.
      if (live() && !parser.idle && this.inFlight !== undefined) this.inFlight.answerStarted = true;
    });
    socket.on('end', () => {
      if (!live()) return;
      // Closed in the middle of an answer: the server dropped the request (a reset), the framing was not wrong.
      if (parser.cutShort)
        this.lastError ??= { code: 'ERR_LOAD_CLOSED', message: 'the server closed the connection in the middle of a response' };
      // A close-delimited answer is complete.
      else this.read(() => parser.end());
      // Nothing more can come on this socket: a request on it is judged now, and the next goes out on a fresh connection
      // instead of being written to one the server has already closed (which would be a reset it did not cause).
      if (live()) this.closed();
    });
  }

  private answer(flight: InFlight): void {
    this.inFlight = undefined;
    this.answeredOnSocket += 1;
    // The server's quiet began when it sent the answer, which may have waited in the socket while the loop was busy (but
    // not from before its request went out).
    this.quietSince = Math.max(flight.writtenAt, Math.min(this.now(), this.arrivedBy()));
    this.failuresInARow = 0;
    this.events.answered(this, flight);
  }

  private fail(flight: InFlight, cause: FailureCause, reset: boolean): void {
    this.inFlight = undefined;
    this.events.failed(this, flight, cause, reset);
  }

  /** Runs the parser on what arrived; a response that breaks HTTP framing fails its request and the connection. */
  private read(step: () => void): void {
    try {
      step();
    } catch (error) {
      // The same words as the functional client's for the same bytes (capture.ts).
      const cause =
        error instanceof ProtocolError && error.code === 'ERR_HEAD_TOO_LARGE'
          ? { code: error.code, message: error.message }
          : { code: 'ERR_HTTP_PROTOCOL', message: `an invalid HTTP response: ${(error as Error).message}` };
      this.lastError = cause;
      const flight = this.inFlight;
      this.detach();
      if (flight !== undefined) this.fail(flight, cause, false);
    }
  }

  /**
   * The socket went away under the connection (a clean close, ECONNRESET or EPIPE alike). Before its request went out, it is
   * a failure to connect (refused, TLS, proxy), as ever. After: on a kept-alive connection that had been idle and before any
   * byte of the answer, it is the race of a server closing an idle connection, and the request is sent once more on a fresh
   * one by the client's retry rule (a connection retry, not an error); otherwise, on a busy connection, a fresh one or in the
   * middle of an answer, the server dropped a request it had been given: a reset (an error of its own kind), never sent again.
   */
  private closed(): void {
    const cause = this.lastError ?? { code: 'ERR_LOAD_CLOSED', message: 'the server closed the connection without answering' };
    const flight = this.inFlight;
    this.detach();
    if (flight === undefined) return;
    if (!flight.written || CERTIFICATE_CODES.test(cause.code)) {
      this.fail(flight, cause, false);
      return;
    }
    if (flight.afterIdle && mayResend('GET', !flight.answerStarted, flight.retried)) {
      flight.retried = true;
      flight.written = false;
      flight.afterIdle = false;
      this.events.resent();
      this.connect();
      return;
    }
    this.fail(flight, cause, true);
  }
}
