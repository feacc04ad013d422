/**
 * A load compared with its baseline beyond noise (src/load/baseline-compare.ts): a change within both runs' intervals is
 * no regression, one past them beyond the tolerance is, too few samples say so, and an unlike baseline compares nothing.
 */
import t from 'tap';
import { compareLoads } from '../../../src/load/baseline-compare.js';
import { encodeHistogram, latencyHistogram, recordMs } from '../../../src/load/latency-histogram.js';
import type { Baseline } from '../../../src/model/check.js';
import type { LoadReport } from '../../../src/model/load.js';
import { loadReportOf, metricsOf, profileOf, rawRunOf } from '../../load-fixtures.js';

/** A load of `n` responses whose latencies spread evenly from `low` to `high` ms, over `seconds` seconds at `rps` each. */
function loadOf(n: number, low: number, high: number, seconds = 10, rps = 1000): LoadReport {
  const histogram = latencyHistogram();
  for (let i = 0; i < n; i += 1) recordMs(histogram, low + ((high - low) * i) / Math.max(1, n - 1));
  const throughput = Array.from({ length: seconds + 1 }, (_, i) => ({ t: i + 1, rps: rps + (i % 2 === 0 ? 5 : -5) }));
  const p = (q: number): number => low + (high - low) * q;
  const metrics = metricsOf({
    requests: n,
    responses: n,
    rps,
    latency: { p50: p(0.5), p90: p(0.9), p99: p(0.99), max: high, mean: p(0.5) },
  });
  const raw = rawRunOf({ requests: n, responses: n, latencyHistogram: encodeHistogram(histogram), throughput });
  return loadReportOf(profileOf(), metrics, { stages: [{ metrics, breached: [], raw: [raw] }] });
}

function baselineOf(load: LoadReport, extra: Partial<Baseline> = {}): Baseline {
  return { file: 'last/report.json', metrics: load.metrics, tolerance: 0.1, load, ...extra };
}

t.test('a regression only beyond the noise both runs show', async (t) => {
  const rows: Array<{ name: string; was: LoadReport; now: LoadReport; regressed: Record<string, boolean | 'too few'> }> = [
    {
      name: 'the same spread: nothing regressed',
      was: loadOf(5000, 1, 20),
      now: loadOf(5000, 1, 20),
      regressed: { p50: false, p99: false, rps: false, errorRate: false },
    },
    {
      name: 'every latency doubled: p50 and p99 regressed',
      was: loadOf(5000, 1, 20),
      now: loadOf(5000, 2, 40),
      regressed: { p50: true, p99: true, rps: false },
    },
    {
      name: 'throughput halved: rps regressed',
      was: loadOf(5000, 1, 20, 10, 1000),
      now: loadOf(5000, 1, 20, 10, 500),
      regressed: { rps: true, p50: false },
    },
    {
      name: 'a few hundred responses: p99 cannot be told from noise, p50 can',
      was: loadOf(300, 1, 20),
      now: loadOf(300, 1, 60),
      regressed: { p99: 'too few', p50: true },
    },
    {
      name: 'three seconds: rps cannot be told from noise',
      was: loadOf(5000, 1, 20, 3, 1000),
      now: loadOf(5000, 1, 20, 3, 100),
      regressed: { rps: 'too few' },
    },
  ];
  for (const row of rows) {
    const comparisons = compareLoads(baselineOf(row.was), row.now);
    for (const [metric, want] of Object.entries(row.regressed)) {
      const c = comparisons.find((x) => x.metric === metric);
      if (want === 'too few') {
        t.match(c?.tooFewSamples, /too few samples to tell .* from noise/, `${row.name}: ${metric}`);
        t.equal(c?.regressed, false, `${row.name}: ${metric} is never a regression then`);
      } else t.equal(c?.regressed, want, `${row.name}: ${metric} (${JSON.stringify(c)})`);
    }
  }
});

t.test('a baseline unlike the load compares nothing; one without samples says so', async (t) => {
  const load = loadOf(5000, 1, 20);
  t.same(compareLoads(baselineOf(load, { notComparable: ['profile nightly, this run smoke'] }), load), []);
  const { load: _dropped, ...figuresOnly } = baselineOf(load);
  const comparisons = compareLoads(figuresOnly, load);
  t.equal(comparisons.length, 4);
  // The error rate's interval needs only the counts, which the figures hold.
  const latencyAndRps = comparisons.filter((c) => c.metric !== 'errorRate');
  t.ok(latencyAndRps.every((c) => c.tooFewSamples?.startsWith('the baseline has too few samples')));
  t.ok(comparisons.find((c) => c.metric === 'errorRate')?.ranges !== undefined);
});
