import t from 'tap';
import type { LoadProfile } from '../src/model/load.js';
import { effectiveThresholds, judgeThreshold, thresholdChecks } from '../src/load/thresholds.js';
import { metricsOf } from './load-fixtures.js';

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

const profile = {
  name: 'demo',
  file: 'scenarios/load/demo.yaml',
  thresholds: { p99: { max: 50 } },
  thresholdSources: { p99: { file: 'scenarios/load/demo.yaml', line: 9, column: 3 } },
} as unknown as LoadProfile;

t.test('max, min and maxRate bounds judge the real metric', async (t) => {
  t.equal(judgeThreshold('p99', { max: 50 }, metrics).ok, true);
  t.equal(judgeThreshold('p99', { max: 39 }, metrics).ok, false);
  t.equal(judgeThreshold('rps', { min: 500 }, metrics).ok, false);
  t.equal(judgeThreshold('rps', { min: 0 }, metrics, 450).ok, true);
  t.equal(judgeThreshold('rps', { min: 0 }, metrics, 600).ok, false, 'a ramp floor raises the minimum');
  t.equal(judgeThreshold('non2xx', { maxRate: 0.01 }, metrics).ok, true, '0.5 % is within 1 %');
  t.equal(judgeThreshold('non2xx', { maxRate: 0.001 }, metrics).ok, false);
  t.match(judgeThreshold('errors', { max: 0 }, metrics).message, /2 failed requests .*at most 0 allowed/);
});

t.test('failed requests and contract violations are judged even when the profile names no bound', async (t) => {
  t.same(effectiveThresholds(profile).map(([m]) => m), ['p99', 'errors', 'non2xx', 'mismatches']);
  t.same(effectiveThresholds({ ...profile, ramp: { from: 1, to: 2, step: 1, stageDuration: 1 } }).map(([m]) => m), ['p99', 'rps', 'errors', 'non2xx', 'mismatches']);
});

t.test('each threshold becomes a check with a stable id, its source, and evidence for violations', async (t) => {
  const checks = thresholdChecks(
    profile,
    effectiveThresholds(profile).map(([m, th]) => judgeThreshold(m, th, { ...metrics, mismatches: 1 })),
    [{ target: '/pets?status=sold', status: 200, problems: ['item 0 has status "available"'], bodyExcerpt: '[]' }],
  );
  t.same(checks.map((c) => [c.id, c.outcome]), [
    ['load.demo.p99', 'passed'],
    ['load.demo.errors', 'failed'],
    ['load.demo.non2xx', 'failed'],
    ['load.demo.mismatches', 'failed'],
  ]);
  t.same(checks[0]?.source, { file: 'scenarios/load/demo.yaml', line: 9, column: 3 });
  t.match(checks[3]?.assertions[0]?.details, ['GET /pets?status=sold → 200: item 0 has status "available"']);
  t.equal(checks[1]?.suite, 'load');
});
