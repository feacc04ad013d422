/**
 * Table-driven unit tests of the run-scope checks over a load profile's figures (thresholds, the capacity of a
 * ramp, the comparison with a baseline), and of the registry that holds every check.
 */
import t, { type Test } from 'tap';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { EXCHANGE_CHECKS } from '../../../src/checks/exchange-checks.js';
import { INVARIANT_CHECKS } from '../../../src/checks/invariants.js';
import { EXPECTATION_CHECKS } from '../../../src/checks/expectations.js';
import { REQUEST_SPACE_CHECKS } from '../../../src/checks/request-space-checks.js';
import { SILENCE_POLICY_CHECKS } from '../../../src/checks/silence-policy.js';
import { TRANSPORT_CHECKS } from '../../../src/checks/transport-checks.js';
import {
  breachedMetrics,
  compareWithBaseline,
  effectiveThresholds,
  errorRate,
  judgeThreshold,
  LOAD_CHECKS,
  RATE_HELD_SHARE,
} from '../../../src/checks/load-checks.js';
import { buildRegistry, EXPECTATION_KEYS, expectationCheck, REGISTRY, runChecks } from '../../../src/checks/registry.js';
import type { Baseline, Check, Judgement, LoadContext } from '../../../src/model/check.js';
import type { LoadMetrics, LoadProfile, LoadReport, LoadStage, Metric, Ramp, Threshold } from '../../../src/model/load.js';
import { assertFailure, type FailureWant } from '../../check-fixtures.js';
import { loadReportOf as loadOf, metricsOf, P99_SOURCE, profileOf } from '../../load-fixtures.js';

function assertFailures(t: Test, judgement: Judgement, wants: FailureWant[], label: string, todo: { todo?: string } = {}): void {
  const failures = judgement.outcome === 'failed' ? judgement.failures : [];
  t.equal(failures.length, wants.length, `${label}: failure count`, todo);
  for (const [i, want] of wants.entries()) assertFailure(t, failures[i], want, `${label} [${i}]`, todo);
}

/** 1000 requests in 2 s at 499/s: 2 failed requests, 5 non-2xx answers, p99 40 ms. */
const metrics = metricsOf({
  requests: 1000,
  responses: 998,
  durationSeconds: 2,
  rps: 499,
  latency: { p50: 3, p90: 8, p99: 40, max: 120, mean: 4 },
  errors: 2,
  timeouts: 1,
  non2xx: 5,
  statusCodes: { '200': 993, '500': 5 },
});

const profile = profileOf();
const RAMP_SOURCE = { file: 'scenarios/load/stress.yaml', line: 4, column: 1 };
/** 100/s to 300/s in steps of 100; 200/s must hold. */
const RAMP: Ramp = { from: 100, to: 300, step: 100, stageDuration: 1, require: 200 };
const ramp = profileOf({ ramp: RAMP, rampSource: RAMP_SOURCE });

function runCheck(id: string) {
  const check = runChecks.find((c) => c.id === id);
  if (check === undefined) throw new Error(`no run check ${id}`);
  return check;
}

/** The context a run check sees: with a baseline, the load holds the comparison with it, as buildLoadReport makes it. */
function contextOf({ load, baseline }: { load: LoadReport; baseline?: Baseline }): LoadContext {
  if (baseline === undefined) return { load };
  return {
    load: {
      ...load,
      baseline: {
        file: baseline.file,
        tolerance: baseline.tolerance,
        comparisons: compareWithBaseline(baseline.metrics, load.metrics, baseline.tolerance),
      },
    },
  };
}

function judge(id: string, given: { load: LoadReport; baseline?: Baseline }): Judgement & { applies: boolean } {
  const check = runCheck(id);
  const context = contextOf(given);
  return { ...check.evaluate(context), applies: check.applies(context) };
}

