import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { breachedMetrics, compareWithBaseline, effectiveThresholds, errorRate, judgeThreshold } from '../dist/checks/load-checks.js';
import { buildRegistry, EXPECTATION_KEYS, expectationCheck, REGISTRY, runChecks } from '../dist/checks/registry.js';
import type { Baseline, Judgement, LoadContext } from '../dist/model/check.js';
import type { LoadMetrics, LoadProfile, LoadReport } from '../dist/model/load.js';
import { root } from './helpers.js';
import { metricsOf } from './load-fixtures.js';

const metrics = metricsOf({ requests: 1000, responses: 998, durationSeconds: 2, rps: 499, latency: { p50: 3, p90: 8, p99: 40, max: 120, mean: 4 }, errors: 2, timeouts: 1, non2xx: 5, statusCodes: { '200': 993, '500': 5 } });

const profile = {
  name: 'demo',
  file: 'scenarios/load/demo.yaml',
  thresholds: { p99: { max: 50 } },
  thresholdSources: { p99: { file: 'scenarios/load/demo.yaml', line: 9, column: 3 } },
} as unknown as LoadProfile;

/** A load result with these figures, as the run checks see it. */
function loadOf(p: LoadProfile, m: LoadMetrics, extra: Partial<LoadReport> = {}): LoadReport {
  return { profile: p, baseUrl: 'http://127.0.0.1:9/v1', metrics: m, stages: [], violations: [], interrupted: false, percentiles: [], throughput: [], mergedRuns: 1, ...extra };
}

function judge(id: string, context: LoadContext): Judgement & { applies: boolean } {
  const check = runChecks.find((c) => c.id === id);
  if (check === undefined) throw new Error(`no run check ${id}`);
  return { ...check.evaluate(context), applies: check.applies(context) };
}

t.test('thresholds: max, min and maxRate judge the real metric', async (t) => {
  const rows: Array<[string, ReturnType<typeof judgeThreshold>, boolean]> = [
    ['p99 40 ≤ 50', judgeThreshold('p99', { max: 50 }, metrics), true],
    ['p99 40 > 39', judgeThreshold('p99', { max: 39 }, metrics), false],
    ['rps 499 < 500', judgeThreshold('rps', { min: 500 }, metrics), false],
    ['a ramp floor of 450', judgeThreshold('rps', { min: 0 }, metrics, 450), true],
    ['a ramp floor of 600 raises the minimum', judgeThreshold('rps', { min: 0 }, metrics, 600), false],
    ['0.5 % non-2xx within 1 %', judgeThreshold('non2xx', { maxRate: 0.01 }, metrics), true],
    ['0.5 % non-2xx beyond 0.1 %', judgeThreshold('non2xx', { maxRate: 0.001 }, metrics), false],
  ];
  for (const [name, verdict, ok] of rows) t.equal(verdict.ok, ok, name);
  t.match(judgeThreshold('errors', { max: 0 }, metrics).message, /2 failed requests .*at most 0 allowed/);
});

t.test('failed requests and contract violations are judged even when the profile names no bound; a ramp always judges rps', async (t) => {
  t.same(effectiveThresholds(profile).map(([m]) => m), ['p99', 'errors', 'non2xx', 'mismatches']);
  t.same(effectiveThresholds({ ...profile, ramp: { from: 1, to: 2, step: 1, stageDuration: 1 } }).map(([m]) => m), ['p99', 'rps', 'errors', 'non2xx', 'mismatches']);
});

t.test('load.<metric>: applies only where the profile bounds it, with typed failures and the threshold as source', async (t) => {
  const context = { load: loadOf(profile, { ...metrics, mismatches: 1 }, { violations: [{ target: '/pets?status=sold', status: 200, problems: ['item 0 has status "available"'], bodyExcerpt: '[]' }] }) };
  const rows: Array<[string, boolean, Judgement['outcome'] | undefined]> = [
    ['load.p99', true, 'passed'],
    ['load.errors', true, 'failed'],
    ['load.non2xx', true, 'failed'],
    ['load.mismatches', true, 'failed'],
    ['load.p50', false, undefined],
    ['load.rps', false, undefined],
  ];
  for (const [id, applies, outcome] of rows) {
    const j = judge(id, context);
    t.equal(j.applies, applies, `${id} applies: ${String(applies)}`);
    if (outcome !== undefined) t.equal(j.outcome, outcome, `${id}: ${j.message}`);
  }
  t.match(judge('load.errors', context), { failures: [{ expected: 'at most 0 failed requests (connection errors and timeouts)', actual: '2 failed requests (connection errors and timeouts)' }] });
  t.match(judge('load.mismatches', context), { failures: [{}, { message: 'GET /pets?status=sold → 200: item 0 has status "available"', actual: '[]' }] }, 'the sampled evidence');
  t.same(runChecks.find((c) => c.id === 'load.p99')?.sourceOf(context), { file: 'scenarios/load/demo.yaml', line: 9, column: 3 });
});

