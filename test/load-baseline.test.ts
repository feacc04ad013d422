import t from 'tap';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compareWithBaseline, errorRate } from '../src/checks/load-checks.js';
import { readBaseline } from '../src/loader/report-files.js';
import type { LoadMetrics } from '../src/model/load.js';
import { RunError } from '../src/model/errors.js';
import { tempDir } from './helpers.js';
import { metricsOf } from './load-fixtures.js';

const base = metricsOf();

const regressed = (current: LoadMetrics, tolerance = 0.1): string[] => compareWithBaseline(base, current, tolerance).filter((c) => c.regressed).map((c) => c.metric);

t.test('a change within the tolerance is no regression; beyond it, it is', async (t) => {
  t.same(regressed(base), []);
  t.same(regressed({ ...base, rps: 950, latency: { ...base.latency, p50: 10.9, p99: 55 } }), [], 'within 10 %');
  t.same(regressed({ ...base, rps: 850 }), ['rps']);
  t.same(regressed({ ...base, latency: { ...base.latency, p99: 60 } }), ['p99']);
  t.same(regressed({ ...base, latency: { ...base.latency, p50: 13 } }, 0.5), [], 'a wider tolerance');
  t.same(regressed({ ...base, non2xx: 5 }), [], '0.05 % of errors is within the slack');
  t.same(regressed({ ...base, non2xx: 50, errors: 10 }), ['errorRate']);
  t.equal(errorRate({ ...base, errors: 10, non2xx: 20, mismatches: 20 }), 0.005);
  const p99 = compareWithBaseline(base, { ...base, latency: { ...base.latency, p99: 75 } }, 0.1).find((c) => c.metric === 'p99');
  t.equal(p99?.change, 0.5);
});

t.test('a baseline file that is not a load report is a usage error', async (t) => {
  const dir = await tempDir();
  await writeFile(path.join(dir, 'x.json'), '{"checks": []}');
  await t.rejects(readBaseline(path.join(dir, 'x.json')), RunError);
  await t.rejects(readBaseline(path.join(dir, 'missing.json')), /cannot read \(ENOENT\)/);
  await writeFile(path.join(dir, 'ok.json'), JSON.stringify({ load: { metrics: base } }));
  t.same(await readBaseline(path.join(dir, 'ok.json')), base);
});
