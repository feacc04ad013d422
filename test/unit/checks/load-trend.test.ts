/**
 * Table-driven unit tests of the trend check (load.trend) on synthetic windows, of the windows a stage keeps (moments
 * injected, no clock), of how windows of runs made at once add up, and of the timing of the load variants.
 */
import t from 'tap';
import { judgeTrend, MIN_WINDOW_RESPONSES, trendDrifts, trendWindowSeconds } from '../../../src/checks/load-trend.js';
import { LOAD_CHECKS } from '../../../src/checks/load-checks.js';
import { aggregateRuns, combineConcurrentRuns } from '../../../src/load/aggregate.js';
import { StageWindows } from '../../../src/load/stage-windows.js';
import { DEFAULT_TREND, type LoadMetrics, type TrendSettings, type WindowMetrics } from '../../../src/model/load.js';
import { cappedSlot, LEAK_AFTER, leakDelayMs, LOAD_VARIANTS, SERVED_VARIANTS } from '../../../src/server/variants.js';
import { loadReportOf, metricsOf, profileOf, rawRunOf } from '../../load-fixtures.js';

/** A window of 5 s at 200/s with a steady server's figures; override what a row needs. */
function windowOf(overrides: Partial<WindowMetrics> & { p50?: number; p90?: number; p99?: number } = {}): WindowMetrics {
  const { p50 = 1, p90 = 2, p99 = 5, ...rest } = overrides;
  return {
    from: 0,
    to: 5,
    offeredRate: 200,
    concurrency: 0.3,
    generatorBusy: 0.05,
    responses: 1000,
    rps: 200,
    latency: { p50, p90, p99 },
    latencyFrom: 'actual-send',
    ...rest,
  };
}

const LAST = { from: 15, to: 20 };

/** A stage's metrics with these windows: at a target rate of 200/s, or at open throttle (no target rate). */
function metricsWith(
  first: WindowMetrics | undefined,
  last: WindowMetrics | undefined,
  extra: Partial<LoadMetrics>,
  open: boolean,
): LoadMetrics {
  return metricsOf({
    durationSeconds: 20,
    ...(open ? {} : { targetRate: 200 }),
    ...(first !== undefined && last !== undefined ? { windows: { first, last } } : {}),
    ...extra,
  });
}