t.test('a ramp: rps judged against 90 % of the judged rate; capacity passed, failed or could not be tested', async (t) => {
  const ramp = { ...profile, ramp: { from: 100, to: 300, step: 100, stageDuration: 1, require: 200 } } as LoadProfile;
  const stage = (rate: number, breached: string[]): LoadReport['stages'][number] => ({ rate, metrics, breached: breached as LoadReport['stages'][number]['breached'], raw: [] });
  t.equal(judge('load.rps', { load: loadOf(ramp, { ...metrics, rps: 181 }, { judgedRate: 200 }) }).outcome, 'passed', '181/s holds 200/s (floor 180)');
  t.equal(judge('load.rps', { load: loadOf(ramp, { ...metrics, rps: 179 }, { judgedRate: 200 }) }).outcome, 'failed', '179/s does not');
  const rows: Array<[string, Partial<LoadReport>, Judgement['outcome']]> = [
    ['every stage held', { stages: [stage(100, []), stage(200, []), stage(300, [])], highestRateHeld: 300 }, 'passed'],
    ['a breach above the required rate', { stages: [stage(100, []), stage(200, []), stage(300, ['p99'])], highestRateHeld: 200 }, 'passed'],
    ['a breach at the required rate', { stages: [stage(100, []), stage(200, ['p99'])], highestRateHeld: 100 }, 'failed'],
    ['the ramp ended before the required rate', { stages: [stage(100, [])], highestRateHeld: 100 }, 'errored'],
  ];
  for (const [name, extra, outcome] of rows) t.equal(judge('load.capacity', { load: loadOf(ramp, metrics, extra) }).outcome, outcome, name);
  t.equal(judge('load.capacity', { load: loadOf(profile, metrics) }).applies, false, 'no ramp, no capacity');
  t.same(breachedMetrics(ramp, stage(200, [])), ['errors', 'non2xx'], 'a stage breaks what its figures break');
  t.same(breachedMetrics(ramp, stage(600, [])), ['rps', 'errors', 'non2xx'], '499/s does not hold 600/s');
});

t.test('baseline: a regression beyond the tolerance fails; within it (and its slack) passes', async (t) => {
  const base = metricsOf();
  const baseline = (tolerance = 0.1): Baseline => ({ file: 'last/report.json', metrics: base, tolerance });
  const rows: Array<[string, LoadMetrics, number, Record<string, Judgement['outcome']>]> = [
    ['the same figures', base, 0.1, { p50: 'passed', p99: 'passed', rps: 'passed', errorRate: 'passed' }],
    ['within 10 %', { ...base, rps: 950, latency: { ...base.latency, p50: 10.9, p99: 55 } }, 0.1, { p50: 'passed', p99: 'passed', rps: 'passed' }],
    ['rps 15 % lower', { ...base, rps: 850 }, 0.1, { rps: 'failed' }],
    ['p99 20 % higher', { ...base, latency: { ...base.latency, p99: 60 } }, 0.1, { p99: 'failed' }],
    ['a wider tolerance', { ...base, latency: { ...base.latency, p50: 13 } }, 0.5, { p50: 'passed' }],
    ['0.05 % of errors is within the slack', { ...base, non2xx: 5 }, 0.1, { errorRate: 'passed' }],
    ['0.6 % of errors is not', { ...base, non2xx: 50, errors: 10 }, 0.1, { errorRate: 'failed' }],
  ];
  for (const [name, current, tolerance, want] of rows) {
    for (const [metric, outcome] of Object.entries(want)) t.equal(judge(`load.baseline.${metric}`, { load: loadOf(profile, current), baseline: baseline(tolerance) }).outcome, outcome, `${name}: ${metric}`);
  }
  t.equal(judge('load.baseline.p99', { load: loadOf(profile, base) }).applies, false, 'no baseline, no comparison');
  t.equal(errorRate({ ...base, errors: 10, non2xx: 20, mismatches: 20 }), 0.005);
  t.equal(compareWithBaseline(base, { ...base, latency: { ...base.latency, p99: 75 } }, 0.1).find((c) => c.metric === 'p99')?.change, 0.5);
});

t.test('the registry: every check once, described, and the expectation keys in step with the scenario schema', async (t) => {
  const all = [...REGISTRY.values()];
  t.equal(new Set(all.map((c) => c.id)).size, all.length, 'ids are unique');
  for (const check of all) t.ok(check.id !== '' && check.title !== '' && check.clause !== '' && check.appliesWhen !== '' && ['fail', 'warn'].includes(check.level) && ['exchange', 'case', 'run'].includes(check.scope), `${check.id} is fully described`);
  t.throws(() => buildRegistry([...all, all[0] as (typeof all)[number]]), /check id 'expect\.status' is registered twice/, 'a duplicate id is refused at start-up');
  t.equal(expectationCheck('status')?.id, 'expect.status');
  t.equal(expectationCheck('when'), undefined, '`when` is structure, not a check');
  const schema = JSON.parse(await readFile(path.join(root, 'schemas/scenario.schema.json'), 'utf8')) as { $defs: { expectations: { properties: Record<string, unknown> } } };
  const keys = Object.keys(schema.$defs.expectations.properties).filter((k) => k !== 'when');
  t.same([...EXPECTATION_KEYS].sort(), [...keys, 'capture'].sort(), 'each expectation key of the scenario schema has its check, and no check lacks its key');
});
