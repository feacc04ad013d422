/** The fuzzing phase: a failure is shrunk to a minimal example with its curl, and its seed replays exactly that example. */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunReport } from '../../src/model/results.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { VARIANTS, variantServerOptions } from '../../src/server/variants.js';
import { runCli, tempDir } from '../helpers.js';

const KEY = 'fuzz-test-key-8c21aa';

/** Runs the fuzzing phase alone against a variant; the report. */
async function fuzzAgainst(variant: string, seed: number): Promise<{ code: number | null; report: RunReport; stdout: string }> {
  const found = VARIANTS.find((v) => v.name === variant);
  if (found === undefined) throw new Error(`no variant ${variant}`);
  const server = await startReferenceServer({ apiKey: KEY, ...variantServerOptions(found) });
  try {
    const reports = await tempDir();
    const run = await runCli(
      [
        'run',
        '--base-url',
        server.baseUrl,
        '--suite',
        'fuzz',
        '--seed',
        String(seed),
        '--max-examples',
        '40',
        '--report-dir',
        reports,
        '--reporter',
        'console,json',
      ],
      { PETSTORE_API_KEY: KEY },
    );
    return {
      code: run.code,
      stdout: run.stdout,
      report: JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport,
    };
  } finally {
    await server.close();
  }
}

/** The minimal example's request body, the run id taken out (each run names its pets anew). */
function minimalBody(report: RunReport): string | undefined {
  const fuzz = report.cases.find((c) => c.id === 'fuzz.createPet.body');
  return fuzz?.exchanges[0]?.request.body?.replace(report.meta.runId, '<run id>');
}

t.test('a store that drops an unknown status instead of refusing it: found, shrunk to a minimal body, replayed by its seed', async (t) => {
  const first = await fuzzAgainst('create-accepts-any-status', 7);
  t.equal(first.code, 1);
  const fuzz = first.report.cases.find((c) => c.id === 'fuzz.createPet.body');
  t.equal(fuzz?.outcome, 'failed');
  t.match(
    fuzz?.reason,
    /^minimal failing example after \d+ shrinks of \d+ requests \(seed 7; --seed 7 replays it\): the body is invalid because status is a string outside the enum; expected status 400, got 201/,
  );
  t.match(fuzz?.exchanges[0]?.reproduce, /^curl .* -X POST .*--data-binary/, 'shown with its curl');
  t.equal(first.report.meta.options['seed'], 7, 'the seed is in the report');
  const again = await fuzzAgainst('create-accepts-any-status', 7);
  t.equal(
    minimalBody(again.report),
    minimalBody(first.report),
    `the same seed, the same minimal example: ${minimalBody(first.report) ?? ''}`,
  );
  t.equal(
    again.report.cases.find((c) => c.id === 'fuzz.createPet.body')?.reason,
    fuzz?.reason?.replace(first.report.meta.runId, again.report.meta.runId),
  );
});

t.test('a listing with one pet too many: the query shrinks to the smallest limit that shows it', async (t) => {
  const { report } = await fuzzAgainst('limit-off-by-one', 3);
  const fuzz = report.cases.find((c) => c.id === 'fuzz.listPets.query');
  t.equal(fuzz?.outcome, 'failed');
  t.match(fuzz?.exchanges[0]?.request.url, /[?&]limit=1(&|$)/, `shrunk to limit=1: ${fuzz?.exchanges[0]?.request.url ?? ''}`);
});

t.test('a property reports the worst outcome over its examples, with the example that caused it as evidence', async (t) => {
  // 422 for an out-of-range limit keeps every stated rule but warns (expect.undocumented.refusal-status): the phase warns too.
  const { code, report } = await fuzzAgainst('unprocessable-422', 5);
  t.equal(code, 0, 'a warning never changes the exit code');
  const fuzz = report.cases.find((c) => c.id === 'fuzz.listPets.query');
  t.equal(fuzz?.outcome, 'warned', 'examples that warned make the property warn, not pass');
  t.match(
    fuzz?.reason,
    /^40 generated examples \(seed 5; --seed 5 replays them\): \d+ passed, \d+ warned; the first that warned: /,
    'how many of each, and which example decided it',
  );
  t.match(
    fuzz?.checks.filter((c) => c.outcome !== 'passed'),
    [{ id: 'expect.undocumented.refusal-status', level: 'warn', outcome: 'warned' }],
    'the check that warned, among its checks',
  );
  t.equal(fuzz?.exchanges.length, 1, 'the example that warned is the evidence');
  t.equal(fuzz?.exchanges[0]?.response?.status, 422);
  t.match(fuzz?.exchanges[0]?.reproduce, /^curl /);
  t.equal(report.cases.find((c) => c.id === 'fuzz.createPet.body')?.outcome, 'passed', 'the other property kept the contract');
});

t.test('the reference store keeps every generated property', async (t) => {
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  const reports = await tempDir();
  const run = await runCli(
    ['run', '--base-url', server.baseUrl, '--suite', 'fuzz', '--seed', '11', '--report-dir', reports, '--reporter', 'json'],
    { PETSTORE_API_KEY: KEY },
  );
  t.equal(run.code, 0, run.stderr);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport;
  t.same(
    report.cases.map((c) => [c.id, c.outcome]),
    [
      ['fuzz.listPets.query', 'passed'],
      ['fuzz.createPet.body', 'passed'],
    ],
  );
  t.match(report.cases[0]?.checks[0]?.message, /^30 generated examples kept the contract \(seed 11\)$/);
});