t.test('judgeTrend: the last window against the first, decided by the settings', async (t) => {
  const rows: Array<{
    name: string;
    first?: WindowMetrics;
    last?: WindowMetrics;
    settings?: Partial<TrendSettings>;
    extra?: Partial<LoadMetrics>;
    open?: boolean;
    outcome: 'passed' | 'failed' | 'not-judged';
    /** What each failure says, in order; or what the message of a judgement that is not a failure holds. */
    says: RegExp[];
  }> = [
    {
      name: 'a steady server: the same figures in both windows',
      first: windowOf(),
      last: windowOf(LAST),
      outcome: 'passed',
      says: [/first window 0–5 s: p50 1 ms · p90 2 ms · p99 5 ms · 200 responses\/s; last window 15–20 s: p50 1 ms/],
    },
    {
      name: 'one stall in the last window moves its p99 alone: p99 is not compared unless the profile names it',
      first: windowOf({ p99: 10.8 }),
      last: windowOf({ ...LAST, p99: 65.3 }),
      outcome: 'passed',
      says: [/p99 65\.3 ms/],
    },
    {
      name: 'p99 named: noise within the slack, from 5 to 12.5 ms (bound 5 × 1.5 + 5)',
      first: windowOf(),
      last: windowOf({ ...LAST, p99: 12.5 }),
      settings: { percentiles: ['p50', 'p90', 'p99'] },
      outcome: 'passed',
      says: [/p99 12.5 ms/],
    },
    {
      name: 'p99 named: just above the bound, 12.501 ms fails',
      first: windowOf(),
      last: windowOf({ ...LAST, p99: 12.501 }),
      settings: { percentiles: ['p50', 'p90', 'p99'] },
      outcome: 'failed',
      says: [/^p99 grew from 5 ms in the first window \(0–5 s\) to 12\.501 ms in the last \(15–20 s\): more than \+50 % \+ 5 ms$/],
    },
    {
      name: 'a leak: every percentile grew by tens of ms',
      first: windowOf({ p50: 0.2, p90: 0.65, p99: 2.3 }),
      last: windowOf({ ...LAST, p50: 49.7, p90: 57.6, p99: 59.7 }),
      outcome: 'failed',
      says: [/^p50 grew from 0\.2 ms/, /^p90 grew from 0\.65 ms/],
    },
    {
      name: 'getting faster is never a failure',
      first: windowOf({ p50: 40, p90: 60, p99: 90, rps: 190 }),
      last: windowOf({ ...LAST, p50: 1, rps: 200 }),
      outcome: 'passed',
      says: [/p50 40 ms/],
    },
    {
      name: 'throughput fell by more than 10 % while the schedule offered 200/s in both',
      first: windowOf(),
      last: windowOf({ ...LAST, rps: 179.9 }),
      outcome: 'failed',
      says: [/^throughput fell from 200 responses\/s in the first window \(0–5 s\) to 179\.9 in the last \(15–20 s\): more than −10 %$/],
    },
    {
      name: 'throughput at the floor (200 × 0.9) passes',
      first: windowOf(),
      last: windowOf({ ...LAST, rps: 180 }),
      outcome: 'passed',
      says: [/180 responses\/s/],
    },
    {
      name: 'the profile allows more: latency 2 (×3) and 50 ms of slack',
      first: windowOf(),
      last: windowOf({ ...LAST, p50: 53, p99: 65 }),
      settings: { latency: 2, slackMs: 50 },
      outcome: 'passed',
      says: [/p50 53 ms/],
    },
    {
      name: 'the profile allows less: no slack and 10 %',
      first: windowOf({ p50: 10 }),
      last: windowOf({ ...LAST, p50: 11.5 }),
      settings: { latency: 0.1, slackMs: 0 },
      outcome: 'failed',
      says: [/^p50 grew from 10 ms .* to 11\.5 ms .*: more than \+10 % \+ 0 ms$/],
    },
    {
      name: 'a stage too short for windows: not judged, saying how long it must be',
      extra: { durationSeconds: 2 },
      outcome: 'not-judged',
      says: [/^the stage lasted 2 s: its windows \(25 % of it each\) would be shorter than 5 s; the trend needs a stage of at least 20 s$/],
    },
    {
      name: 'a stage long enough but without windows (a run of an earlier version merged): says so, not that it was short',
      extra: { durationSeconds: 120 },
      outcome: 'not-judged',
      says: [/^no windows were measured in this 120 s stage \(a run of an earlier version, merged or read back\)$/],
    },
    {
      name: 'a stage that stopped early (budget, Ctrl-C): its last window is not whole',
      first: windowOf(),
      last: windowOf({ from: 15, to: 16.2, p50: 90 }),
      outcome: 'not-judged',
      says: [/^the stage stopped 16\.2 s in \(request budget, or interrupted\), before its last window from 15 s was measured whole$/],
    },
    {
      name: 'a schedule that offered less in the last window: not judged, with both figures',
      first: windowOf(),
      last: windowOf({ ...LAST, offeredRate: 150, p50: 90 }),
      outcome: 'not-judged',
      says: [/^the offered load did not hold steady: 200 requests\/s offered in the first window \(0–5 s\), 150 in the last \(15–20 s\)$/],
    },
    {
      name: 'open throttle: the concurrency is the offered load (connections lost to backoff)',
      first: windowOf({ concurrency: 16 }),
      last: windowOf({ ...LAST, concurrency: 9.5, rps: 50 }),
      open: true,
      outcome: 'not-judged',
      says: [/^the offered load did not hold steady: 16 requests in flight on average in the first window \(0–5 s\), 9\.5 in the last/],
    },
    {
      name: 'open throttle at a steady concurrency: a throughput that fell fails',
      first: windowOf({ concurrency: 16, rps: 20_000 }),
      last: windowOf({ ...LAST, concurrency: 16, rps: 12_000 }),
      open: true,
      outcome: 'failed',
      says: [/^throughput fell from 20000 responses\/s/],
    },
    {
      name: 'a saturated generator (open throttle on a busy machine): what it measured is its own',
      first: windowOf({ concurrency: 16, rps: 26_430, generatorBusy: 0.97 }),
      last: windowOf({ ...LAST, concurrency: 16, rps: 16_817, generatorBusy: 0.99 }),
      open: true,
      outcome: 'not-judged',
      says: [
        /^the load generator was saturated \(its event loop busy 97 % of the first window, 99 % of the last\): the throughput and latency it measured were its own/,
      ],
    },
    {
      name: 'a generator busy 89 % of a window still judges',
      first: windowOf({ generatorBusy: 0.89 }),
      last: windowOf({ ...LAST, rps: 100 }),
      outcome: 'failed',
      says: [/^throughput fell/],
    },
    {
      name: 'too few responses in a window for its percentiles',
      first: windowOf({ responses: MIN_WINDOW_RESPONSES - 1 }),
      last: windowOf(LAST),
      outcome: 'not-judged',
      says: [/^99 responses in the window 0–5 s: too few for its percentiles \(at least 100\)$/],
    },
  ];
  for (const row of rows) {
    const settings = { ...DEFAULT_TREND, ...row.settings };
    const judgement = judgeTrend(settings, metricsWith(row.first, row.last, row.extra ?? {}, row.open === true));
    t.equal(judgement.outcome, row.outcome, `${row.name}: outcome`);
    if (judgement.outcome === 'failed') {
      t.equal(judgement.failures.length, row.says.length, `${row.name}: failure count`);
      for (const [i, pattern] of row.says.entries()) t.match(judgement.failures[i]?.message, pattern, `${row.name}: failure ${i}`);
    } else for (const pattern of row.says) t.match(judgement.message, pattern, `${row.name}: message`);
  }
});