t.test('judgeThreshold: max, min and maxRate judge the real metric, bounds inclusive', async (t) => {
  const rows: Array<{
    name: string;
    metric: Metric;
    threshold: Threshold;
    extraMin?: number;
    m?: LoadMetrics;
    ok: boolean;
    actual: number;
    bound: string;
    message?: string;
  }> = [
    {
      name: 'p99 40 ≤ 50',
      metric: 'p99',
      threshold: { max: 50 },
      ok: true,
      actual: 40,
      bound: 'at most 50 ms',
      message: '40 ms (at most 50 allowed)',
    },
    { name: 'p99 40 ≤ 40: the bound is inclusive', metric: 'p99', threshold: { max: 40 }, ok: true, actual: 40, bound: 'at most 40 ms' },
    { name: 'p99 40 > 39', metric: 'p99', threshold: { max: 39 }, ok: false, actual: 40, bound: 'at most 39 ms' },
    { name: 'p50 reads the median', metric: 'p50', threshold: { max: 3 }, ok: true, actual: 3, bound: 'at most 3 ms' },
    { name: 'p90 reads the 90th percentile', metric: 'p90', threshold: { max: 7 }, ok: false, actual: 8, bound: 'at most 7 ms' },
    {
      name: 'max reads the slowest response',
      metric: 'max',
      threshold: { max: 100 },
      ok: false,
      actual: 120,
      bound: 'at most 100 ms',
      message: '120 ms (at most 100 allowed)',
    },
    {
      name: 'rps 499 < 500',
      metric: 'rps',
      threshold: { min: 500 },
      ok: false,
      actual: 499,
      bound: 'at least 500 requests/s',
      message: '499 requests/s (at least 500 required)',
    },
    {
      name: 'rps 499 ≥ 499: the floor is inclusive',
      metric: 'rps',
      threshold: { min: 499 },
      ok: true,
      actual: 499,
      bound: 'at least 499 requests/s',
    },
    {
      name: 'a ramp floor of 450',
      metric: 'rps',
      threshold: { min: 0 },
      extraMin: 450,
      ok: true,
      actual: 499,
      bound: 'at least 450 requests/s',
    },
    {
      name: 'a ramp floor of 600 raises the minimum',
      metric: 'rps',
      threshold: { min: 0 },
      extraMin: 600,
      ok: false,
      actual: 499,
      bound: 'at least 600 requests/s',
    },
    {
      name: 'a profile minimum above the ramp floor wins',
      metric: 'rps',
      threshold: { min: 500 },
      extraMin: 450,
      ok: false,
      actual: 499,
      bound: 'at least 500 requests/s',
    },
    {
      name: '0.5 % non-2xx within 1 %',
      metric: 'non2xx',
      threshold: { maxRate: 0.01 },
      ok: true,
      actual: 5,
      bound: 'at most 1 % of requests',
      message: '5 non-2xx responses of 1000 requests (0.500 %; at most 1 % of requests allowed)',
    },
    {
      name: '0.5 % non-2xx within 0.5 %: inclusive',
      metric: 'non2xx',
      threshold: { maxRate: 0.005 },
      ok: true,
      actual: 5,
      bound: 'at most 0.5 % of requests',
    },
    {
      name: '0.5 % non-2xx beyond 0.1 %',
      metric: 'non2xx',
      threshold: { maxRate: 0.001 },
      ok: false,
      actual: 5,
      bound: 'at most 0.1 % of requests',
    },
    {
      name: 'a rate of no requests is 0',
      metric: 'errors',
      threshold: { maxRate: 0 },
      m: metricsOf({ requests: 0, errors: 0 }),
      ok: true,
      actual: 0,
      bound: 'at most 0 % of requests',
    },
    {
      name: '2 failed requests, none allowed',
      metric: 'errors',
      threshold: { max: 0 },
      ok: false,
      actual: 2,
      bound: 'at most 0 failed requests (connection errors and timeouts)',
      message: '2 failed requests (connection errors and timeouts) (at most 0 allowed)',
    },
    { name: '1 timeout, 1 allowed', metric: 'timeouts', threshold: { max: 1 }, ok: true, actual: 1, bound: 'at most 1 timeouts' },
    {
      name: 'sub-millisecond latency keeps its µs',
      metric: 'p99',
      threshold: { max: 0.5 },
      m: metricsOf({ latency: { p50: 0.125, p90: 0.181, p99: 0.429, max: 13.054, mean: 0.14 } }),
      ok: true,
      actual: 0.429,
      bound: 'at most 0.5 ms',
      message: '0.429 ms (at most 0.5 allowed)',
    },
    {
      name: 'no response: every latency bound fails, whatever the histogram holds',
      metric: 'p99',
      threshold: { max: 500 },
      m: metricsOf({
        responses: 0,
        requests: 8,
        errors: 4,
        timeouts: 4,
        inFlightAtStop: 4,
        durationSeconds: 2,
        latency: { p50: 0, p90: 0, p99: 0, max: 0, mean: 0 },
      }),
      ok: false,
      actual: 0,
      bound: 'at most 500 ms',
      message: 'no response in 2 s (8 requests sent, 4 still in flight at the stop): latency cannot be shown at most 500 ms',
    },
    {
      name: 'no response: max too',
      metric: 'max',
      threshold: { max: 10_000 },
      m: metricsOf({ responses: 0, requests: 3, inFlightAtStop: 3 }),
      ok: false,
      actual: 90,
      bound: 'at most 10000 ms',
    },
    {
      name: 'no response does not touch a count bound',
      metric: 'non2xx',
      threshold: { max: 0 },
      m: metricsOf({ responses: 0, requests: 3, inFlightAtStop: 3 }),
      ok: true,
      actual: 0,
      bound: 'at most 0 non-2xx responses',
    },
    {
      name: 'no mismatch, none allowed',
      metric: 'mismatches',
      threshold: { max: 0 },
      ok: true,
      actual: 0,
      bound: 'at most 0 responses that broke the contract (sampled, or past the size cap)',
    },
  ];
  for (const row of rows) {
    const verdict = judgeThreshold(row.metric, row.threshold, row.m ?? metrics, row.extraMin);
    t.equal(verdict.ok, row.ok, `${row.name}: ${verdict.message}`);
    t.equal(verdict.actual, row.actual, `${row.name}: actual`);
    t.equal(verdict.bound, row.bound, `${row.name}: bound`);
    t.equal(verdict.metric, row.metric, `${row.name}: metric`);
    if (row.message !== undefined) t.equal(verdict.message, row.message, `${row.name}: message`);
  }
});

t.test('judgeThreshold and the baseline: a share reads as a round percentage', async (t) => {
  t.equal(judgeThreshold('non2xx', { maxRate: 0.07 }, metrics).bound, 'at most 7 % of requests', 'maxRate 0.07');
  const base = metricsOf();
  const j = judge('load.baseline.p99', {
    load: loadOf(profile, { ...base, latency: { ...base.latency, p99: 60 } }),
    baseline: { file: 'b.json', metrics: base, tolerance: 0.07 },
  });
  assertFailures(t, j, [{ expected: 'not higher than 50 by more than 7 %' }], 'tolerance 0.07');
});

