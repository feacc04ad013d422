import t from 'tap';
import { aggregateRuns } from '../dist/load/aggregate.js';
import { runStage } from '../dist/load/runner.js';
import { withLoadFaults } from '../dist/server/load-faults.js';
import { startReferenceServer } from '../dist/server/reference-server.js';

const KEY = 'aggregate-key-1b2c3d';

t.test('runs merge by their histograms: counts and rates add up, percentiles come from the merged histogram', async (t) => {
  const slow = await startReferenceServer({ apiKey: KEY, wrap: withLoadFaults(['load-slow']) });
  const fast = await startReferenceServer({ apiKey: KEY });
  t.teardown(async () => {
    await slow.close();
    await fast.close();
  });
  const stage = (baseUrl: string) => runStage({ baseUrl, apiKey: KEY, profileName: 't', queries: [{ weight: 1 }], connections: 2, durationSeconds: 0.6, maxRequests: 300, timeoutSeconds: 2 });
  const [a, b] = await Promise.all([stage(slow.baseUrl), stage(fast.baseUrl)]);
  const one = aggregateRuns([a], slow.baseUrl);
  const two = aggregateRuns([b], fast.baseUrl);
  const both = aggregateRuns([a, b], slow.baseUrl);
  t.equal(both.responses, one.responses + two.responses);
  t.equal(both.requests, one.requests + two.requests);
  t.ok(Math.abs(both.rps - (one.rps + two.rps)) < 1, 'machines ran at once: rates add up');
  t.ok(one.latency.p50 >= 250 && two.latency.p50 < 250, 'the slow server is slow');
  t.equal(both.latency.max, Math.max(one.latency.max, two.latency.max));
  t.ok(both.latency.p99 >= 250, 'the slow tail survives the merge');
  t.ok(two.requests <= 300, 'bounded by the request budget');
  t.same(a.autocannon, JSON.parse(JSON.stringify(a.autocannon)), 'the raw result is plain JSON');
  aggregateRuns([a, b], slow.baseUrl);
  t.equal(aggregateRuns([a], slow.baseUrl).responses, one.responses, 'aggregating leaves its input untouched');
});