t.test('a failure states the bound and the figure, as every reporter shows them', async (t) => {
  const [drift] = trendDrifts(DEFAULT_TREND, windowOf({ p50: 2 }), windowOf({ ...LAST, p50: 30 }));
  t.same(drift, {
    message: 'p50 grew from 2 ms in the first window (0–5 s) to 30 ms in the last (15–20 s): more than +50 % + 5 ms',
    expected: 'at most 8 ms',
    actual: '30 ms',
  });
});

t.test('windows: judged where each lasts 5 s or more, unless the profile turned the check off', async (t) => {
  const rows: Array<[string, Partial<TrendSettings>, number, number | undefined]> = [
    ['nightly shortened to 20 s: two windows of 5 s', {}, 20, 5],
    ['a stage a few µs short of 20 s still has its windows', {}, 19.99999, 5],
    ['smoke (2 s): none', {}, 2, undefined],
    ['a stress stage of 5 s: none', {}, 5, undefined],
    ['a soak of 30 minutes: quarters of 450 s', {}, 1800, 450],
    ['a tenth of 60 s: 6 s', { window: 0.1 }, 60, 6],
    ['turned off: none, however long', { enabled: false }, 1800, undefined],
  ];
  for (const [name, settings, duration, expected] of rows)
    t.equal(trendWindowSeconds({ ...DEFAULT_TREND, ...settings }, duration), expected, name);
  const check = LOAD_CHECKS.find((c) => c.id === 'load.trend');
  const load = (trend?: TrendSettings) => ({ load: loadReportOf(profileOf(trend === undefined ? {} : { trend }), metricsOf()) });
  t.equal(check?.applies(load()), true, 'on by default (a report of an earlier version too)');
  t.equal(check?.applies(load({ ...DEFAULT_TREND, enabled: false })), false, 'trend: false turns it off');
});