t.test(
  'effectiveThresholds: failed requests, resets, non-2xx answers and mismatches are bounded at 0 by default; a ramp always judges rps',
  async (t) => {
    const rows: Array<[string, LoadProfile, Array<[Metric, Threshold]>]> = [
      [
        'a profile that bounds p99 only',
        profile,
        [
          ['p99', { max: 50 }],
          ['errors', { max: 0 }],
          ['resets', { max: 0 }],
          ['non2xx', { max: 0 }],
          ['mismatches', { max: 0 }],
        ],
      ],
      [
        'a profile that bounds nothing',
        profileOf({ thresholds: {} }),
        [
          ['errors', { max: 0 }],
          ['resets', { max: 0 }],
          ['non2xx', { max: 0 }],
          ['mismatches', { max: 0 }],
        ],
      ],
      [
        'a ramp adds rps at 0 (its stages raise it)',
        ramp,
        [
          ['p99', { max: 50 }],
          ['rps', { min: 0 }],
          ['errors', { max: 0 }],
          ['resets', { max: 0 }],
          ['non2xx', { max: 0 }],
          ['mismatches', { max: 0 }],
        ],
      ],
      [
        'the profile overrides the implicit bounds',
        profileOf({ thresholds: { errors: { max: 5 }, non2xx: { maxRate: 0.01 } } }),
        [
          ['errors', { max: 5 }],
          ['resets', { max: 0 }],
          ['non2xx', { maxRate: 0.01 }],
          ['mismatches', { max: 0 }],
        ],
      ],
      [
        'a rate of errors leaves resets at 0',
        profileOf({ thresholds: { errors: { maxRate: 0.001 } } }),
        [
          ['errors', { maxRate: 0.001 }],
          ['resets', { max: 0 }],
          ['non2xx', { max: 0 }],
          ['mismatches', { max: 0 }],
        ],
      ],
      [
        'the profile may allow resets',
        profileOf({ thresholds: { resets: { maxRate: 0.01 } } }),
        [
          ['errors', { max: 0 }],
          ['resets', { maxRate: 0.01 }],
          ['non2xx', { max: 0 }],
          ['mismatches', { max: 0 }],
        ],
      ],
      [
        'a ramp keeps the profile rps minimum',
        profileOf({ ramp: { from: 1, to: 2, step: 1, stageDuration: 1 }, thresholds: { rps: { min: 100 }, timeouts: { max: 3 } } }),
        [
          ['rps', { min: 100 }],
          ['errors', { max: 0 }],
          ['timeouts', { max: 3 }],
          ['resets', { max: 0 }],
          ['non2xx', { max: 0 }],
          ['mismatches', { max: 0 }],
        ],
      ],
    ];
    for (const [name, p, want] of rows) t.same(effectiveThresholds(p), want, name);
  },
);

t.test('load.resets: any request reset on a busy connection fails by default; a profile may allow some', async (t) => {
  const UNIT = 'requests reset on a busy connection';
  const reset = (resets: number, connectionRetries = 0): LoadMetrics =>
    metricsOf({ requests: 1000, responses: 1000 - resets, errors: resets, resets, connectionRetries });
  const RESETS_SOURCE = { file: 'scenarios/load/demo.yaml', line: 12, column: 3 };
  const rows: Array<{
    name: string;
    p: LoadProfile;
    m: LoadMetrics;
    outcome: 'passed' | 'failed';
    message: string;
    failures?: FailureWant[];
  }> = [
    { name: 'no reset', p: profile, m: reset(0), outcome: 'passed', message: `0 ${UNIT} (at most 0 allowed)` },
    {
      name: 'idle closes sent again are no resets',
      p: profile,
      m: reset(0, 80),
      outcome: 'passed',
      message: `0 ${UNIT} (at most 0 allowed)`,
    },
    {
      name: 'one reset, none allowed by default',
      p: profile,
      m: reset(1),
      outcome: 'failed',
      message: `1 ${UNIT} (at most 0 allowed)`,
      failures: [{ expected: `at most 0 ${UNIT}`, actual: `1 ${UNIT}`, message: `1 ${UNIT} (at most 0 allowed)` }],
    },
    { name: '80 resets', p: profile, m: reset(80, 3), outcome: 'failed', message: `80 ${UNIT} (at most 0 allowed)` },
    {
      name: 'a rate of errors the profile allows does not allow resets',
      p: profileOf({ thresholds: { errors: { maxRate: 0.01 } } }),
      m: reset(1),
      outcome: 'failed',
      message: `1 ${UNIT} (at most 0 allowed)`,
    },
    {
      name: 'a count the profile allows, inclusive',
      p: profileOf({ thresholds: { resets: { max: 2 } }, thresholdSources: { resets: RESETS_SOURCE } }),
      m: reset(2),
      outcome: 'passed',
      message: `2 ${UNIT} (at most 2 allowed)`,
    },
    {
      name: 'beyond a count the profile allows',
      p: profileOf({ thresholds: { resets: { max: 2 } } }),
      m: reset(3),
      outcome: 'failed',
      message: `3 ${UNIT} (at most 2 allowed)`,
    },
    {
      name: 'within a share the profile allows',
      p: profileOf({ thresholds: { resets: { maxRate: 0.005 } } }),
      m: reset(5),
      outcome: 'passed',
      message: `5 ${UNIT} of 1000 requests (0.500 %; at most 0.5 % of requests allowed)`,
    },
    {
      name: 'beyond it',
      p: profileOf({ thresholds: { resets: { maxRate: 0.005 } } }),
      m: reset(6),
      outcome: 'failed',
      message: `6 ${UNIT} of 1000 requests (0.600 %; at most 0.5 % of requests allowed)`,
      failures: [{ expected: 'at most 0.5 % of requests', actual: `6 ${UNIT}` }],
    },
  ];
  for (const row of rows) {
    const j = judge('load.resets', { load: loadOf(row.p, row.m) });
    t.ok(j.applies, `${row.name}: load.resets always applies`);
    t.equal(j.outcome, row.outcome, `${row.name}: ${j.message}`);
    t.equal(j.message, row.message, `${row.name}: message`);
    if (row.failures !== undefined) assertFailures(t, j, row.failures, row.name);
  }
  const check = runCheck('load.resets');
  t.equal(check.sourceOf({ load: loadOf(profile, reset(1)) }), undefined, 'the implicit bound has no line');
  t.same(
    check.sourceOf({
      load: loadOf(profileOf({ thresholds: { resets: { max: 2 } }, thresholdSources: { resets: RESETS_SOURCE } }), reset(1)),
    }),
    RESETS_SOURCE,
    'a declared bound is the source',
  );
  t.match(
    check.clause,
    /^reading-the-contract, Connection management: a server may close an idle keep-alive connection .*; the load profile's threshold on resets \(0 unless the profile says otherwise\)$/,
    'traced to the reading of the contract',
  );
  t.equal(check.level, 'fail');
});

