/**
 * Runs one bounded stage of listPets load on its own keep-alive connections: every TLS connection verified, every body
 * read within a cap, latency in µs, and every request sent accounted for when the stage stops.
 */
import type { Histogram } from 'hdr-histogram-js';
import { routeTo, runRedactor } from '../http/connection.js';
import { RequestFraming } from '../http/framing.js';
import type { ConnectionSettings } from '../model/connection.js';
import { RAW_LOAD_FORMAT, type ErrorCause, type LoadListener, type QueryMix, type RawLoadRun } from '../model/load.js';
import { retryAfterMs } from '../http/pacer.js';
import { listingAt } from '../requests/contract-requests.js';
import { encodeHistogram, latencyHistogram, recordMs } from './latency-histogram.js';
import { StageWindows } from './stage-windows.js';
import {
  type ConnectionEvents,
  type FailureCause,
  type InFlight,
  isRateLimited,
  LoadConnection,
  type PreparedRequest,
  requestBytes,
} from './load-connection.js';
import type { ResponseSampler } from './sampler.js';

/** What one stage sends, how long and how much at most, and how it reaches the service (trust, client certificate, proxy, headers). */
export interface StageOptions extends ConnectionSettings {
  baseUrl: string;
  apiKey: string;
  profileName: string;
  /** The contract's listPets path, relative to the base URL (e.g. /pets). */
  listPath: string;
  queries: readonly QueryMix[];
  connections: number;
  /** Target requests per second; absent: as fast as the service answers. */
  rate?: number;
  /** Shifts a rated schedule by this fraction of its interval (0..1), so that the schedules of several workers interleave. */
  scheduleOffset?: number;
  durationSeconds: number;
  /** Seconds of the first and of the last window the trend check compares (at most half the stage each); absent: none kept. */
  windowSeconds?: number;
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
/** Requests due this recently at the stop are not counted as behind schedule. */
const SCHEDULE_SLACK_MS = 5;
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

/** The requests of the mix, framed by the client's rules (accept, --header, the key), their bytes built once. */
function prepare(options: StageOptions, proxy: ReturnType<typeof routeTo>): PreparedRequest[] {
  const framing = new RequestFraming(options.baseUrl, options.apiKey, options);
  return weightedSequence(options.queries).map((query) => {
    const framed = framing.frame(
      listingAt(options.listPath, [
        ...(query.limit === undefined ? [] : [['limit', String(query.limit)] as const]),
        ...(query.status === undefined ? [] : [['status', query.status] as const]),
      ]),
    );
    return { target: `${options.listPath}${queryString(query)}`, query, bytes: requestBytes(framed, proxy) };
  });
}

/** One stage of load: schedules requests onto the connections, reads every answer within bounds, counts everything. */
class Stage implements ConnectionEvents {
  private readonly options: StageOptions;
  private readonly sequence: PreparedRequest[];
  private readonly connections: LoadConnection[] = [];
  private readonly idle: LoadConnection[] = [];
  private readonly histogram: Histogram = latencyHistogram();
  private readonly redact: (text: string) => string;
  private readonly interval: number | undefined;
  private readonly offset: number;
  private readonly causes = new Map<string, number>();
  private readonly perSecond: number[] = [];
  private readonly windows: StageWindows | undefined;
  private started = 0;
  private endsAt = 0;
  private dispatched = 0;
  private responses = 0;
  private errors = 0;
  private timeouts = 0;
  private resets = 0;
  private non2xx = 0;
  private rateLimited = 0;
  private retries = 0;
  private maxMicros = 0;
  private readonly statusCodes: Record<string, number> = {};
  private stopped = false;
  private interrupted = false;
  private scheduleTimer: NodeJS.Timeout | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private progress = { at: 0, responses: 0 };
  /** The event loop's use when the windows last sampled it: how busy the generator itself was. */
  private loop = performance.eventLoopUtilization();
  private finish: (run: RawLoadRun) => void = () => undefined;
  private readonly abort = (): void => this.stop(true);

