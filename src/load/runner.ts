/**
 * Runs one bounded stage of listPets load on its own keep-alive connections: every TLS connection verified, every body
 * read within a cap, latency in µs, and every request sent accounted for when the stage stops.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { Histogram } from 'hdr-histogram-js';
import { CERTIFICATE_CODES } from '../http/client.js';
import { routeTo, runRedactor, sentHeaders, serviceTls } from '../http/connection.js';
import { trustedCertificates } from '../http/trust.js';
import type { ConnectionSettings, ProxyRoute } from '../model/connection.js';
import { RAW_LOAD_FORMAT, type ErrorCause, type LoadListener, type QueryMix, type RawLoadRun } from '../model/load.js';
import { encodeHistogram, latencyHistogram, recordMs } from './latency-histogram.js';
import { ResponseParser } from './response-parser.js';
import type { ResponseSampler } from './sampler.js';

/** What one stage sends, how long and how much at most, and how it reaches the service (trust, client certificate, proxy, headers). */
export interface StageOptions extends ConnectionSettings {
  baseUrl: string;
  apiKey: string;
  profileName: string;
  queries: readonly QueryMix[];
  connections: number;
  /** Target requests per second; absent: as fast as the service answers. */
  rate?: number;
  /** Shifts a rated schedule by this fraction of its interval (0..1), so that the schedules of several workers interleave. */
  scheduleOffset?: number;
  durationSeconds: number;
  maxRequests: number;
  timeoutSeconds: number;
  /** A body longer than this is not read further: counted as a violation, its connection closed. */
  maxBodyBytes: number;
  /** Judges a sample of responses; absent: nothing is parsed (warm-up, or sampling off). */
  sampler?: ResponseSampler;
  listener?: LoadListener;
  signal?: AbortSignal;
}

/** How often timeouts are looked for, in ms. */
const SWEEP_MS = 50;
/** How often progress is reported, in ms. */
const PROGRESS_MS = 1000;
/** A connection that cannot connect waits before it tries again: 10 ms, doubling, at most 1 s (no busy loop on a dead server). */
const FIRST_BACKOFF_MS = 10;
const MAX_BACKOFF_MS = 1000;
/** Requests due this recently at the stop are not counted as behind schedule. */
const SCHEDULE_SLACK_MS = 5;
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
/** A last second shorter than this is folded into the one before (a stage of 5.0004 s has 5 points, not a sixth at 0/s). */
const MIN_PARTIAL_SECOND = 0.05;
/** Distinct causes of failure kept for the report; the rest are counted under one line. */
const MAX_CAUSES = 20;