t.test('load.<metric>: applies where the profile (or the default) bounds it; typed failures; the threshold line as source', async (t) => {
  const violations = [
    { target: '/pets?status=sold', status: 200, problems: ['item 0 has status "available"'], bodyExcerpt: '[{"status":"available"}]' },
    { target: '/pets?limit=5', status: 200, problems: ['6 items', 'item 2 is no Pet'], bodyExcerpt: '[…]' },
  ];
  const dirty = loadOf(profile, { ...metrics, mismatches: 2 }, { violations });
  const clean = loadOf(profile, metricsOf());
  const rows: Array<{
    name: string;
    id: string;
    load: LoadReport;
    applies: boolean;
    outcome?: 'passed' | 'failed';
    message?: string;
    failures?: FailureWant[];
  }> = [
    { name: 'p99 within its bound', id: 'load.p99', load: dirty, applies: true, outcome: 'passed', message: '40 ms (at most 50 allowed)' },
    {
      name: 'p99 beyond it',
      id: 'load.p99',
      load: loadOf(profile, { ...metrics, latency: { ...metrics.latency, p99: 51 } }),
      applies: true,
      outcome: 'failed',
      failures: [{ expected: 'at most 50 ms', actual: '51 ms', message: '51 ms (at most 50 allowed)' }],
    },
    {
      name: 'failed requests, bounded at 0 by default',
      id: 'load.errors',
      load: dirty,
      applies: true,
      outcome: 'failed',
      failures: [
        {
          expected: 'at most 0 failed requests (connection errors and timeouts)',
          actual: '2 failed requests (connection errors and timeouts)',
          message: '2 failed requests (connection errors and timeouts) (at most 0 allowed)',
        },
      ],
    },
    { name: 'no failed request', id: 'load.errors', load: clean, applies: true, outcome: 'passed' },
    {
      name: 'non-2xx answers, bounded at 0 by default',
      id: 'load.non2xx',
      load: dirty,
      applies: true,
      outcome: 'failed',
      failures: [{ expected: 'at most 0 non-2xx responses', actual: '5 non-2xx responses' }],
    },
    {
      name: 'non-2xx answers within a rate the profile allows',
      id: 'load.non2xx',
      load: loadOf(profileOf({ thresholds: { non2xx: { maxRate: 0.01 } } }), metrics),
      applies: true,
      outcome: 'passed',
    },
    {
      name: 'mismatches: the bound, then every sampled violation as evidence',
      id: 'load.mismatches',
      load: dirty,
      applies: true,
      outcome: 'failed',
      failures: [
        {
          expected: 'at most 0 responses that broke the contract (sampled, or past the size cap)',
          actual: '2 responses that broke the contract (sampled, or past the size cap)',
        },
        { message: 'GET /pets?status=sold → 200: item 0 has status "available"', actual: '[{"status":"available"}]' },
        { message: 'GET /pets?limit=5 → 200: 6 items; item 2 is no Pet', actual: '[…]' },
      ],
    },
    { name: 'no mismatch', id: 'load.mismatches', load: clean, applies: true, outcome: 'passed' },
    { name: 'p50 is not bounded', id: 'load.p50', load: dirty, applies: false },
    { name: 'p90 is not bounded', id: 'load.p90', load: dirty, applies: false },
    { name: 'max is not bounded', id: 'load.max', load: dirty, applies: false },
    { name: 'timeouts are not bounded by default', id: 'load.timeouts', load: dirty, applies: false },
    { name: 'rps is not bounded without a ramp', id: 'load.rps', load: dirty, applies: false },
    {
      name: 'rate-limited answers are never a verdict unless the profile bounds them',
      id: 'load.rate-limited',
      load: loadOf(profile, { ...metrics, rateLimited: 40 }),
      applies: false,
    },
    {
      name: 'rate-limited answers past the bound a profile sets',
      id: 'load.rate-limited',
      load: loadOf(profileOf({ thresholds: { rateLimited: { max: 0 } } }), { ...metrics, rateLimited: 4 }),
      applies: true,
      outcome: 'failed',
      failures: [
        {
          expected: 'at most 0 rate-limited answers (429, 503)',
          actual: '4 rate-limited answers (429, 503)',
          message: '4 rate-limited answers (429, 503) (at most 0 allowed)',
        },
      ],
    },
    {
      name: 'rate-limited answers within a share the profile allows',
      id: 'load.rate-limited',
      load: loadOf(profileOf({ thresholds: { rateLimited: { maxRate: 0.02 } } }), { ...metrics, rateLimited: 11 }),
      applies: true,
      outcome: 'passed',
      message: '11 rate-limited answers (429, 503) of 1000 requests (1.100 %; at most 2 % of requests allowed)',
    },
  ];
  for (const row of rows) {
    const j = judge(row.id, { load: row.load });
    t.equal(j.applies, row.applies, `${row.name} (${row.id}): applies`);
    if (!row.applies) continue;
    t.equal(j.outcome, row.outcome, `${row.name}: ${j.message}`);
    if (row.message !== undefined) t.equal(j.message, row.message, `${row.name}: message`);
    if (row.failures !== undefined) assertFailures(t, j, row.failures, row.name);
  }
  t.same(runCheck('load.p99').sourceOf({ load: dirty }), P99_SOURCE, 'a declared threshold is the source');
  t.equal(runCheck('load.errors').sourceOf({ load: dirty }), undefined, 'an implicit bound has no line');
});