  constructor(options: StageOptions) {
    this.options = options;
    const base = new URL(options.baseUrl);
    this.redact = runRedactor(options.apiKey, options);
    const proxy = routeTo(base, options);
    this.sequence = prepare(options, proxy);
    this.interval = options.rate === undefined ? undefined : 1000 / options.rate;
    this.offset = options.scheduleOffset ?? 0;
    if (options.windowSeconds !== undefined) this.windows = new StageWindows(options.windowSeconds, options.durationSeconds);
    const target = { base, proxy, settings: options, maxBodyBytes: options.maxBodyBytes };
    const count = Math.max(1, Math.min(options.connections, options.maxRequests));
    for (let i = 0; i < count; i++) {
      const connection = new LoadConnection(target, this);
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
      this.loop = performance.eventLoopUtilization();
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
      (this.idle.pop() as LoadConnection).send(this.sequence[this.dispatched % this.sequence.length] as PreparedRequest, intended, now);
      this.windows?.offer(this.secondsAt(intended));
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

  keepsBody(flight: InFlight): boolean {
    const sampler = this.options.sampler;
    if (sampler === undefined) return false;
    // Each is asked once per answer: both count what they see.
    flight.sampled = sampler.wants();
    flight.judged = sampler.listings?.wants(flight.status) === true;
    return flight.sampled || flight.judged;
  }

  oversize(flight: InFlight): void {
    this.options.sampler?.oversize(flight.request.target, flight.status, this.options.maxBodyBytes);
  }

  resent(): void {
    this.retries += 1;
  }

  answered(connection: LoadConnection, flight: InFlight): void {
    if (this.stopped) return;
    const now = performance.now();
    this.record(now - flight.intended);
    this.windows?.answer(this.secondsAt(now), now - flight.sentAt);
    this.responses += 1;
    const second = Math.floor((now - this.started) / 1000);
    this.perSecond[second] = (this.perSecond[second] ?? 0) + 1;
    const code = String(flight.status);
    this.statusCodes[code] = (this.statusCodes[code] ?? 0) + 1;
    if (isRateLimited(flight.status)) this.rateLimited += 1;
    else if (flight.status < 200 || flight.status > 299) this.non2xx += 1;
    this.release(connection, this.pauseAsked(flight));
    // Read after the stage's end (its timer waits behind the answers read in the same turn): counted, not judged, and the
    // stage ends now rather than after judging every body that arrived meanwhile.
    if (now >= this.endsAt) {
      this.stop();
      return;
    }
    const body = flight.body;
    const sampler = this.options.sampler;
    if (body === undefined || sampler === undefined) return;
    const bytes = body.length === 1 ? (body[0] as Buffer) : Buffer.concat(body);
    const { target, query } = flight.request;
    // Decoded once for both: a listing of megabytes is one string, not two.
    const text = bytes.toString('utf8');
    if (flight.sampled) sampler.judge(target, query, flight.status, bytes, text);
    if (flight.judged) sampler.listings?.judge(`GET ${target}`, query, flight.status, flight.sentAt, text);
  }

  failed(connection: LoadConnection, flight: InFlight, cause: FailureCause, reset: boolean): void {
    if (this.stopped) return;
    if (reset) this.resets += 1;
    this.errors += 1;
    this.noteCause(cause);
    this.release(connection, connection.backoffAfter(flight));
  }

  /**
   * How long the connection of a rate-limited answer waits before its next request: the Retry-After it carries (seconds or
   * an HTTP date), at most the profile's timeout (no connection waits longer than a request may take); the stage's end and
   * its request budget bound it as they bound everything. The other connections go on: the pause is this connection's.
   */
  private pauseAsked(flight: InFlight): number {
    const asked = flight.retryAfter === undefined ? undefined : retryAfterMs(flight.retryAfter);
    return asked === undefined ? 0 : Math.min(asked, this.options.timeoutSeconds * 1000);
  }

  /** Hands a connection back for the next request, at once or after `waitMs` (a backoff, a pause the server asked for). */
  private release(connection: LoadConnection, waitMs: number): void {
    if (waitMs > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.idle.push(connection);
        this.dispatch();
      }, waitMs);
      this.timers.add(timer);
    } else this.idle.push(connection);
    // The last answer of the request budget ends the stage, a connection waiting or not.
    this.dispatch();
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

  /** A request with no response at `now` (a timeout, or left at the stop): its age in the stage, its time at the service in its window. */
  private recordUnanswered(flight: InFlight, now: number): void {
    this.record(now - flight.intended);
    this.windows?.record(this.secondsAt(now), now - flight.sentAt);
  }

  /** Seconds from the stage's start. */
  private secondsAt(time: number): number {
    return (time - this.started) / 1000;
  }

  /** Times out requests past the profile's timeout (their connection is closed), and reports progress. */
  private sweep(): void {
    const now = performance.now();
    const limit = this.options.timeoutSeconds * 1000;
    let inFlight = 0;
    for (const connection of this.connections) {
      const flight = connection.inFlight;
      if (flight !== undefined) inFlight += 1;
      if (flight === undefined || now - flight.sentAt <= limit) continue;
      this.timeouts += 1;
      this.recordUnanswered(flight, now);
      connection.detach();
      connection.inFlight = undefined;
      this.failed(
        connection,
        flight,
        { code: 'ERR_LOAD_TIMEOUT', message: `no complete response within ${this.options.timeoutSeconds} s (the profile's timeout)` },
        false,
      );
    }
    if (this.windows !== undefined) {
      const loop = performance.eventLoopUtilization();
      this.windows.sample(this.secondsAt(now), inFlight, performance.eventLoopUtilization(loop, this.loop));
      this.loop = loop;
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
        this.recordUnanswered(connection.inFlight, now);
      }
      connection.end();
    }
    let behindSchedule = 0;
    if (this.interval !== undefined && !interrupted) {
      // Requests due in the last few ms are the timer's granularity, not a server or connection falling behind.
      const until = Math.min(now, this.endsAt) - SCHEDULE_SLACK_MS;
      const due = Math.min(this.options.maxRequests, Math.ceil((until - this.started) / this.interval - this.offset));
      for (let n = this.dispatched; n < due; n++) {
        behindSchedule += 1;
        this.record(now - this.dueAt(n));
        this.windows?.offer(this.secondsAt(this.dueAt(n)));
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
      rateLimited: this.rateLimited,
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
    if (this.windows !== undefined) run.windows = this.windows.raw(seconds);
    const listings = sampler?.listingJudgement();
    if (listings !== undefined) run.listings = listings;
    return run;
  }
}

/** Runs one stage to its end (duration, request budget or abort, whichever comes first); nothing outlives it. */
export function runStage(options: StageOptions): Promise<RawLoadRun> {
  return new Stage(options).run();
}
