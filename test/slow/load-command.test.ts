import t from 'tap';
import { createServer } from 'node:https';
import { readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { LoadReport } from '../../src/model/load.js';
import type { RunReport } from '../../src/model/results.js';
import { withLoadFaults, type LoadFault } from '../fixtures/load-faults.js';
import { createPetStore, startReferenceServer, toNodeHandler } from '../../src/server/reference-server.js';
import { root, runCli, runRealCli, stopCli, tempDir } from '../helpers.js';
import { certificate } from '../tls-fixtures.js';

const KEY = 'load-secret-key-7c1d9e';

/**
 * A profile bounded to 500 requests and 3 s: against a server that answers at once the budget ends it, in a tenth of a second
 * on this machine. Its p99 bound and timeout are generous: on a busy 2-core machine one stall of the process would decide a
 * tight bound; the test of p99 itself sets a tight one against a server far slower than any stall.
 */
function profileText(extra = ''): string {
  return `title: short test load
connections: 2
duration: 3
maxRequests: 500
timeout: 3
queries:
  - { weight: 2 }
  - { limit: 5, status: sold, weight: 1 }
  - { status: available, weight: 1 }
sampling: { first: 100, every: 10 }
thresholds:
  p99: { max: 2000 }
  non2xx: { max: 0 }
  errors: { max: 0 }
${extra}`;
}

/** The profile for `seconds` (its timeout as long), whatever its budget: for the runs a length of time bounds. */
function lasting(seconds: number, text = profileText()): string {
  return text.replace('duration: 3', `duration: ${seconds}`).replace('timeout: 3', `timeout: ${seconds}`);
}

async function writeProfile(text: string, name = 'short.yaml'): Promise<string> {
  const file = path.join(await tempDir(), name);
  await writeFile(file, text);
  return file;
}

async function loadAgainst(
  faults: LoadFault[],
  profile: string,
  extraArgs: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string; report: RunReport & { load: LoadReport } }> {
  const server = await startReferenceServer({ apiKey: KEY, wrap: withLoadFaults(faults) });
  try {
    const reports = await tempDir();
    const result = await runCli(['load', profile, '--base-url', server.baseUrl, '--report-dir', reports, ...extraArgs], {
      PETSTORE_API_KEY: KEY,
    });
    const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport & { load: LoadReport };
    return { ...result, report };
  } finally {
    await server.close();
  }
}

/** The outcome of each check that judged the load case. */
function outcomes(report: RunReport): Record<string, string> {
  return Object.fromEntries((report.cases.find((c) => c.suite === 'load')?.checks ?? []).map((c) => [c.id, c.outcome]));
}

t.test('a conformant server passes a short profile: exit 0, thresholds as checks, raw histograms saved, no key anywhere', async (t) => {
  const profile = await writeProfile(profileText());
  const { code, stdout, stderr, report } = await loadAgainst([], profile);
  t.equal(code, 0, stderr);
  t.same(outcomes(report), {
    'load.p99': 'passed',
    'load.errors': 'passed',
    'load.resets': 'passed',
    'load.non2xx': 'passed',
    'load.mismatches': 'passed',
    // A stage of a few seconds is too short for the trend's two windows: said, not judged.
    'load.trend': 'not-judged',
    // A stage the budget ends in a fraction of a second, without a warm-up, is over before the pets the preflight showed pass
    // the 2 s a load alone gives them: said, not judged. The page shape is judged on every listing.
    'load.listing-complete': 'not-judged',
    'load.listing-limit': 'passed',
    'load.listing-status': 'passed',
  });
  t.ok(report.load.metrics.responses > 0 && report.load.metrics.requests <= 500, 'bounded by the request budget');
  t.ok(report.load.metrics.sampled >= Math.min(100, report.load.metrics.responses), 'the first responses were all sampled');
  t.match(report.load.stages[0]?.raw[0]?.latencyHistogram, /^[A-Za-z0-9+/=]+$/, 'the raw latency histogram is saved');
  t.match(stdout, /load short: short test load/);
  t.notOk(stdout.includes(KEY) || stderr.includes(KEY) || JSON.stringify(report).includes(KEY), 'the key appears nowhere');
});

t.test('a server that answers 500 now and then fails the non2xx threshold, and only that one', async (t) => {
  const profile = await writeProfile(profileText());
  const { code, report, stdout } = await loadAgainst(['load-flaky-500'], profile);
  t.equal(code, 1);
  const seen = outcomes(report);
  t.equal(seen['load.non2xx'], 'failed');
  t.equal(seen['load.p99'], 'passed');
  t.equal(seen['load.mismatches'], 'passed', 'a 500 is not a contract violation of the sample');
  t.ok((report.load.metrics.statusCodes['500'] ?? 0) > 0);
  t.match(stdout, /FAIL\s+load\.short\b[\s\S]*load\.non2xx: 2?\d+ non-2xx/);
});

t.test('a slow server fails the p99 threshold, and only that one', async (t) => {
  // Answers of 250 ms: 0.8 s of them (the budget would take 60 s).
  const profile = await writeProfile(lasting(0.8, profileText().replace('p99: { max: 2000 }', 'p99: { max: 150 }')));
  const { code, report } = await loadAgainst(['load-slow'], profile);
  t.equal(code, 1);
  const seen = outcomes(report);
  t.equal(seen['load.p99'], 'failed');
  t.equal(seen['load.non2xx'], 'passed');
  t.equal(seen['load.errors'], 'passed');
  // Well above the 150 ms bound; not 250: a 250 ms sleep can end early on a loaded machine (see load-units.test.ts).
  t.ok(report.load.metrics.latency.p99 >= 200);
});

t.test('sampled validation catches a pet of the wrong status under load and keeps the evidence', async (t) => {
  const profile = await writeProfile(profileText());
  const { code, report } = await loadAgainst(['load-wrong-status'], profile);
  t.equal(code, 1);
  t.equal(outcomes(report)['load.mismatches'], 'failed');
  t.equal(outcomes(report)['load.non2xx'], 'passed');
  const violation = report.load.violations[0];
  t.ok(violation, 'evidence is kept');
  t.match(violation?.target, /status=(sold|available)/);
  t.match(violation?.problems.join(' '), /item 0 has status "\w+" under the filter status=/);
  const check = report.cases[0]?.checks.find((c) => c.id === 'load.mismatches');
  t.match(check?.failures?.[1]?.message, /GET \/pets\?.*status=/);
});

t.test('a profile with mistakes stops before any traffic: every problem at file:line:col, exit 2', async (t) => {
  const profile = await writeProfile(
    profileText().replace('  - { weight: 2 }', '  - { weight: 2, stauts: sold }').replace('  p99: { max: 2000 }', '  p98: { max: 50 }'),
    'broken.yaml',
  );
  const result = await runCli(['load', profile, '--base-url', 'http://127.0.0.1:9/v1'], { PETSTORE_API_KEY: KEY });
  t.equal(result.code, 2);
  t.match(result.stderr, /2 problems in the load profile/);
  t.match(result.stderr, /broken\.yaml:7:18: unknown key 'stauts' at \/queries\/0/);
  t.match(result.stderr, /broken\.yaml:12:3: unknown key 'p98' at \/thresholds/);
  t.notMatch(result.stderr, /cannot verify/, 'nothing was sent');
  const both = await writeProfile(profileText('rate: 10\nramp: { from: 1, to: 2, step: 1, stageDuration: 1 }\n'), 'both.yaml');
  const exclusive = await runCli(['load', both], {});
  t.equal(exclusive.code, 2);
  t.match(exclusive.stderr, /both\.yaml:15:7: 'rate' and 'ramp' exclude each other/);
  const goodProfile = await writeProfile(profileText());
  const noBaseline = await runCli(['load', goodProfile, '--base-url', 'http://127.0.0.1:9/v1', '--baseline', '/nonexistent/report.json'], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(noBaseline.code, 2);
  t.match(
    noBaseline.stderr,
    /^petstore-conformance: --baseline \/nonexistent\/report\.json: cannot read \(ENOENT\)\n$/,
    'checked before any traffic',
  );
  const badTolerance = await runCli(['run', '--load', goodProfile, '--baseline-tolerance', 'lots'], {});
  t.equal(badTolerance.code, 2);
  t.match(badTolerance.stderr, /--baseline-tolerance must be a share such as 0\.1/);
  const unknown = await runCli(['load', 'no-such-profile'], {});
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /unknown load profile 'no-such-profile'; the profiles are: nightly, smoke, soak, stress/);
});

t.test('safety: production is refused without the flag; the verified request must pass first', async (t) => {
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  const profile = await writeProfile(profileText(`production: ["${server.baseUrl}"]\n`));
  const refused = await runCli(['load', profile, '--base-url', server.baseUrl, '--report-dir', await tempDir()], { PETSTORE_API_KEY: KEY });
  t.equal(refused.code, 2);
  t.match(refused.stderr, /is marked production in .*refusing to load it without --allow-production-load/);
  t.equal(refused.stdout, '', 'refused while planning: nothing printed, nothing sent');
  const allowed = await runCli(
    ['load', profile, '--base-url', server.baseUrl, '--report-dir', await tempDir(), '--allow-production-load'],
    { PETSTORE_API_KEY: KEY },
  );
  t.equal(allowed.code, 0, allowed.stderr);
  const wrongKey = await runCli(
    ['load', profile, '--base-url', server.baseUrl, '--allow-production-load', '--report-dir', await tempDir()],
    {
      PETSTORE_API_KEY: 'not-the-key',
    },
  );
  t.equal(wrongKey.code, 2);
  t.match(wrongKey.stderr, /refused the API key \(401.*no load was sent/);
});

t.test('an https server with an untrusted certificate is refused before any load (autocannon would not check)', async (t) => {
  let requests = 0;
  const handle = toNodeHandler(createPetStore({ apiKey: KEY }).handle);
  const server = createServer(certificate(await tempDir(), 'untrusted'), (req, res) => {
    requests += 1;
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const result = await runCli(['load', await writeProfile(profileText()), '--base-url', base, '--report-dir', await tempDir()], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(result.code, 2);
  t.match(result.stderr, /cannot verify .*TLS certificate rejected.*no load was sent/);
  t.equal(requests, 0, 'no request reached the handler');
});

t.test('merge combines the raw results of several runs and judges them by the same thresholds', async (t) => {
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  // Runs of 0.8 s (the budget never ends them first): two made at once start within half of that, however busy the machine.
  const profile = await writeProfile(lasting(0.8, profileText().replace('maxRequests: 500', 'maxRequests: 100000')));
  const dirs = [await tempDir(), await tempDir()];
  const runs = await Promise.all(
    dirs.map((dir) => runCli(['load', profile, '--base-url', server.baseUrl, '--report-dir', dir, '-q'], { PETSTORE_API_KEY: KEY })),
  );
  t.same(
    runs.map((r) => r.code),
    [0, 0],
  );
  const singles = await Promise.all(
    dirs.map(async (dir) => (JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as { load: LoadReport }).load),
  );
  const out = await tempDir();
  const merged = await runCli(['merge', ...dirs.map((d) => path.join(d, 'report.json')), '--report-dir', out]);
  t.equal(merged.code, 0, merged.stderr);
  t.match(merged.stdout, /2 runs merged/);
  t.notMatch(merged.stdout, /warning/, 'runs made at once merge without a warning');
  const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as RunReport & { load: LoadReport };
  t.equal(report.load.mergedRuns, 2);
  t.equal(
    report.load.metrics.responses,
    singles.reduce((sum, l) => sum + l.metrics.responses, 0),
    'responses add up',
  );
  t.ok(
    report.load.metrics.latency.max >= Math.max(...singles.map((l) => l.metrics.latency.max)) - 1,
    'the merged histogram holds both maxima',
  );
  t.equal(
    report.load.metrics.resets,
    singles.reduce((sum, l) => sum + l.metrics.resets, 0),
    'resets add up',
  );
  t.same(Object.keys(outcomes(report)).sort(), [
    'load.errors',
    'load.listing-complete',
    'load.listing-limit',
    'load.listing-status',
    'load.mismatches',
    'load.non2xx',
    'load.p99',
    'load.resets',
    'load.trend',
  ]);
  t.equal(
    report.load.listings?.judged,
    singles.reduce((sum, l) => sum + (l.listings?.judged ?? 0), 0),
    'the listings judged add up',
  );
  // A report of version 2 (its outcomes said skipped and errored) still merges: merge reads its load part, which has no outcome words.
  const older = JSON.parse(await readFile(path.join(dirs[1] as string, 'report.json'), 'utf8')) as Record<string, unknown> & {
    cases: Array<{ outcome: string }>;
  };
  Object.assign(older, { reportVersion: 2, counts: { passed: 0, failed: 0, warned: 0, errored: 1, skipped: older.cases.length - 1 } });
  for (const [i, c] of older.cases.entries()) c.outcome = i === 0 ? 'errored' : 'skipped';
  for (const key of ['findings', 'internalErrors']) delete older[key];
  const olderFile = path.join(await tempDir(), 'report-v2.json');
  await writeFile(olderFile, JSON.stringify(older));
  const withOlder = await runCli(['merge', path.join(dirs[0] as string, 'report.json'), olderFile, '--report-dir', await tempDir()]);
  t.equal(withOlder.code, 0, `a version-2 report merges: ${withOlder.stderr}`);
  const strictProfile = JSON.parse(await readFile(path.join(dirs[0] as string, 'report.json'), 'utf8')) as { load: LoadReport };
  strictProfile.load.profile.thresholds = { rps: { min: 1e9 } };
  const firstRaw = strictProfile.load.stages[0]?.raw[0];
  if (firstRaw !== undefined) firstRaw.startedAt = new Date(Date.parse(firstRaw.startedAt) - 3_600_000).toISOString();
  const tampered = path.join(out, 'strict.json');
  await writeFile(tampered, JSON.stringify(strictProfile));
  const judged = await runCli(['merge', tampered, path.join(dirs[1] as string, 'report.json'), '--report-dir', out]);
  t.equal(judged.code, 1, 'the thresholds of the first report judge the merged result');
  t.match(
    judged.stdout,
    /warning: the merged runs started up to 360\d\.\d s apart, more than half of their [\d.]+ s: their rates were added as if they loaded the service at once/,
  );
  const overwrite = await runCli(['merge', path.join(dirs[0] as string, 'report.json'), '--report-dir', dirs[0] as string]);
  t.equal(overwrite.code, 2, 'a merge never overwrites its own input');
  t.match(overwrite.stderr, /merge input .*report\.json is the report this run writes/);
  const renamed = JSON.parse(await readFile(path.join(dirs[1] as string, 'report.json'), 'utf8')) as { load: LoadReport };
  renamed.load.profile.name = 'other';
  const otherProfile = path.join(await tempDir(), 'other.json');
  await writeFile(otherProfile, JSON.stringify(renamed));
  const mixed = await runCli(['merge', path.join(dirs[0] as string, 'report.json'), otherProfile, '--report-dir', await tempDir()]);
  t.equal(mixed.code, 2, 'reports of two profiles are refused');
  t.equal(mixed.stdout, '', 'before anything is said: no INCOMPLETE verdict, no report');
  t.match(
    mixed.stderr,
    /^petstore-conformance: cannot merge .*report\.json \(profile 'short'\) with .*other\.json \(profile 'other'\): merge takes the reports of one profile/,
  );
  t.equal(mixed.stderr.trimEnd().split('\n').length, 1, 'in one line');
  const bad = await runCli(['merge', path.join(root, 'package.json')]);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /not the report\.json of a load run/);
});

t.test('--baseline compares with an earlier run of the same load, and calls a regression only beyond the noise of both', async (t) => {
  // Seven seconds at 400/s: enough whole seconds and responses for every figure to be told from noise.
  const profile = await writeProfile(
    profileText('rate: 400\n').replace('duration: 3', 'duration: 7').replace('maxRequests: 500', 'maxRequests: 20000'),
  );
  // One server for every run: a baseline of another base URL is not comparable.
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  const load = async (extraArgs: string[] = []) => {
    const reports = await tempDir();
    const result = await runCli(['load', profile, '--base-url', server.baseUrl, '--report-dir', reports, ...extraArgs], {
      PETSTORE_API_KEY: KEY,
    });
    const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport & { load: LoadReport };
    return { ...result, report };
  };
  const first = await load();
  t.equal(first.code, 0, first.stdout);
  const dir = await tempDir();
  const baselineFile = path.join(dir, 'baseline.json');

  // The same load again, compared with the first: whatever its figures moved, that is noise.
  await writeFile(baselineFile, JSON.stringify(first.report));
  const again = await load(['--baseline', baselineFile]);
  t.equal(again.code, 0, again.stdout);
  t.same(
    again.report.load.baseline?.comparisons.filter((c) => c.regressed),
    [],
    'no regression between two runs of the same load',
  );
  t.ok(
    again.report.load.baseline?.comparisons.every((c) => c.ranges !== undefined || c.tooFewSamples !== undefined),
    'each held to its noise',
  );

  // A baseline far slower than this machine: nothing regressed, whatever the tolerance.
  const slowerBaseline = structuredClone(first.report);
  slowerBaseline.load.metrics = {
    ...slowerBaseline.load.metrics,
    rps: 1,
    latency: { ...slowerBaseline.load.metrics.latency, p50: 5000, p99: 5000 },
  };
  await writeFile(baselineFile, JSON.stringify(slowerBaseline));
  const better = await load(['--baseline', baselineFile, '--baseline-tolerance', '0.05']);
  t.equal(better.code, 0, better.stdout);
  t.same(
    better.report.load.baseline?.comparisons.map((c) => [c.metric, c.regressed]),
    [
      ['p50', false],
      ['p99', false],
      ['rps', false],
      ['errorRate', false],
    ],
  );
  t.equal(better.report.load.baseline?.tolerance, 0.05, '--baseline-tolerance overrides the profile');

  // A baseline a hundred times faster, its seconds included: beyond the tolerance and beyond the noise.
  const faster = structuredClone(first.report);
  faster.load.metrics.rps = first.report.load.metrics.rps * 100;
  for (const stage of faster.load.stages)
    for (const raw of stage.raw) raw.throughput = raw.throughput.map((second) => ({ ...second, rps: second.rps * 100 }));
  await writeFile(baselineFile, JSON.stringify(faster));
  const slower = await load(['--baseline', baselineFile]);
  t.equal(slower.code, 1, slower.stdout);
  t.equal(outcomes(slower.report)['load.baseline.rps'], 'failed');
  t.match(slower.stdout, /baseline rps: .* → .* \(−\d.*%\), regressed beyond the noise/);
});

t.test('--baseline of a short load: too few samples to tell a figure from noise, said so and not judged', async (t) => {
  const profile = await writeProfile(profileText());
  const first = await loadAgainst([], profile);
  t.equal(first.code, 0);
  const faster = structuredClone(first.report);
  faster.load.metrics.rps = first.report.load.metrics.rps * 100;
  // The next run is against another server: the same base URL, as a baseline must have to be compared.
  const baselineFile = path.join(await tempDir(), 'baseline.json');
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  faster.meta.baseUrl = server.baseUrl;
  faster.load.baseUrl = server.baseUrl;
  await writeFile(baselineFile, JSON.stringify(faster));
  const reports = await tempDir();
  const result = await runCli(['load', profile, '--base-url', server.baseUrl, '--report-dir', reports, '--baseline', baselineFile], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(result.code, 0, result.stdout);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport & { load: LoadReport };
  t.equal(outcomes(report)['load.baseline.rps'], 'not-judged');
  t.match(result.stdout, /baseline rps: .*not judged: .*too few samples to tell rps from noise \(it needs 5 whole seconds\)/);
});

t.test('Ctrl-C stops a load cleanly: exit 130 and a report of what was measured', async (t) => {
  let served = 0;
  const server = await startReferenceServer({
    apiKey: KEY,
    wrap: (next) => (req) => {
      served += 1;
      return next(req);
    },
  });
  t.teardown(() => server.close());
  const profile = await writeProfile(lasting(20, profileText().replace('maxRequests: 500', 'maxRequests: 400000')));
  const reports = await tempDir();
  // Ctrl-C once the load is well under way.
  const { code } = await stopCli(
    ['load', profile, '--base-url', server.baseUrl, '--report-dir', reports],
    { PETSTORE_API_KEY: KEY },
    () => served > 300,
  );
  t.equal(code, 130);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as { load: LoadReport };
  t.equal(report.load.interrupted, true);
  t.ok(report.load.metrics.responses > 0, 'what was measured is reported');
  t.ok(report.load.metrics.durationSeconds < 10, 'it stopped well before the planned 20 s');
});

t.test('run --load adds the profile to the conformance run against the embedded server: one report, exit 0', async (t) => {
  const reports = await tempDir();
  // The real process, once: run and load in one report, as npm start does.
  const result = await runRealCli(['run', '--load', await writeProfile(profileText()), '--report-dir', reports]);
  t.equal(result.code, 0, result.stderr);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport & { load: LoadReport };
  t.ok(
    report.cases.some((c) => c.id === 'auth.listPets.missing'),
    'the conformance cases are there',
  );
  t.ok(outcomes(report)['load.p99'] === 'passed', 'and the load case, judged by its thresholds');
  t.equal(report.counts.passed + report.counts['not-judged'], report.cases.length, 'nothing failed, warned, could not be tested or threw');
  t.equal(report.load.profile.name, 'short');
  t.ok(
    report.load.percentiles.some((q) => q.p === 99),
    'the percentile series is in the report',
  );
  t.ok(report.load.throughput.length > 0 && report.load.throughput.every((x) => x.rps >= 0), 'and the throughput series');
  const html = await readFile(path.join(reports, 'report.html'), 'utf8');
  t.match(html, /aria-label="Latency by percentile"[\s\S]*aria-label="Throughput over time"/, 'the HTML report draws both charts');
  t.match(result.stdout, /load short: [\s\S]*verdict: PASSED/);
  const badProfile = await runCli(['run', '--load', 'nope', '--report-dir', reports]);
  t.equal(badProfile.code, 2, 'a bad profile stops the run before the checks');
});

t.test(
  'load --reporter writes the chosen reports, each with the load figures and the thresholds measured against their bounds',
  async (t) => {
    const reports = await tempDir();
    const result = await runCli([
      'load',
      await writeProfile(profileText()),
      '--reporter',
      'json,junit,html,markdown',
      '--report-dir',
      reports,
    ]);
    t.equal(result.code, 0, result.stderr);
    t.equal(result.stdout, '', 'no console reporter chosen: nothing printed');
    const junit = await readFile(path.join(reports, 'junit.xml'), 'utf8');
    t.match(junit, /PASS load\.p99: [\d.]+ ms \(at most 2000 allowed\)/);
    t.match(junit, /requests: \d+ = \d+ responses \+ 0 errors \+ \d+ in flight at the stop/);
    t.match(junit, /errors: 0 \(timeouts 0, resets 0\)/);
    t.match(junit, /PASS load\.resets: 0 requests reset on a busy connection \(at most 0 allowed\)/);
    const html = await readFile(path.join(reports, 'report.html'), 'utf8');
    t.match(html, /<table class="figures">.*<th scope="row">latency from the actual send<\/th><td>p50 [\d.]+ ms/s);
    const md = await readFile(path.join(reports, 'summary.md'), 'utf8');
    t.match(md, /\| `load\.errors` \| PASS \| 0 failed requests/);
    t.match(md, /\| `load\.resets` \| PASS \| 0 requests reset on a busy connection/);
    t.match(html, /<th scope="row">errors<\/th><td>0 \(timeouts 0, resets 0\)<\/td>/);
    const bad = await runCli(['load', await writeProfile(profileText()), '--reporter', 'pdf']);
    t.equal(bad.code, 2);
    t.match(bad.stderr, /unknown reporter 'pdf'/);
  },
);