t.test('load.pressure: the pressure step held to the count thresholds alone, never the judged stage', async (t) => {
  const pressured = profileOf({ pressure: { connections: 24, duration: 0.5 }, thresholds: { p99: { max: 50 }, errors: { max: 2 } } });
  const main: LoadStage = { metrics: metricsOf(), breached: [], raw: [] };
  const step = (over: Partial<LoadMetrics>): LoadStage => ({
    metrics: metricsOf({ requests: 900, responses: 900, durationSeconds: 0.5, rps: 1800, ...over }),
    breached: [],
    raw: [],
    pressure: { connections: 24 },
  });
  const rows: Array<{ name: string; load: LoadReport; applies: boolean; outcome?: string; message?: RegExp }> = [
    { name: 'a profile without a step', load: loadOf(profileOf(), metricsOf(), { stages: [main] }), applies: false },
    {
      name: 'a clean step passes, its figures named (its p99 of 900 ms is its own, at full speed)',
      load: loadOf(pressured, metricsOf(), { stages: [main, step({ latency: { p50: 400, p90: 800, p99: 900, max: 990, mean: 420 } })] }),
      applies: true,
      outcome: 'passed',
      message: /^24 connections for 0\.5 s: 900 requests, 1800 responses\/s; errors 0, resets 0, non2xx 0, mismatches 0$/,
    },
    {
      name: 'errors past the bound, non-2xx and resets past 0',
      load: loadOf(pressured, metricsOf(), { stages: [main, step({ errors: 3, resets: 1, non2xx: 7 })] }),
      applies: true,
      outcome: 'failed',
      message: /at 24 connections .*: errors: 3 failed requests .*at most 2 allowed/,
    },
    {
      name: 'a step the load never reached (Ctrl-C, budget)',
      load: loadOf(pressured, metricsOf(), { stages: [main] }),
      applies: true,
      outcome: 'could-not-test',
      message: /the pressure step did not run/,
    },
  ];
  for (const row of rows) {
    const j = judge('load.pressure', { load: row.load });
    t.equal(j.applies, row.applies, `${row.name}: applies`);
    if (!row.applies) continue;
    t.equal(j.outcome, row.outcome, `${row.name}: ${j.message}`);
    const text = j.outcome === 'failed' ? j.failures.map((f) => f.message).join('; ') : j.message;
    t.match(text, row.message ?? /./, row.name);
  }
  t.same(
    breachedMetrics(pressured, step({ errors: 3, non2xx: 1, latency: { p50: 1, p90: 1, p99: 900, max: 900, mean: 1 } })),
    ['errors', 'non2xx'],
    "a pressure step breaks only what it is held to: its p99 is not the profile's",
  );
});

t.test('a ramp: rps judged against 90 % of the judged rate', async (t) => {
  t.equal(RATE_HELD_SHARE, 0.9);
  const rows: Array<{
    name: string;
    p: LoadProfile;
    rps: number;
    judgedRate?: number;
    outcome: 'passed' | 'failed';
    message: string;
    failures?: FailureWant[];
  }> = [
    {
      name: '181/s holds 200/s (floor 180)',
      p: ramp,
      rps: 181,
      judgedRate: 200,
      outcome: 'passed',
      message: '181 requests/s (at least 180 required) at 200/s',
    },
    {
      name: '180/s is exactly the floor',
      p: ramp,
      rps: 180,
      judgedRate: 200,
      outcome: 'passed',
      message: '180 requests/s (at least 180 required) at 200/s',
    },
    {
      name: '179/s does not',
      p: ramp,
      rps: 179,
      judgedRate: 200,
      outcome: 'failed',
      message: '179 requests/s (at least 180 required) at 200/s',
      failures: [
        { expected: 'at least 180 requests/s', actual: '179 requests/s', message: '179 requests/s (at least 180 required) at 200/s' },
      ],
    },
    {
      name: 'the floor is rounded down (90 % of 105 is 94.5)',
      p: ramp,
      rps: 94,
      judgedRate: 105,
      outcome: 'passed',
      message: '94 requests/s (at least 94 required) at 105/s',
    },
    {
      name: 'a profile minimum above the floor wins',
      p: profileOf({ ramp: RAMP, thresholds: { rps: { min: 300 } } }),
      rps: 250,
      judgedRate: 200,
      outcome: 'failed',
      message: '250 requests/s (at least 300 required) at 200/s',
    },
    { name: 'no judged rate: no floor', p: ramp, rps: 1, outcome: 'passed', message: '1 requests/s (at least 0 required)' },
  ];
  for (const row of rows) {
    const j = judge('load.rps', {
      load: loadOf(row.p, { ...metrics, rps: row.rps }, row.judgedRate === undefined ? {} : { judgedRate: row.judgedRate }),
    });
    t.ok(j.applies, `${row.name}: a ramp always judges rps`);
    t.equal(j.outcome, row.outcome, `${row.name}: ${j.message}`);
    t.equal(j.message, row.message, `${row.name}: message`);
    if (row.failures !== undefined) assertFailures(t, j, row.failures, row.name);
  }
});