/** The query string of one mix entry, e.g. `?limit=5&status=sold`. */
export function queryString(query: QueryMix): string {
  const search = new URLSearchParams();
  if (query.limit !== undefined) search.set('limit', String(query.limit));
  if (query.status !== undefined) search.set('status', query.status);
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The mix expanded to a sequence in which each query appears `weight` times, spread out (smooth weighted round robin). */
export function weightedSequence<T extends { weight: number }>(items: readonly T[]): T[] {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  const current = items.map(() => 0);
  const sequence: T[] = [];
  for (let n = 0; n < total; n++) {
    let best = 0;
    items.forEach((item, i) => {
      current[i] = (current[i] as number) + item.weight;
      if ((current[i] as number) > (current[best] as number)) best = i;
    });
    current[best] = (current[best] as number) - total;
    sequence.push(items[best] as T);
  }
  return sequence;
}

/** One request of the mix, its bytes built once. */
interface PreparedRequest {
  target: string;
  query: QueryMix;
  bytes: Buffer;
}

/** A request on its way: sent, not yet answered. */
interface InFlight {
  request: PreparedRequest;
  /** When the schedule meant it to be sent (the send time without a target rate): latency counts from here. */
  intended: number;
  sentAt: number;
  bodyBytes: number;
  status: number;
  body: Buffer[] | undefined;
  retried: boolean;
  /** The request went out on the current socket (a socket that failed to connect, or a rejected certificate, carried nothing). */
  written: boolean;
  /** It went out on a kept-alive connection that had been quiet for IDLE_GAP_MS or more (a server may close such a one under it). */
  afterIdle: boolean;
  /** Some byte of its answer arrived. */
  answerStarted: boolean;
}

/** One keep-alive connection; its socket is replaced when the server closes it or it fails. */
interface Connection {
  socket: net.Socket | undefined;
  ready: boolean;
  inFlight: InFlight | undefined;
  answeredOnSocket: number;
  /** When the current socket last completed an answer or became ready: the start of its quiet time. */
  quietSince: number;
  failuresInARow: number;
  lastError: { code: string; message: string } | undefined;
}

/** The bytes of a GET request on the base URL's origin; the key goes in the Authorization header only. Through a proxy, plain http asks in absolute form. */
function prepare(base: URL, query: QueryMix, apiKey: string, settings: ConnectionSettings, proxy: ProxyRoute | undefined): PreparedRequest {
  const target = `/pets${queryString(query)}`;
  const path = `${base.pathname.replace(/\/$/, '')}${target}`;
  const forwarded = proxy !== undefined && base.protocol === 'http:';
  const extra = Object.entries({ accept: 'application/json', ...sentHeaders(settings) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const proxyAuthorization = forwarded && proxy.authorization !== undefined ? `Proxy-Authorization: ${proxy.authorization}\r\n` : '';
  const head = `GET ${forwarded ? `${base.origin}${path}` : path} HTTP/1.1\r\nHost: ${base.host}\r\n${extra}${proxyAuthorization}Authorization: Bearer ${apiKey}\r\n\r\n`;
  return { target, query, bytes: Buffer.from(head, 'latin1') };
}

/** The longest answer a proxy may give to CONNECT before the tunnel opens. */
const MAX_TUNNEL_HEAD = 16 * 1024;

/** A socket or TLS failure in words: a certificate that failed verification says so. */
function describeSocketError(error: NodeJS.ErrnoException): { code: string; message: string } {
  const code = typeof error.code === 'string' ? error.code : 'ERR_LOAD_SOCKET';
  if (CERTIFICATE_CODES.test(code))
    return { code, message: `TLS certificate rejected (${error.message}); nothing was sent on this connection` };
  return { code, message: error.message };
}

/** One stage of load: schedules requests onto the connections, reads every answer within bounds, counts everything. */
class Stage {
  private readonly options: StageOptions;
  private readonly base: URL;
  private readonly sequence: PreparedRequest[];
  private readonly connections: Connection[] = [];
  private readonly idle: Connection[] = [];
  private readonly histogram: Histogram = latencyHistogram();
  private readonly redact: (text: string) => string;
  private readonly proxy: ProxyRoute | undefined;
  private readonly interval: number | undefined;
  private readonly offset: number;
  private readonly causes = new Map<string, number>();
  private readonly perSecond: number[] = [];
  private started = 0;
  private endsAt = 0;
  private dispatched = 0;
  private responses = 0;
  private errors = 0;
  private timeouts = 0;
  private resets = 0;
  private non2xx = 0;
  private retries = 0;
  private maxMicros = 0;
  private readonly statusCodes: Record<string, number> = {};
  private stopped = false;
  private interrupted = false;
  private scheduleTimer: NodeJS.Timeout | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private progress = { at: 0, responses: 0 };
  private finish: (run: RawLoadRun) => void = () => undefined;
  private readonly abort = (): void => this.stop(true);

  constructor(options: StageOptions) {
    this.options = options;
    this.base = new URL(options.baseUrl);
    this.redact = runRedactor(options.apiKey, options);
    this.proxy = routeTo(this.base, options);
    this.sequence = weightedSequence(options.queries).map((q) => prepare(this.base, q, options.apiKey, options, this.proxy));
    this.interval = options.rate === undefined ? undefined : 1000 / options.rate;
    this.offset = options.scheduleOffset ?? 0;
    const count = Math.max(1, Math.min(options.connections, options.maxRequests));
    for (let i = 0; i < count; i++) {
      const connection: Connection = {
        socket: undefined,
        ready: false,
        inFlight: undefined,
        answeredOnSocket: 0,
        quietSince: 0,
        failuresInARow: 0,
        lastError: undefined,
      };
      this.connections.push(connection);
      this.idle.push(connection);
    }
  }

  run(): Promise<RawLoadRun> {
    return new Promise((resolve) => {
      this.finish = resolve;
      this.started = performance.now();
      this.endsAt = this.started + this.options.durationSeconds * 1000;
      this.progress.at = this.started;
      this.timers.add(setTimeout(() => this.stop(), this.options.durationSeconds * 1000));
      this.timers.add(setInterval(() => this.sweep(), SWEEP_MS));
      const signal = this.options.signal;
      if (signal?.aborted === true) return this.stop(true);
      signal?.addEventListener('abort', this.abort, { once: true });
      this.dispatch();
    });
  }

  /** When request `n` of the schedule is due (a target rate spaces them evenly from the start). */
  private dueAt(n: number): number {
    return this.started + (n + this.offset) * (this.interval ?? 0);
  }

  /** Hands due requests to idle connections; with a target rate, wakes up when the next one is due. */
  private dispatch(): void {
    if (this.stopped) return;
    const now = performance.now();
    while (this.idle.length > 0 && this.dispatched < this.options.maxRequests) {
      const intended = this.interval === undefined ? now : this.dueAt(this.dispatched);
      if (intended > now || intended >= this.endsAt) break;
      this.send(this.idle.pop() as Connection, this.sequence[this.dispatched % this.sequence.length] as PreparedRequest, intended, now);
      this.dispatched += 1;
    }
    if (this.dispatched >= this.options.maxRequests) {
      if (this.connections.every((c) => c.inFlight === undefined)) this.stop();
      return;
    }
    if (this.interval !== undefined && this.scheduleTimer === undefined && this.idle.length > 0) {
      const next = this.dueAt(this.dispatched);
      if (next < this.endsAt) {
        this.scheduleTimer = setTimeout(
          () => {
            this.scheduleTimer = undefined;
            this.dispatch();
          },
          Math.max(0, next - performance.now()),
        );
      }
    }
  }

  private send(connection: Connection, request: PreparedRequest, intended: number, now: number): void {
    const flight: InFlight = {
      request,
      intended,
      sentAt: now,
      bodyBytes: 0,
      status: 0,
      body: undefined,
      retried: false,
      written: false,
      afterIdle: false,
      answerStarted: false,
    };
    connection.inFlight = flight;
    if (connection.ready && connection.socket !== undefined) {
      flight.written = true;
      flight.afterIdle = connection.answeredOnSocket > 0 && now - connection.quietSince >= IDLE_GAP_MS;
      connection.socket.write(request.bytes);
    } else if (connection.socket === undefined) this.connect(connection);
  }

  /** Opens a socket for the connection (TLS verified against the run's trust, through the proxy when one applies) and writes its request once connected. */
  private connect(connection: Connection): void {
    const port = Number(this.base.port || (this.base.protocol === 'https:' ? 443 : 80));
    const host = this.base.hostname.replace(/^\[|\]$/g, '');
    const secure = this.base.protocol === 'https:';
    // rejectUnauthorized is explicit: a connection whose certificate fails verification never carries the key.
    const tlsOptions = {
      ...(net.isIP(host) === 0 ? { servername: host } : {}),
      ...serviceTls(this.options),
      rejectUnauthorized: true,
      ALPNProtocols: ['http/1.1'],
    };
    if (this.proxy === undefined) {
      this.attach(
        connection,
        secure ? tls.connect({ host, port, ...tlsOptions }) : net.connect({ host, port }),
        secure ? 'secureConnect' : 'connect',
      );
    } else if (!secure) {
      this.attach(connection, this.connectToProxy(this.proxy), 'connect');
    } else {
      this.tunnel(connection, this.proxy, `${this.base.hostname}:${port}`, (socket) => tls.connect({ socket, host, ...tlsOptions }));
    }
  }

  /** A socket to the proxy (TLS verified when the proxy is https). */
  private connectToProxy(proxy: ProxyRoute): net.Socket {
    const url = new URL(proxy.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (url.protocol !== 'https:') return net.connect({ host, port });
    const ca = trustedCertificates(this.options.ca);
    return tls.connect({
      host,
      port,
      ...(net.isIP(host) === 0 ? { servername: host } : {}),
      ...(ca === undefined ? {} : { ca }),
      rejectUnauthorized: true,
    });
  }

  /** Opens a CONNECT tunnel through the proxy, then TLS to the service inside it, verified against the service's certificate. */
  private tunnel(connection: Connection, proxy: ProxyRoute, authority: string, secure: (socket: net.Socket) => tls.TLSSocket): void {
    const raw = this.connectToProxy(proxy);
    this.adopt(connection, raw);
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0 && head.length <= MAX_TUNNEL_HEAD) return;
      raw.off('data', onData);
      const status = /^HTTP\/1\.[01] (\d{3})([^\r]*)/.exec(head);
      if (end < 0 || status?.[1] !== '200') {
        connection.lastError = {
          code: 'ERR_LOAD_PROXY',
          message: `the proxy ${proxy.url} did not open a tunnel to ${authority} (${status === null ? 'no HTTP answer' : `${status[1] ?? ''}${status[2] ?? ''}`})`,
        };
        raw.destroy();
        return;
      }
      if (connection.socket === raw && !this.stopped) this.attach(connection, secure(raw), 'secureConnect');
    };
    raw.on('data', onData);
    raw.once(proxy.url.startsWith('https:') ? 'secureConnect' : 'connect', () => {
      const authorization = proxy.authorization === undefined ? '' : `Proxy-Authorization: ${proxy.authorization}\r\n`;
      raw.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${authorization}\r\n`);
    });
  }

  /** Makes `socket` the connection's socket: failures are remembered, a close while it is current is handled. */
  private adopt(connection: Connection, socket: net.Socket): void {
    socket.setNoDelay(true);
    connection.socket = socket;
    connection.ready = false;
    connection.answeredOnSocket = 0;
    connection.lastError = undefined;
    socket.on('error', (error: NodeJS.ErrnoException) => {
      connection.lastError ??= describeSocketError(error);
    });
    socket.on('close', () => {
      if (connection.socket === socket && !this.stopped) this.closed(connection);
    });
  }

  /** Reads answers on `socket`, which carries requests once `readyEvent` fired. */
  private attach(connection: Connection, socket: net.Socket, readyEvent: 'connect' | 'secureConnect'): void {
    this.adopt(connection, socket);
    const live = (): boolean => connection.socket === socket && !this.stopped;
    const parser = new ResponseParser({
      onHead: (status) => {
        if (!live()) return;
        const flight = connection.inFlight;
        if (flight === undefined) throw new Error('an answer no request asked for');
        flight.status = status;
        flight.answerStarted = true;
        if (this.options.sampler?.wants() === true) flight.body = [];
      },
      onBody: (bytes) => {
        const flight = connection.inFlight;
        if (!live() || flight === undefined) return;
        flight.answerStarted = true;
        flight.bodyBytes += bytes.length;
        if (flight.bodyBytes > this.options.maxBodyBytes) {
          this.options.sampler?.oversize(flight.request.target, flight.status, this.options.maxBodyBytes);
          this.detach(connection);
          this.answered(connection, flight);
          return;
        }
        flight.body?.push(bytes);
      },
      onComplete: (close) => {
        const flight = connection.inFlight;
        if (!live() || flight === undefined) return;
        if (close) this.detach(connection);
        const body = flight.body;
        this.answered(connection, flight);
        if (body !== undefined)
          this.options.sampler?.judge(flight.request.target, flight.request.query, flight.status, Buffer.concat(body));
      },
    });
    socket.once(readyEvent, () => {
      if (!live()) return;
      connection.ready = true;
      connection.quietSince = performance.now();
      const flight = connection.inFlight;
      if (flight === undefined) return;
      flight.written = true;
      socket.write(flight.request.bytes);
    });
    socket.on('data', (chunk: Buffer) => {
      if (!live()) return;
      this.read(connection, () => parser.feed(chunk));
      // The first bytes of a head, held until the rest arrives, are part of the answer too.
      if (live() && !parser.idle && connection.inFlight !== undefined) connection.inFlight.answerStarted = true;
    });
    socket.on('end', () => {
      if (!live()) return;
      // Closed in the middle of an answer: the server dropped the request (a reset), the framing was not wrong.
      if (parser.cutShort)
        connection.lastError ??= { code: 'ERR_LOAD_CLOSED', message: 'the server closed the connection in the middle of a response' };
      // A close-delimited answer is complete.
      else this.read(connection, () => parser.end());
      // Nothing more can come on this socket: a request on it is judged now, and the next goes out on a fresh connection
      // instead of being written to one the server has already closed (which would be a reset it did not cause).
      if (live()) this.closed(connection);
    });
  }

  /** Runs the parser on what arrived; a response that breaks HTTP framing fails its request and the connection. */
  private read(connection: Connection, step: () => void): void {
    try {
      step();
    } catch (error) {
      connection.lastError = { code: 'ERR_LOAD_PROTOCOL', message: `an invalid HTTP response: ${(error as Error).message}` };
      const flight = connection.inFlight;
      this.detach(connection);
      if (flight !== undefined) this.failed(connection, flight, connection.lastError);
    }
  }

  /**
   * The socket went away under the connection (a clean close, ECONNRESET or EPIPE alike). Before its request went out, it is
   * a failure to connect (refused, TLS, proxy), as ever. After: on a kept-alive connection that had been idle and before any
   * byte of the answer, it is the race of a server closing an idle connection, and the request is sent once more on a fresh
   * one, as `run` does (a connection retry, not an error); otherwise, on a busy connection, a fresh one or in the middle of an
   * answer, the server dropped a request it had been given: a reset (an error of its own kind), never sent again.
   */
  private closed(connection: Connection): void {
    const cause = connection.lastError ?? { code: 'ERR_LOAD_CLOSED', message: 'the server closed the connection without answering' };
    const flight = connection.inFlight;
    this.detach(connection);
    if (flight === undefined) return;
    if (!flight.written || CERTIFICATE_CODES.test(cause.code)) return this.failed(connection, flight, cause);
    if (flight.afterIdle && !flight.answerStarted && !flight.retried) {
      flight.retried = true;
      flight.written = false;
      flight.afterIdle = false;
      this.retries += 1;
      this.connect(connection);
      return;
    }
    this.resets += 1;
    this.failed(connection, flight, cause);
  }

  /** Drops the connection's socket; the next request on it opens a fresh one. */
  private detach(connection: Connection): void {
    const socket = connection.socket;
    connection.socket = undefined;
    connection.ready = false;
    socket?.destroy();
  }

  private answered(connection: Connection, flight: InFlight): void {
    const now = performance.now();
    connection.inFlight = undefined;
    connection.answeredOnSocket += 1;
    connection.quietSince = now;
    connection.failuresInARow = 0;
    this.record(now - flight.intended);
    this.responses += 1;
    const second = Math.floor((now - this.started) / 1000);
    this.perSecond[second] = (this.perSecond[second] ?? 0) + 1;
    const code = String(flight.status);
    this.statusCodes[code] = (this.statusCodes[code] ?? 0) + 1;
    if (flight.status < 200 || flight.status > 299) this.non2xx += 1;
    this.idle.push(connection);
    this.dispatch();
  }

  private failed(connection: Connection, flight: InFlight, cause: { code: string; message: string }): void {
    connection.inFlight = undefined;
    this.errors += 1;
    this.noteCause(cause);
    // A connection that never got an answer waits before trying again, so a dead server is not hammered in a busy loop.
    const neverAnswered = connection.answeredOnSocket === 0 && !flight.answerStarted;
    if (neverAnswered) connection.failuresInARow += 1;
    const wait = neverAnswered ? Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (connection.failuresInARow - 1)) : 0;
    if (wait === 0) {
      this.idle.push(connection);
      this.dispatch();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.idle.push(connection);
      this.dispatch();
    }, wait);
    this.timers.add(timer);
  }

  private noteCause(cause: { code: string; message: string }): void {
    let key = this.redact(`${cause.code}: ${cause.message}`);
    if (!this.causes.has(key) && this.causes.size >= MAX_CAUSES) key = 'other causes';
    this.causes.set(key, (this.causes.get(key) ?? 0) + 1);
  }

  private record(ms: number): void {
    const micros = recordMs(this.histogram, ms);
    if (micros > this.maxMicros) this.maxMicros = micros;
  }

  /** Times out requests past the profile's timeout (their connection is closed), and reports progress. */
  private sweep(): void {
    const now = performance.now();
    const limit = this.options.timeoutSeconds * 1000;
    for (const connection of this.connections) {
      const flight = connection.inFlight;
      if (flight === undefined || now - flight.sentAt <= limit) continue;
      this.timeouts += 1;
      this.record(now - flight.intended);
      this.detach(connection);
      this.failed(connection, flight, {
        code: 'ERR_LOAD_TIMEOUT',
        message: `no complete response within ${this.options.timeoutSeconds} s (the profile's timeout)`,
      });
    }
    if (now - this.progress.at >= PROGRESS_MS) {
      this.options.listener?.onLoadProgress?.({
        profile: this.options.profileName,
        elapsedSeconds: (now - this.started) / 1000,
        plannedSeconds: this.options.durationSeconds,
        requests: this.dispatched,
        responses: this.responses,
        errors: this.errors,
        rps: Math.round(((this.responses - this.progress.responses) * 1000) / (now - this.progress.at)),
        ...(this.options.rate === undefined ? {} : { rate: this.options.rate }),
      });
      this.progress = { at: now, responses: this.responses };
    }
  }

  /** Ends the stage: what is still in flight, or due and unsent, is counted, and its age recorded as a lower bound of its latency. */
  private stop(interrupted = false): void {
    if (this.stopped) return;
    const now = performance.now();
    this.stopped = true;
    this.interrupted = interrupted;
    for (const timer of this.timers) clearTimeout(timer);
    clearTimeout(this.scheduleTimer);
    // A ramp runs many stages under one signal: each takes its listener away.
    this.options.signal?.removeEventListener('abort', this.abort);
    let inFlightAtStop = 0;
    for (const connection of this.connections) {
      if (connection.inFlight !== undefined) {
        inFlightAtStop += 1;
        this.record(now - connection.inFlight.intended);
      }
      connection.socket?.destroy();
    }
    let behindSchedule = 0;
    if (this.interval !== undefined && !interrupted) {
      // Requests due in the last few ms are the timer's granularity, not a server or connection falling behind.
      const until = Math.min(now, this.endsAt) - SCHEDULE_SLACK_MS;
      const due = Math.min(this.options.maxRequests, Math.ceil((until - this.started) / this.interval - this.offset));
      for (let n = this.dispatched; n < due; n++) {
        behindSchedule += 1;
        this.record(now - this.dueAt(n));
      }
    }
    this.finish(this.result(now, inFlightAtStop, behindSchedule));
  }

  private result(now: number, inFlightAtStop: number, behindSchedule: number): RawLoadRun {
    const seconds = (now - this.started) / 1000;
    const buckets = Math.max(1, seconds - Math.floor(seconds) < MIN_PARTIAL_SECOND ? Math.floor(seconds) : Math.ceil(seconds));
    const throughput: Array<{ t: number; rps: number }> = [];
    for (let second = 0; second < buckets; second++) {
      const last = second === buckets - 1;
      const width = last ? seconds - second : 1;
      const count = last ? this.perSecond.slice(second).reduce((a, b) => a + (b ?? 0), 0) : (this.perSecond[second] ?? 0);
      throughput.push({ t: Math.round((second + width) * 1000) / 1000, rps: width > 0 ? Math.round((count / width) * 10) / 10 : 0 });
    }
    const errorCauses: ErrorCause[] = [...this.causes].map(([cause, count]) => ({ cause, count })).sort((a, b) => b.count - a.count);
    const sampler = this.options.sampler;
    const run: RawLoadRun = {
      format: RAW_LOAD_FORMAT,
      startedAt: new Date(Date.now() - (now - this.started)).toISOString(),
      durationSeconds: Math.round(seconds * 1000) / 1000,
      requests: this.dispatched,
      responses: this.responses,
      errors: this.errors,
      timeouts: this.timeouts,
      resets: this.resets,
      inFlightAtStop,
      behindSchedule,
      connectionRetries: this.retries,
      non2xx: this.non2xx,
      statusCodes: this.statusCodes,
      errorCauses,
      latencyHistogram: encodeHistogram(this.histogram),
      maxLatencyMicros: this.maxMicros,
      sampled: sampler?.sampled ?? 0,
      mismatches: sampler?.mismatches ?? 0,
      violations: sampler ? [...sampler.violations] : [],
      interrupted: this.interrupted,
      throughput,
    };
    if (this.options.rate !== undefined) run.rate = this.options.rate;
    return run;
  }
}

/** Runs one stage to its end (duration, request budget or abort, whichever comes first); nothing outlives it. */
export function runStage(options: StageOptions): Promise<RawLoadRun> {
  return new Stage(options).run();
}
