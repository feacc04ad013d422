/**
 * The first and the last window of a stage, what the trend check compares: two histograms and a few counts, whatever the
 * stage's length or its number of requests.
 */
import type { Histogram } from 'hdr-histogram-js';
import type { RawWindow } from '../model/load.js';
import { encodeHistogram, latencyHistogram, recordMs } from './latency-histogram.js';

/** One window's figures as they are counted. */
class Window {
  readonly histogram: Histogram = latencyHistogram();
  offered = 0;
  responses = 0;
  busy = 0;
  samples = 0;
  loopActive = 0;
  loopIdle = 0;
  maxMicros = 0;

  constructor(readonly from: number) {}

  record(ms: number): void {
    const micros = recordMs(this.histogram, ms);
    if (micros > this.maxMicros) this.maxMicros = micros;
  }

  raw(to: number): RawWindow {
    return {
      from: round(this.from),
      to: round(to),
      offered: this.offered,
      concurrency: this.samples === 0 ? 0 : Math.round((this.busy / this.samples) * 100) / 100,
      generatorBusy: share(this.loopActive, this.loopActive + this.loopIdle),
      responses: this.responses,
      latencyHistogram: encodeHistogram(this.histogram),
      maxLatencyMicros: this.maxMicros,
    };
  }
}

function share(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * The windows of one stage of `durationSeconds`: the first `windowSeconds` and the last (which runs to wherever the stage
 * stops). Moments are seconds from the stage's start; a moment between the two windows counts in neither.
 */
export class StageWindows {
  private readonly first = new Window(0);
  private readonly last: Window;
  private readonly windowSeconds: number;

  constructor(windowSeconds: number, durationSeconds: number) {
    this.windowSeconds = windowSeconds;
    // The two never overlap: the caller gives each window at most half of the stage.
    this.last = new Window(Math.max(windowSeconds, durationSeconds - windowSeconds));
  }

  private at(t: number): Window | undefined {
    if (t >= this.last.from) return this.last;
    return t < this.windowSeconds ? this.first : undefined;
  }

  /** A request whose intended send time was `t`. */
  offer(t: number): void {
    const window = this.at(t);
    if (window !== undefined) window.offered += 1;
  }

  /** A response completed at `t`, `ms` after its request was sent (the service's time, not the generator's backlog). */
  answer(t: number, ms: number): void {
    const window = this.at(t);
    if (window === undefined) return;
    window.responses += 1;
    window.record(ms);
  }

  /** A request sent `ms` before `t` that got no response (a timeout, or one left at the stop). */
  record(t: number, ms: number): void {
    this.at(t)?.record(ms);
  }

  /** How many requests were in flight at `t`, and how long the generator's event loop was busy and idle (ms) since the last sample. */
  sample(t: number, inFlight: number, loop: { active: number; idle: number }): void {
    const window = this.at(t);
    if (window === undefined) return;
    window.busy += inFlight;
    window.samples += 1;
    window.loopActive += loop.active;
    window.loopIdle += loop.idle;
  }

  /** Both windows, the last ending at `endSeconds` (where the stage stopped; before its start when the stage stopped early). */
  raw(endSeconds: number): { first: RawWindow; last: RawWindow } {
    return { first: this.first.raw(Math.min(this.windowSeconds, endSeconds)), last: this.last.raw(endSeconds) };
  }
}