t.test('load.capacity: passed, failed, or could not be tested', async (t) => {
  const stage = (rate: number, breached: Metric[]): LoadStage => ({ rate, metrics, breached, raw: [] });
  const fromOnly = profileOf({ ramp: { from: 100, to: 300, step: 100, stageDuration: 1 } });
  const rows: Array<{
    name: string;
    p: LoadProfile;
    extra: Partial<LoadReport>;
    outcome: Judgement['outcome'];
    message: string | RegExp;
    failures?: FailureWant[];
  }> = [
    {
      name: 'every stage held',
      p: ramp,
      extra: { stages: [stage(100, []), stage(200, []), stage(300, [])], highestRateHeld: 300 },
      outcome: 'passed',
      message: 'the highest rate that held is 300/s',
    },
    {
      name: 'a breach above the required rate',
      p: ramp,
      extra: { stages: [stage(100, []), stage(200, []), stage(300, ['p99'])], highestRateHeld: 200 },
      outcome: 'passed',
      message: 'the highest rate that held is 200/s; 300/s broke p99',
    },
    {
      name: 'a breach at the required rate',
      p: ramp,
      extra: { stages: [stage(100, []), stage(200, ['p99', 'errors'])], highestRateHeld: 100 },
      outcome: 'failed',
      message: 'the highest rate that held is 100/s; 200/s broke p99, errors',
      failures: [
        { expected: 'at least 200/s held', actual: '100/s', message: 'the highest rate that held is 100/s; 200/s broke p99, errors' },
      ],
    },
    {
      name: 'a breach at the first stage',
      p: ramp,
      extra: { stages: [stage(100, ['rps'])] },
      outcome: 'failed',
      message: 'no stage held; 100/s broke rps',
      failures: [{ expected: 'at least 200/s held', actual: 'none' }],
    },
    {
      name: 'the ramp ended before the required rate',
      p: ramp,
      extra: { stages: [stage(100, [])], highestRateHeld: 100 },
      outcome: 'could-not-test',
      message: /^the highest rate that held is 100\/s \(the ramp ended before 200\/s: /,
    },
    {
      name: 'no stage ran',
      p: ramp,
      extra: { stages: [] },
      outcome: 'could-not-test',
      message: /^no stage held \(the ramp ended before 200\/s/,
    },
    {
      name: 'without require, the first rate must hold: it did',
      p: fromOnly,
      extra: { stages: [stage(100, []), stage(200, ['p99'])], highestRateHeld: 100 },
      outcome: 'passed',
      message: 'the highest rate that held is 100/s; 200/s broke p99',
    },
    {
      name: 'without require, the first rate must hold: it did not',
      p: fromOnly,
      extra: { stages: [stage(100, ['p99'])] },
      outcome: 'failed',
      message: 'no stage held; 100/s broke p99',
      failures: [{ expected: 'at least 100/s held', actual: 'none' }],
    },
  ];
  for (const row of rows) {
    const j = judge('load.capacity', { load: loadOf(row.p, metrics, row.extra) });
    t.ok(j.applies, `${row.name}: applies to a ramp`);
    t.equal(j.outcome, row.outcome, `${row.name}: ${j.message}`);
    if (typeof row.message === 'string') t.equal(j.message, row.message, `${row.name}: message`);
    else t.match(j.message, row.message, `${row.name}: message`);
    if (row.outcome === 'failed') assertFailures(t, j, row.failures ?? [], row.name);
  }
  t.equal(judge('load.capacity', { load: loadOf(profile, metrics) }).applies, false, 'no ramp, no capacity');
  t.same(runCheck('load.capacity').sourceOf({ load: loadOf(ramp, metrics) }), RAMP_SOURCE, 'the ramp is the source');
  t.same(breachedMetrics(ramp, stage(200, [])), ['errors', 'non2xx'], 'a stage breaks what its figures break');
  t.same(breachedMetrics(ramp, stage(600, [])), ['rps', 'errors', 'non2xx'], '499/s does not hold 600/s (floor 540)');
  t.same(
    breachedMetrics(ramp, { rate: 100, metrics: metricsOf({ errors: 1, resets: 1 }), breached: [], raw: [] }),
    ['errors', 'resets'],
    'a reset breaks a stage, and ends the ramp',
  );
  t.same(
    breachedMetrics(ramp, { rate: 100, metrics: metricsOf({ rps: 90 }), breached: [], raw: [] }),
    [],
    'a clean stage at 90 % of its rate holds',
  );
  t.same(breachedMetrics(ramp, { rate: 100, metrics: metricsOf({ rps: 89 }), breached: [], raw: [] }), ['rps'], '89 % does not');
});

t.test('load.baseline.<metric>: a regression beyond the tolerance (and its slack) fails', async (t) => {
  const base = metricsOf(); // p50 10 ms, p99 50 ms, 1000/s, no errors, 10 000 requests
  const lat = (p50: number, p99 = 50): LoadMetrics => ({ ...base, latency: { ...base.latency, p50, p99 } });
  const rows: Array<{
    name: string;
    current: LoadMetrics;
    tolerance?: number;
    baseline?: LoadMetrics;
    want: Partial<Record<'p50' | 'p99' | 'rps' | 'errorRate', 'passed' | 'failed'>>;
  }> = [
    { name: 'the same figures', current: base, want: { p50: 'passed', p99: 'passed', rps: 'passed', errorRate: 'passed' } },
    {
      name: 'better figures never regress',
      current: { ...lat(5, 20), rps: 2000 },
      want: { p50: 'passed', p99: 'passed', rps: 'passed', errorRate: 'passed' },
    },
    { name: 'p50 12 ms: 10 % plus the 1 ms slack', current: lat(12), want: { p50: 'passed' } },
    { name: 'p50 12.01 ms: beyond it', current: lat(12.01), want: { p50: 'failed' } },
    { name: 'p99 56 ms: 10 % plus the 1 ms slack', current: lat(10, 56), want: { p99: 'passed' } },
    { name: 'p99 56.5 ms: beyond it', current: lat(10, 56.5), want: { p99: 'failed' } },
    { name: 'p99 20 % higher', current: lat(10, 60), want: { p99: 'failed', p50: 'passed' } },
    { name: 'rps 900/s: 10 % lower', current: { ...base, rps: 900 }, want: { rps: 'passed' } },
    { name: 'rps 899/s: beyond it, no slack', current: { ...base, rps: 899 }, want: { rps: 'failed' } },
    { name: 'a wider tolerance: p50 16 ms within 50 % + 1 ms', current: lat(16), tolerance: 0.5, want: { p50: 'passed' } },
    { name: 'a wider tolerance: p50 16.5 ms beyond it', current: lat(16.5), tolerance: 0.5, want: { p50: 'failed' } },
    { name: '0.1 % of errors from none is the slack', current: { ...base, non2xx: 10 }, want: { errorRate: 'passed' } },
    { name: '0.11 % of errors from none is not', current: { ...base, non2xx: 11 }, want: { errorRate: 'failed' } },
    {
      name: 'the error rate counts failed requests, non-2xx and mismatches',
      current: { ...base, errors: 4, non2xx: 4, mismatches: 4 },
      want: { errorRate: 'failed', p50: 'passed' },
    },
    {
      name: 'from 1 % of errors, 1.15 % is within 10 % + 0.1 pp',
      baseline: { ...base, non2xx: 100 },
      current: { ...base, non2xx: 115 },
      want: { errorRate: 'passed' },
    },
    {
      name: 'from 1 % of errors, 1.25 % is not',
      baseline: { ...base, non2xx: 100 },
      current: { ...base, non2xx: 125 },
      want: { errorRate: 'failed' },
    },
  ];
  for (const row of rows) {
    const baseline: Baseline = { file: 'last/report.json', metrics: row.baseline ?? base, tolerance: row.tolerance ?? 0.1 };
    for (const [metric, outcome] of Object.entries(row.want)) {
      const j = judge(`load.baseline.${metric}`, { load: loadOf(profile, row.current), baseline });
      t.ok(j.applies, `${row.name}: ${metric} applies with a baseline`);
      t.equal(j.outcome, outcome, `${row.name}: ${metric}: ${j.message}`);
    }
  }
});

t.test('load.baseline.<metric>: typed failures, and no comparison without a baseline', async (t) => {
  const base = metricsOf();
  const baseline: Baseline = { file: 'last/report.json', metrics: base, tolerance: 0.1 };
  const p99 = judge('load.baseline.p99', { load: loadOf(profile, { ...base, latency: { ...base.latency, p99: 60 } }), baseline });
  assertFailures(
    t,
    p99,
    [
      {
        expected: 'not higher than 50 by more than 10 %',
        actual: '60',
        message: 'p99 60 vs baseline 50 in last/report.json (+20.0 %; a regression is higher by more than 10 %)',
      },
    ],
    'p99',
  );
  const rps = judge('load.baseline.rps', { load: loadOf(profile, { ...base, rps: 850 }), baseline });
  assertFailures(
    t,
    rps,
    [
      {
        expected: 'not lower than 1000 by more than 10 %',
        actual: '850',
        message: 'rps 850 vs baseline 1000 in last/report.json (-15.0 %; a regression is lower by more than 10 %)',
      },
    ],
    'rps',
  );
  const errors = judge('load.baseline.errorRate', { load: loadOf(profile, { ...base, non2xx: 50 }), baseline });
  assertFailures(
    t,
    errors,
    [
      {
        expected: 'not higher than 0 by more than 10 %',
        actual: '0.005',
        message: /^errorRate 0\.005 vs baseline 0 in last\/report\.json \(from 0; /,
      },
    ],
    'errorRate from 0',
  );
  t.match(
    judge('load.baseline.p50', { load: loadOf(profile, base), baseline }).message,
    /^p50 10 vs baseline 10 in last\/report\.json \(\+0\.0 %;/,
    'a pass says the change too',
  );
  for (const metric of ['p50', 'p99', 'rps', 'errorRate']) {
    const check = runCheck(`load.baseline.${metric}`);
    t.equal(check.applies({ load: loadOf(profile, base) }), false, `${metric}: no baseline, no comparison`);
    t.equal(check.sourceOf(contextOf({ load: loadOf(profile, base), baseline })), undefined, `${metric}: no source line`);
  }
  t.equal(errorRate({ ...base, errors: 10, non2xx: 20, mismatches: 20 }), 0.005);
  t.equal(errorRate(metricsOf({ requests: 0 })), 0, 'no requests, no error rate');
  t.same(
    compareWithBaseline(base, { ...base, rps: 1100, latency: { ...base.latency, p99: 75 } }, 0.1).map((c) => [
      c.metric,
      c.change,
      c.regressed,
    ]),
    [
      ['p50', 0, false],
      ['p99', 0.5, true],
      ['rps', 0.1, false],
      ['errorRate', 0, false],
    ],
  );
});

t.test('the registry: every check once, fully described, found by id and by expectation key', async (t) => {
  const all = [...REGISTRY.values()];
  t.equal(new Set(all.map((c) => c.id)).size, all.length, 'ids are unique');
  t.same(
    [...REGISTRY.keys()],
    all.map((c) => c.id),
    'each check under its own id',
  );
  t.same(
    all.map((c) => c.id),
    [
      ...EXPECTATION_CHECKS,
      ...SILENCE_POLICY_CHECKS,
      ...EXCHANGE_CHECKS,
      ...INVARIANT_CHECKS,
      ...TRANSPORT_CHECKS,
      ...LOAD_CHECKS,
      ...REQUEST_SPACE_CHECKS,
    ].map((c) => c.id),
    'every check of every kind, in order',
  );
  t.equal(
    all.length,
    18 + 7 + 7 + 1 + 11 + 1 + 1 + 1 + 3 + 4 + 3,
    "18 expectation checks (the silence policy and its two recommendations among them), 7 exchange checks, 7 store invariants, 1 transport check, 11 thresholds, capacity, pressure, trend, 3 store invariants on the load's listings, 4 baseline comparisons, 3 request-space relations",
  );
  const prefix: Record<Check['scope'], RegExp> = {
    case: /^expect\.[a-zA-Z]+(\.[a-z-]+)?$/,
    exchange: /^(server|wire|contract|errors|auth|store)\.[a-z0-9-]+$/,
    transport: /^server\.[a-z-]+$/,
    run: /^load\.[a-zA-Z0-9.-]+$/,
  };
  for (const check of all) {
    t.ok(['fail', 'warn'].includes(check.level), `${check.id}: level`);
    t.ok(['exchange', 'case', 'run', 'transport'].includes(check.scope), `${check.id}: scope`);
    t.match(check.id, prefix[check.scope], `${check.id}: the id names its kind`);
    for (const field of ['title', 'clause', 'appliesWhen'] as const)
      t.ok(typeof check[field] === 'string' && check[field].trim() !== '', `${check.id}: ${field}`);
  }
  t.same(
    runChecks.map((c) => c.id),
    [
      'load.p50',
      'load.p90',
      'load.p99',
      'load.max',
      'load.rps',
      'load.errors',
      'load.timeouts',
      'load.resets',
      'load.non2xx',
      'load.mismatches',
      'load.rate-limited',
      'load.capacity',
      'load.pressure',
      'load.trend',
      'load.listing-complete',
      'load.listing-limit',
      'load.listing-status',
      'load.baseline.p50',
      'load.baseline.p99',
      'load.baseline.rps',
      'load.baseline.errorRate',
    ],
  );

  t.throws(
    () => buildRegistry([...all, all[0] as Check]),
    { message: "check id 'expect.status' is registered twice" },
    'a duplicate id is refused, named',
  );
  const capacity = REGISTRY.get('load.capacity') as Check;
  t.throws(
    () => buildRegistry([capacity, ...EXCHANGE_CHECKS, { ...capacity, title: 'another' }]),
    { message: "check id 'load.capacity' is registered twice" },
    'whatever else differs',
  );
  t.same(
    [...buildRegistry(EXCHANGE_CHECKS).keys()],
    EXCHANGE_CHECKS.map((c) => c.id),
    'distinct ids build',
  );

  t.equal(expectationCheck('status')?.id, 'expect.status');
  for (const key of EXPECTATION_KEYS) t.equal(expectationCheck(key)?.id, `expect.${key}`, `${key} → expect.${key}`);
  t.equal(expectationCheck('when'), undefined, '`when` is structure, not a check');
  t.equal(expectationCheck('nope'), undefined);

  const schema = JSON.parse(await readFile(fileURLToPath(new URL('../../../schemas/scenario.schema.json', import.meta.url)), 'utf8')) as {
    $defs: { expectations: { properties: Record<string, unknown> } };
  };
  const keys = Object.keys(schema.$defs.expectations.properties).filter((k) => k !== 'when');
  t.ok(keys.length > 5, `${keys.length} expectation keys in the scenario schema`);
  t.same(
    [...EXPECTATION_KEYS].sort(),
    [...keys, 'capture'].sort(),
    'each expectation key of the scenario schema has its check, and no check lacks its key',
  );
});

t.test('load.<metric>: the verdict carries how it was judged (the bound as load tools print it, what was measured)', async (t) => {
  const bounded = profileOf({ thresholds: { p99: { max: 50 }, errors: { maxRate: 0.001 }, rps: { min: 400 } } });
  const rows: Array<[string, Metric, LoadMetrics, 'passed' | 'failed', { expression: string; measured: string }]> = [
    ['a latency within its bound', 'p99', metrics, 'passed', { expression: 'p99 <= 50 ms', measured: 'p99 = 40 ms' }],
    [
      'a latency with no response',
      'p99',
      metricsOf({ responses: 0, requests: 10 }),
      'failed',
      { expression: 'p99 <= 50 ms', measured: 'p99: no response' },
    ],
    [
      'a share of the requests',
      'errors',
      metrics,
      'failed',
      { expression: 'errors <= 0.1 % of requests', measured: 'errors = 2 of 1000 (0.200 %)' },
    ],
    ['a rate', 'rps', metrics, 'passed', { expression: 'rps >= 400/s', measured: 'rps = 499/s' }],
    ['a count bounded at 0 by default', 'non2xx', metrics, 'failed', { expression: 'non2xx <= 0', measured: 'non2xx = 5' }],
  ];
  for (const [name, metric, measured, outcome, threshold] of rows) {
    const check = runChecks.find((c) => c.id === `load.${metric}`);
    const judged = check?.evaluate({ load: loadOf(bounded, measured) });
    t.equal(judged?.outcome, outcome, `${name}: ${outcome}`);
    t.same(judged !== undefined && 'threshold' in judged ? judged.threshold : undefined, threshold, `${name}: its line`);
  }
});
