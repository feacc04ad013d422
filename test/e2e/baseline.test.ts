/**
 * --baseline for a run's cases, and --fail-on new, against a broken store: a second run on the first one's report says
 * what changed since, passes with --fail-on new while nothing is new, and fails once one more violation appears. A load
 * compared with a baseline of another profile is refused in one line before anything is sent.
 */
import t, { type Test } from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packageVersion } from '../../src/loader/package-paths.js';
import type { RunReport } from '../../src/model/results.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { VARIANTS } from '../../src/server/variants.js';
import type { Variant } from '../../src/server/variants/kit.js';
import { runCli, tempDir } from '../helpers.js';

const KEY = 'baseline-test-key-7c41aa';

function variant(name: string): Variant {
  const found = VARIANTS.find((v) => v.name === name);
  if (found === undefined) throw new Error(`no variant ${name}`);
  return found;
}

/** A reference store broken by each of `names`, one wrap around the other. */
async function brokenStore(t: Test, names: readonly string[]): Promise<string> {
  const wraps = names.map((name) => variant(name).wrap).filter((w): w is NonNullable<Variant['wrap']> => w !== undefined);
  const server = await startReferenceServer({
    apiKey: KEY,
    wrap: (next, store) => wraps.reduce((handler, wrap) => wrap(handler, store), next),
  });
  t.teardown(() => server.close());
  return server.baseUrl;
}

async function reportOf(dir: string): Promise<RunReport> {
  return JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as RunReport;
}

t.test('a second run on the first one’s report: since the baseline, and --fail-on new gates on new failures only', async (t) => {
  const base = await brokenStore(t, ['get-404-plain-text']);
  const env = { PETSTORE_API_KEY: KEY };
  const args = (dir: string): string[] => [
    '--base-url',
    base,
    '--suite',
    'errors',
    '--report-dir',
    dir,
    '--reporter',
    'console,json,markdown,html,junit',
  ];
  const first = await tempDir();
  const night1 = await runCli(args(first), env);
  t.equal(night1.code, 1, 'the broken store fails');
  const baseline = path.join(await tempDir(), 'baseline.json');
  await writeFile(baseline, await readFile(path.join(first, 'report.json')));

  const second = await tempDir();
  const night2 = await runCli([...args(second), '--baseline', baseline], env);
  t.equal(night2.code, 1, 'without --fail-on new, a known failure still fails the run');
  t.match(night2.stdout, /^since the baseline: 0 new failures, 0 fixed, [1-9]\d* still failing, 0 newly not judged$/m);
  t.ok(night2.stdout.indexOf('since the baseline:') < night2.stdout.indexOf('FAIL'), 'the console says it first');

  const gated = await tempDir();
  const night3 = await runCli([...args(gated), '--baseline', baseline, '--fail-on', 'new'], env);
  t.equal(night3.code, 0, `nothing new: exit 0\n${night3.stdout}`);
  t.match(night3.stdout, /verdict: PASSED/);
  t.match(night3.stdout, /verdict: PASSED \(--fail-on new: nothing new since the baseline; \d+ known failures? still failing\)/);
  const report = await reportOf(gated);
  t.equal(report.verdict, 'passed');
  t.ok(
    report.sinceBaseline?.stillFailing.some((c) => c.id === 'getPet.unknown-id'),
    'the known failure is still failing',
  );
  t.equal(report.sinceBaseline?.stillFailing.length, report.counts.failed, 'every failure is a known one');
  t.equal(report.meta.options['failOn'], 'new');
  t.match(await readFile(path.join(gated, 'summary.md'), 'utf8'), /since the baseline: 0 new failures/);
  t.match(await readFile(path.join(gated, 'junit.xml'), 'utf8'), /name="sinceBaseline" value="since the baseline: 0 new failures/);

  const worse = await brokenStore(t, ['get-404-plain-text', 'error-missing-message']);
  const later = await tempDir();
  const night4 = await runCli([...args(later).map((a) => (a === base ? worse : a)), '--baseline', baseline, '--fail-on', 'new'], env);
  t.equal(night4.code, 1, 'one more violation: exit 1');
  t.match(night4.stdout, /^since the baseline: [1-9]\d* new failures?, 0 fixed, [1-9]\d* still failing/m);
  t.match(night4.stdout, /verdict: FAILED/);
  const html = await readFile(path.join(later, 'report.html'), 'utf8');
  t.match(html, /<section id="since-baseline">/, 'the HTML has the section');
  t.match(html, /class="badge b-new"/, 'and marks the new failures');
  const worseReport = await reportOf(later);
  t.ok((worseReport.sinceBaseline?.newFailures.length ?? 0) > 0);
  t.ok(worseReport.sinceBaseline?.newFailures.every((c) => c.was === 'passed' || c.was === 'absent'));
  t.match(worseReport.sinceBaseline?.unlike, [/^base URL /], 'another base URL is said to be so');
});

t.test('--fail-on new without a baseline: every failure is new', async (t) => {
  const base = await brokenStore(t, ['get-404-plain-text']);
  const result = await runCli(['--base-url', base, '--suite', 'errors', '--report-dir', await tempDir(), '-q', '--fail-on', 'new'], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(result.code, 1);
});

t.test('--baseline refuses what is not a report of a run in one line, exit 2', async (t) => {
  const dir = await tempDir();
  const rows: Array<[string, string, RegExp]> = [
    ['not JSON', '{', /--baseline .*: not JSON/],
    ['another JSON', '{"a":1}', /not a report\.json of petstore-conformance/],
    ['a run that did not start', '{"status":"not-started"}', /the note of a run that did not start/],
  ];
  for (const [name, text, message] of rows) {
    const file = path.join(dir, `${name.replace(/ /g, '-')}.json`);
    await writeFile(file, text);
    const result = await runCli(['--baseline', file, '--report-dir', dir]);
    t.equal(result.code, 2, name);
    t.match(result.stderr, message, name);
    t.equal(result.stderr.trim().split('\n').length, 1, `${name}: one line`);
  }
});

t.test('load smoke --baseline on a nightly report: refused as not comparable, exit 2, nothing sent', async (t) => {
  const dir = await tempDir();
  const nightly = path.join(dir, 'nightly.json');
  const profile = { name: 'nightly', queries: [{ weight: 1 }, { limit: 100, weight: 1 }] };
  await writeFile(
    nightly,
    JSON.stringify({
      meta: { tool: { version: packageVersion() }, baseUrl: 'https://staging.example.com/v1', embeddedServer: false, suites: ['load'] },
      cases: [],
      load: { profile, baseUrl: 'https://staging.example.com/v1', metrics: { rps: 900, latency: { p99: 20 } }, stages: [] },
    }),
  );
  const result = await runCli(['load', 'smoke', '--baseline', nightly, '--report-dir', path.join(dir, 'out')]);
  t.equal(result.code, 2);
  t.match(result.stderr, /--baseline .*nightly\.json is not comparable: profile nightly, this run smoke; base URL https:\/\/staging/);
  t.equal(result.stderr.trim().split('\n').length, 1, 'one line');
});
