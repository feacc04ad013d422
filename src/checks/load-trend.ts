/**
 * The trend check: the last window of a stage against its first, so that a service that slows down over a long stage (a
 * leak) fails before it crosses a bound on the stage as a whole, and a steady one under collection pauses and scheduling
 * noise does not.
 */
import { failed, notJudged, passed, type Judgement, type RunCheck } from '../model/check.js';
import type { Failure } from '../model/results.js';
import {
  DEFAULT_TREND,
  MIN_TREND_WINDOW_SECONDS,
  type LoadMetrics,
  type LoadProfile,
  type TrendSettings,
  type WindowMetrics,
} from '../model/load.js';

/** How long each window of a judged trend lasts at least, in words. */
const WINDOW_WORDS = `${MIN_TREND_WINDOW_SECONDS} s or more`;

/** A window with fewer responses has no percentiles worth comparing. */
export const MIN_WINDOW_RESPONSES = 100;

/** The offered load held steady when the last window's is within this share of the first's. */
const STEADY_SHARE = 0.1;

/** A generator whose event loop was busy this share of a window or more may have been the limit: what it measured was its own. */
const SATURATED_SHARE = 0.9;

/** The trend settings of a profile (the defaults for a profile that does not tune them, or a report of an earlier version). */
export function trendOf(profile: LoadProfile): TrendSettings {
  return profile.trend ?? DEFAULT_TREND;
}

/** Seconds of each window of a stage of `durationSeconds`; undefined when the check is off or the windows would be too short. */
export function trendWindowSeconds(settings: TrendSettings, durationSeconds: number): number | undefined {
  // To the ms: the one stage of a constant profile runs for what is left of its duration, a few µs short of it.
  const seconds = Math.round(durationSeconds * settings.window * 1000) / 1000;
  return settings.enabled && seconds >= MIN_TREND_WINDOW_SECONDS ? seconds : undefined;
}

/** Milliseconds with µs digits, as the histograms read them: a figure just above its bound never reads as equal to it. */
function ms(value: number): string {
  return `${Number(value.toFixed(3))} ms`;
}

function span(window: WindowMetrics): string {
  return `${Number(window.from.toFixed(1))}–${Number(window.to.toFixed(1))} s`;
}

function percent(share: number): string {
  return `${Number((share * 100).toPrecision(12))} %`;
}

/** One window's figures in words, as the check says them. */
function windowText(window: WindowMetrics): string {
  const { p50, p90, p99 } = window.latency;
  return `${span(window)}: p50 ${ms(p50)} · p90 ${ms(p90)} · p99 ${ms(p99)} · ${window.rps} responses/s`;
}

/** Why the windows cannot be compared, or undefined when they can: too short, cut short, unsteady load, too few answers. */
function unjudgeable(settings: TrendSettings, metrics: LoadMetrics): string | undefined {
  const windows = metrics.windows;
  if (windows === undefined) {
    const needed = MIN_TREND_WINDOW_SECONDS / settings.window;
    if (trendWindowSeconds(settings, metrics.durationSeconds) !== undefined)
      return (
        `no windows were measured in this ${Number(metrics.durationSeconds.toFixed(1))} s stage (a run of an earlier ` +
        `version, merged or read back)`
      );
    return (
      `the stage lasted ${Number(metrics.durationSeconds.toFixed(1))} s: its windows (${percent(settings.window)} of it ` +
      `each) would be shorter than ${MIN_TREND_WINDOW_SECONDS} s; the trend needs a stage of at least ${needed} s`
    );
  }
  const { first, last } = windows;
  const firstSeconds = first.to - first.from;
  if (last.to - last.from < firstSeconds * (1 - STEADY_SHARE))
    return (
      `the stage stopped ${Number(last.to.toFixed(1))} s in (request budget, or interrupted), before its last window from ` +
      `${Number(last.from.toFixed(1))} s was measured whole`
    );
  if (first.generatorBusy >= SATURATED_SHARE || last.generatorBusy >= SATURATED_SHARE)
    return (
      `the load generator was saturated (its event loop busy ${percent(first.generatorBusy)} of the first window, ` +
      `${percent(last.generatorBusy)} of the last): the throughput and latency it measured were its own, not the service's; give it ` +
      `more workers or cores, or a target rate`
    );
  const rated = metrics.targetRate !== undefined;
  const [before, after] = rated ? [first.offeredRate, last.offeredRate] : [first.concurrency, last.concurrency];
  if (Math.abs(after - before) > before * STEADY_SHARE) {
    const what = rated ? 'requests/s offered' : 'requests in flight on average';
    return (
      `the offered load did not hold steady: ${before} ${what} in the first window (${span(first)}), ${after} in the last ` +
      `(${span(last)})`
    );
  }
  const few = [first, last].find((w) => w.responses < MIN_WINDOW_RESPONSES);
  if (few !== undefined)
    return `${few.responses} responses in the window ${span(few)}: too few for its percentiles (at least ${MIN_WINDOW_RESPONSES})`;
  return undefined;
}

