/**
 * A load's baseline compares like with like (src/cli/baseline-plan.ts): another profile, base URL, suite version or
 * request mix is refused in one line for a load alone, and shown as not comparable by a run (its checks not judged).
 */
import t from 'tap';
import { runChecks } from '../../../src/checks/registry.js';
import { loadBaseline, loadUnlike } from '../../../src/cli/baseline-plan.js';
import { packageVersion } from '../../../src/loader/package-paths.js';
import type { BaselineReport } from '../../../src/loader/report-files.js';
import { RunError } from '../../../src/model/errors.js';
import type { LoadProfile } from '../../../src/model/load.js';
import { loadReportOf, metricsOf, profileOf } from '../../load-fixtures.js';

const STAGING = 'https://staging.example.com/v1';

function readOf(profile: LoadProfile, extra: Partial<BaselineReport> = {}): BaselineReport {
  return { version: packageVersion(), target: STAGING, load: loadReportOf(profile, metricsOf()), ...extra };
}

t.test('what makes a baseline load unlike the one about to run', async (t) => {
  const smoke = profileOf({ name: 'smoke', queries: [{ weight: 1 }] });
  const rows: Array<[string, BaselineReport, RegExp[]]> = [
    ['the same load', readOf(smoke), []],
    ['another profile', readOf({ ...smoke, name: 'nightly' }), [/^profile nightly, this run smoke$/]],
    ['another base URL', readOf(smoke, { target: 'embedded' }), [/^base URL embedded, this run https:\/\/staging/]],
    ['another suite version', readOf(smoke, { version: '0.0.1' }), [/^suite version 0\.0\.1, this run /]],
    [
      'another request mix',
      readOf({ ...smoke, queries: [{ weight: 1, limit: 100 }] }),
      [/^request mix any\/100×1, this run any\/default×1$/],
    ],
  ];
  for (const [name, read, want] of rows) t.match(loadUnlike(read, smoke, STAGING), want, name);
});

t.test('a load alone refuses an unlike baseline in one line; a run shows it as not comparable, its checks not judged', async (t) => {
  const smoke = profileOf({ name: 'smoke', queries: [{ weight: 1 }] });
  const nightly = readOf({ ...smoke, name: 'nightly' });
  t.throws(() => loadBaseline('last/report.json', nightly, { profile: smoke, target: STAGING, tolerance: 0.1, refuse: true }), {
    code: 'ERR_USAGE',
    message: /^--baseline last\/report\.json is not comparable: profile nightly, this run smoke; compare a load with one of the same/,
  });
  const shown = loadBaseline('last/report.json', nightly, { profile: smoke, target: STAGING, tolerance: 0.1, refuse: false });
  t.same(shown?.notComparable, ['profile nightly, this run smoke']);
  const noLoad = { version: packageVersion(), target: STAGING };
  t.throws(
    () => loadBaseline('x.json', noLoad, { profile: smoke, target: STAGING, tolerance: 0.1, refuse: true }),
    RunError,
    'a load alone needs a load in its baseline',
  );
  t.equal(loadBaseline('x.json', noLoad, { profile: smoke, target: STAGING, tolerance: 0.1, refuse: false }), undefined);
  const check = runChecks.find((c) => c.id === 'load.baseline.p99');
  const load = {
    ...loadReportOf(smoke, metricsOf()),
    baseline: { file: 'last/report.json', tolerance: 0.1, comparisons: [], notComparable: ['profile nightly, this run smoke'] },
  };
  const judged = check?.evaluate({ load });
  t.equal(judged?.outcome, 'not-judged');
  t.match(judged?.message, /^not comparable: the baseline last\/report\.json is of another load \(profile nightly, this run smoke\)$/);
});