t.test('stateful: a store that never keeps what it creates fails on the shortest sequence, and its seed replays it', async (t) => {
  const run = async (): Promise<RunReport> => {
    const found = VARIANTS.find((v) => v.name === 'create-not-persisted');
    if (found === undefined) throw new Error('no variant create-not-persisted');
    const server = await startReferenceServer({ apiKey: KEY, ...variantServerOptions(found) });
    try {
      const reports = await tempDir();
      // A short consistency window: every shrink step waits it out once more before it fails.
      await runCli(
        [
          'run',
          '--base-url',
          server.baseUrl,
          '--suite',
          'stateful',
          '--seed',
          '3',
          '--consistency-window',
          '100',
          '--report-dir',
          reports,
          '--reporter',
          'json',
        ],
        { PETSTORE_API_KEY: KEY },
      );
      return JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport;
    } finally {
      await server.close();
    }
  };
  const first = await run();
  const stateful = first.cases.find((c) => c.id === 'stateful.pets');
  t.equal(stateful?.outcome, 'failed');
  t.match(
    stateful?.reason,
    /^shortest failing sequence after \d+ shrinks \(seed 3; --seed 3 replays it\): 1\. POST \S+\/pets; 2\. GET \S+\/pets\/\d+: expected status 200, got 404/,
  );
  t.same(
    stateful?.exchanges.map((e) => e.request.method),
    ['POST', 'GET'],
    'two numbered requests, each with its curl',
  );
  t.ok(stateful?.exchanges.every((e) => /^curl /.test(e.reproduce ?? '')));
  const again = await run();
  const strip = (r: RunReport): string | undefined =>
    r.cases
      .find((c) => c.id === 'stateful.pets')
      ?.reason?.replace(/127\.0\.0\.1:\d+/g, 'HOST')
      .replace(/\/pets\/\d+/g, '/pets/ID')
      // Sequences run side by side: the ids the server hands out depend on which create reached it first.
      .replace(/has id \d+/g, 'has id ID');
  t.equal(strip(again), strip(first), 'the same seed, the same shortest sequence');
});

t.test(
  '--max-writes bounds what a run creates: the cases that write once it is reached are not judged, and requests are counted by phase',
  async (t) => {
    const server = await startReferenceServer({ apiKey: KEY });
    t.teardown(() => server.close());
    const before = server.store.catalogue.size;
    const reports = await tempDir();
    const run = await runCli(
      ['run', '--base-url', server.baseUrl, '--max-writes', '10', '--seed', '5', '--report-dir', reports, '--reporter', 'json'],
      { PETSTORE_API_KEY: KEY },
    );
    t.equal(run.code, 0, run.stderr);
    const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport;
    // Cases run four at a time: those started before the tenth pet existed may each add one.
    t.ok(server.store.catalogue.size - before <= 10 + 4, `${server.store.catalogue.size - before} pets created`);
    t.ok(report.cases.filter((c) => c.skip === 'write-budget').length > 10, 'the cases that write after that are skipped');
    t.same(Object.keys(report.requestsBySuite ?? {}).sort(), [
      'auth',
      'contract',
      'coverage',
      'deprecation',
      'errors',
      'filters',
      'fuzz',
      'lifecycle',
      'limits',
      'request-space',
      'stateful',
      'versioning',
    ]);
    t.ok((report.requestsBySuite?.['fuzz'] ?? 0) >= 30, 'the fuzzing phase still reads');
    t.equal(report.meta.options['maxWrites'], 10);
  },
);

t.test('--case-kind selects kinds of cases: examples (the declared and contract cases), coverage, fuzz, stateful', async (t) => {
  const reports = await tempDir();
  const suitesOf = async (args: string[]): Promise<string[]> => {
    const run = await runCli(['run', ...args, '--report-dir', reports, '--reporter', 'json', '--seed', '1']);
    t.equal(run.code, 0, run.stderr);
    const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport;
    return [...new Set(report.cases.map((c) => c.suite))].sort();
  };
  t.same(await suitesOf(['--case-kind', 'fuzz', '--case-kind', 'stateful']), ['fuzz', 'stateful']);
  const examples = await suitesOf(['--case-kind', 'examples']);
  t.notOk(
    examples.some((s) => ['coverage', 'fuzz', 'stateful'].includes(s)),
    `no generated phase: ${examples.join(', ')}`,
  );
  t.same(await suitesOf(['--case-kind', 'examples', '--suite', 'auth', '--suite', 'fuzz']), ['auth'], '--suite narrowed by --case-kind');
  const old = await runCli(['run', '--phase', 'stateful', '--report-dir', reports, '--reporter', 'json', '--seed', '1']);
  t.equal(old.code, 0, old.stderr);
  t.match(old.stderr, /^petstore-conformance: --phase is deprecated: it is --case-kind now, and will be refused\n/, 'the old name warns');
  const bad = await runCli(['run', '--case-kind', 'nope']);
  t.equal(bad.code, 2);
  t.equal(bad.stderr, "petstore-conformance: unknown case kind 'nope'; the kinds are: examples, coverage, fuzz, request-space, stateful\n");
});