t.test('a stage keeps two windows by the moments given: what falls between them counts in neither', async (t) => {
  const windows = new StageWindows(5, 20);
  for (const [moment, ms] of [
    [0.1, 1],
    [4.99, 3],
    [5, 100],
    [14.99, 100],
    [15, 40],
    [20.3, 60],
  ] as const) {
    windows.offer(moment);
    windows.answer(moment, ms);
  }
  windows.record(19.9, 5000);
  windows.sample(1, 4, { active: 10, idle: 40 });
  windows.sample(2, 2, { active: 10, idle: 40 });
  windows.sample(16, 10, { active: 45, idle: 5 });
  windows.sample(10, 99, { active: 50, idle: 0 });
  const { first, last } = windows.raw(20.4);
  t.same(
    [first.from, first.to, first.offered, first.responses, first.concurrency, first.generatorBusy],
    [0, 5, 2, 2, 3, 0.2],
    'first: 0–5 s',
  );
  t.same(
    [last.from, last.to, last.offered, last.responses, last.concurrency, last.generatorBusy],
    [15, 20.4, 2, 2, 10, 0.9],
    'last: from 15 s to the stop',
  );
  t.equal(last.maxLatencyMicros, 5_000_000, 'a timeout in the last window is its slowest');
  const early = new StageWindows(5, 20).raw(12);
  t.ok(early.last.to < early.last.from, 'a stage that stopped before its last window: a window that ends before it begins');
});

t.test('windows of runs made at once add up: worker threads, and machines merged', async (t) => {
  const stage = (offered: number, concurrency: number, ms: number, to = 20) => {
    const w = new StageWindows(5, 20);
    for (let i = 0; i < offered; i++) {
      w.offer(1);
      w.answer(1, ms);
      w.offer(16);
      w.answer(16, ms * 2);
    }
    w.sample(1, concurrency, { active: concurrency, idle: 10 - concurrency });
    w.sample(16, concurrency, { active: concurrency, idle: 10 - concurrency });
    return rawRunOf({ durationSeconds: to, rate: 100, windows: w.raw(to) });
  };
  const combined = combineConcurrentRuns([stage(500, 2, 1), stage(500, 3, 3)]);
  t.same(
    [combined.windows?.first.offered, combined.windows?.first.concurrency, combined.windows?.first.generatorBusy],
    [1000, 5, 0.3],
    'workers: offered and concurrency add; the busiest worker is how busy the generator was',
  );
  const metrics = aggregateRuns([combined]).windows;
  t.equal(metrics?.first.offeredRate, 200, '1000 requests offered over 5 s');
  t.equal(metrics?.last.rps, 200, '1000 responses over 5 s');
  t.equal(metrics?.first.latency.p50, 1, 'first p50 from the merged histogram');
  t.equal(metrics?.last.latency.p99, 6, 'last p99 from the merged histogram');
  const cut = aggregateRuns([stage(500, 2, 1), stage(500, 2, 1, 17)]).windows;
  t.equal(cut?.last.to, 17, 'a machine whose stage stopped early cuts the merged last window short');
  t.equal(aggregateRuns([stage(10, 1, 1), rawRunOf()]).windows, undefined, 'a run without windows (an earlier version): none');
});

t.test('the load variants: a leak that grows steadily, a cap that spaces answers evenly', async (t) => {
  t.equal(leakDelayMs(1), 0, 'no delay at first');
  t.equal(leakDelayMs(LEAK_AFTER), 0, `none up to answer ${LEAK_AFTER}`);
  t.equal(leakDelayMs(LEAK_AFTER + 1000), 20, '20 ms more after 1,000 more answers');
  t.equal(leakDelayMs(LEAK_AFTER + 3000), 60, 'and 60 ms after 3,000: growing steadily');
  t.equal(cappedSlot(100, 0), 100, 'an idle capped server answers at once');
  t.equal(cappedSlot(100, 106.7), 106.7, 'a busy one at its next free slot');
  const ids = new Set(LOAD_CHECKS.map((c) => c.id));
  for (const variant of LOAD_VARIANTS)
    for (const id of [...variant.caughtBy, ...variant.passes]) t.ok(ids.has(id), `${variant.name} names a load check: ${id}`);
  t.ok(
    LOAD_VARIANTS.some((v) => v.caughtBy.includes('load.trend')),
    'some load variant must fail load.trend',
  );
  t.equal(new Set(SERVED_VARIANTS.map((v) => v.name)).size, SERVED_VARIANTS.length, 'serve --variant finds each by a name of its own');
});