/** What drifted between the windows beyond the settings: latency percentiles that grew, throughput that fell. */
export function trendDrifts(settings: TrendSettings, first: WindowMetrics, last: WindowMetrics): Failure[] {
  const drifts: Failure[] = [];
  for (const p of settings.percentiles) {
    const bound = Math.round((first.latency[p] * (1 + settings.latency) + settings.slackMs) * 1000) / 1000;
    if (last.latency[p] > bound)
      drifts.push({
        message:
          `${p} grew from ${ms(first.latency[p])} in the first window (${span(first)}) to ${ms(last.latency[p])} in the ` +
          `last (${span(last)}): more than +${percent(settings.latency)} + ${settings.slackMs} ms`,
        expected: `at most ${ms(bound)}`,
        actual: ms(last.latency[p]),
      });
  }
  const floor = Math.round(first.rps * (1 - settings.throughput) * 10) / 10;
  if (last.rps < floor)
    drifts.push({
      message:
        `throughput fell from ${first.rps} responses/s in the first window (${span(first)}) to ${last.rps} in the last ` +
        `(${span(last)}): more than −${percent(settings.throughput)}`,
      expected: `at least ${floor} responses/s`,
      actual: `${last.rps} responses/s`,
    });
  return drifts;
}

/** The trend of one stage's metrics judged by the settings. */
export function judgeTrend(settings: TrendSettings, metrics: LoadMetrics): Judgement {
  const reason = unjudgeable(settings, metrics);
  if (reason !== undefined || metrics.windows === undefined) return notJudged(reason ?? 'no windows');
  const { first, last } = metrics.windows;
  const figures = `first window ${windowText(first)}; last window ${windowText(last)}`;
  const drifts = trendDrifts(settings, first, last);
  return drifts.length === 0 ? passed(figures) : failed(drifts, figures);
}

/** `load.trend`: the end of the judged stage is no slower, and no less productive, than its beginning. */
export const TREND_CHECK: RunCheck = {
  id: 'load.trend',
  title: "The end of a stage is not slower, nor its throughput lower, than its beginning by more than the profile's trend allows",
  clause:
    "the load profile's thresholds.trend (on by default): the last window's `percentiles` (p50 and p90 unless it names p99 " +
    "too) at most `latency` above the first's plus `slackMs`, its throughput at most `throughput` below, while the offered " +
    'load held steady',
  level: 'fail',
  scope: 'run',
  appliesWhen: `a load profile runs, unless its thresholds.trend is false (judged where each window lasts ${WINDOW_WORDS})`,
  applies: ({ load }) => trendOf(load.profile).enabled,
  sourceOf: ({ load }) => load.profile.trendSource,
  evaluate: ({ load }) => judgeTrend(trendOf(load.profile), load.metrics),
};
