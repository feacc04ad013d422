import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createPetStore, startReferenceServer, toNodeHandler, type PetRequest } from '../../src/server/reference-server.js';
import { VARIANTS, variantServerOptions } from '../../src/server/variants.js';
import { reportSchemaProblems, runCli, stopCli, tempDir } from '../helpers.js';
import { certificate } from '../tls-fixtures.js';

const KEY = 'cli-secret-key-4f9a2b';

t.test('with no base URL the embedded server is tested: exit 0, summary, report.json', async (t) => {
  const reports = await tempDir();
  // In this process: the real one runs the embedded server (with a load, as npm start does) in load-command.test.ts.
  const result = await runCli(['--report-dir', reports]);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /embedded reference server/);
  t.match(result.stdout, /\d+ passed, 0 failed/);
  t.match(result.stdout, /verdict: PASSED/);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as {
    verdict: string;
    counts: { passed: number; 'not-judged': number };
    cases: unknown[];
  };
  t.equal(report.verdict, 'passed');
  t.ok(report.cases.length >= 7);
  t.equal(report.counts.passed + report.counts['not-judged'], report.cases.length, 'nothing failed, warned, could not be tested or threw');
});

t.test('the key can come from a file', async (t) => {
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  const dir = await tempDir();
  await writeFile(path.join(dir, 'key'), `${KEY}\n`);
  const result = await runCli([
    '--base-url',
    server.baseUrl,
    '--api-key-file',
    path.join(dir, 'key'),
    '--suite',
    'auth',
    '--report-dir',
    dir,
    '-q',
  ]);
  t.equal(result.code, 0, result.stderr);
});

t.test('a server that answers without a key fails the run: exit 1, naming the auth checks', async (t) => {
  const server = await startReferenceServer({
    apiKey: KEY,
    wrap: (next, store) => (req) => next({ ...req, headers: { ...req.headers, authorization: `Bearer ${store.apiKey}` } }),
  });
  t.teardown(() => server.close());
  const reports = await tempDir();
  const result = await runCli(['--base-url', server.baseUrl, '--report-dir', reports], { PETSTORE_API_KEY: KEY });
  t.equal(result.code, 1);
  t.match(
    result.stdout,
    /FAIL\s+expect\.status, \d+ cases: Authentication rule 1[^\n]*\n[\s\S]*auth\.listPets\.missing/,
    'one group names the cases',
  );
  t.match(result.stdout, /verdict: FAILED/);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as {
    verdict: string;
    cases: Array<{ id: string; outcome: string; suite: string }>;
  };
  t.equal(report.verdict, 'failed');
  const failed = report.cases.filter((c) => c.outcome === 'failed').map((c) => c.id);
  // The request space's keyless cases are named by their dimension (channel.*, syntax.*.no-key) and belong to the auth suite.
  const failedSuites = new Set(report.cases.filter((c) => c.outcome === 'failed').map((c) => c.suite));
  for (const op of ['listPets', 'createPet', 'getPet']) t.ok(failed.includes(`auth.${op}.missing`), `auth.${op}.missing failed`);
  // Beyond the auth suite, only the planned state that follows the refused creates: a keyless create this server took stored a pet.
  const beyondAuth = report.cases.filter((c) => c.outcome === 'failed' && c.suite !== 'auth').map((c) => c.id);
  t.same(beyondAuth, ['states.refused-create.stored-nothing'], 'only auth checks failed, and the pet a keyless create stored');
  t.ok(failedSuites.has('auth'), 'the auth suite failed');
});

t.test('what stops a run is one line and exit 2', async (t) => {
  const dir = await tempDir();
  await writeFile(
    path.join(dir, 'broken.yaml'),
    'cases:\n  - id: x.y\n    title: t\n    clause: c\n    request: { method: GET, path: /pets }\n    expect: { stauts: 200 }\n',
  );
  const cases: Array<[string, string[], Record<string, string>, RegExp]> = [
    ['malformed scenario', ['--scenarios', dir], {}, /broken\.yaml:6:\d+: unknown key 'stauts'/],
    ['unknown flag', ['--frobnicate'], {}, /unknown option '--frobnicate'/],
    ['unknown command', ['launch'], {}, /unknown command 'launch'/],
    [
      'unreachable server',
      ['--base-url', 'http://127.0.0.1:9/v1'],
      { PETSTORE_API_KEY: KEY },
      /cannot reach http:\/\/127\.0\.0\.1:9\/v1.*ECONNREFUSED/,
    ],
    ['no key for a real server', ['--base-url', 'http://127.0.0.1:9/v1'], {}, /no API key/],
    ['a key on the command line', [`--api-key=${KEY}`], {}, /--api-key is not accepted/],
    ['a bad number', ['--concurrency', 'lots'], {}, /--concurrency must be a whole number/],
    ['an unknown suite', ['--suite', 'nope'], {}, /unknown suite 'nope'/],
    ['a bad rate limit', ['--rate-limit', 'fast'], {}, /--rate-limit must be a whole number from 1/],
    ['a bad wait budget', ['--wait-budget=-1'], {}, /--wait-budget must be a whole number/],
  ];
  for (const [name, args, env, pattern] of cases) {
    // A folder of its own: a run that cannot start leaves not-started.json there, not in the checkout's reports/.
    const result = await runCli([...args, '--report-dir', await tempDir()], env);
    t.equal(result.code, 2, `${name}: exit 2`);
    const [first, ...rest] = result.stderr.trimEnd().split('\n');
    // A run that could not start says, after its cause, that nothing was judged (test/e2e/not-started.test.ts).
    t.same(
      rest.filter((line) => !line.startsWith('  nothing was judged (the run did not start)')),
      [],
      `${name}: one line`,
    );
    t.match(first, pattern, name);
    t.notMatch(result.stderr, /\n\s+at /, `${name}: no stack trace`);
    t.notOk(result.stderr.includes(KEY) || result.stdout.includes(KEY), `${name}: the key is not echoed`);
  }
});

t.test('a base URL whose path does not end in /v1 is refused before any request: exit 2, one line with the base URL to use', async (t) => {
  let requests = 0;
  const server = await startReferenceServer({
    apiKey: KEY,
    wrap: (next) => (req) => {
      requests += 1;
      return next(req);
    },
  });
  t.teardown(() => server.close());
  const origin = new URL(server.baseUrl).origin;
  const rows: Array<[what: string, args: string[], env: Record<string, string>, line: string]> = [
    [
      'an operation pasted after /v1',
      ['--base-url', `${origin}/v1/pets`],
      {},
      `--base-url ${origin}/v1/pets goes past /v1 (the suite adds the operations' paths, such as /pets, to the base URL itself): use ${origin}/v1`,
    ],
    ['a pet pasted after /v1', ['--base-url', `${origin}/v1/pets/1`], {}, `: use ${origin}/v1`],
    ['a gateway prefix and an operation', ['--base-url', `${origin}/api/v1/pets`], {}, `: use ${origin}/api/v1`],
    [
      'no /v1 at all',
      ['--base-url', `${origin}/`],
      {},
      `--base-url ${origin} does not end in /v1, as both of the contract's base addresses do: use ${origin}/v1`,
    ],
    ['an operation without /v1', [], { PETSTORE_BASE_URL: `${origin}/pets` }, `PETSTORE_BASE_URL ${origin}/pets does not end in /v1`],
    ['load, too', ['load', 'smoke', '--base-url', `${origin}/v1/pets`], {}, `: use ${origin}/v1`],
  ];
  for (const [what, args, env, line] of rows) {
    const reports = await tempDir();
    const result = await runCli([...args, '--report-dir', reports], { PETSTORE_API_KEY: KEY, ...env });
    t.equal(result.code, 2, `${what}: exit 2`);
    t.equal(result.stderr.trimEnd().split('\n').length, 1, `${what}: one line`);
    t.ok(result.stderr.includes(line), `${what}: ${result.stderr.trim()}`);
    t.equal(result.stdout, '', `${what}: no case was judged`);
  }
  t.equal(requests, 0, 'nothing was sent');
  const store = await runCli(['run', '--base-url', `${server.baseUrl}/`, '--check', 'listPets.ok', '--report-dir', await tempDir()], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(store.code, 0, `the base URL serve prints (with a slash after /v1) runs: ${store.stderr}`);
});

t.test('a rejected key stops the run with exit 2 rather than failing every check', async (t) => {
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  const result = await runCli(['--base-url', server.baseUrl, '--report-dir', await tempDir()], { PETSTORE_API_KEY: 'not-the-key-at-all' });
  t.equal(result.code, 2);
  t.match(result.stderr, /refused the API key \(401/);
  t.notOk(result.stderr.includes('not-the-key-at-all'));
});

t.test('--version and --help answer without loading the rest of the CLI (the real process asks them: slow/process.test.ts)', async (t) => {
  const { quickAnswer } = await import('../../src/cli/args.js');
  t.equal(
    quickAnswer(['--version'], () => '9.9.9'),
    '9.9.9\n',
  );
  t.equal(
    quickAnswer(['-V'], () => '9.9.9'),
    '9.9.9\n',
  );
  t.match(
    quickAnswer(['help'], () => ''),
    /^petstore-conformance: conformance and load tests/,
  );
  t.equal(
    quickAnswer(['run', '--help'], () => ''),
    undefined,
    'anything else goes through the command',
  );
  t.equal(
    quickAnswer(['--version', '--quiet'], () => ''),
    undefined,
  );
});

t.test('--help and --version', async (t) => {
  const help = await runCli(['--help']);
  t.equal(help.code, 0);
  t.match(help.stdout, /Exit codes: 0 passed/);
  const version = await runCli(['--version']);
  t.equal(version.code, 0);
  t.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
});

t.test('--read-only sends no write and says so', async (t) => {
  const methods: string[] = [];
  const server = await startReferenceServer({
    apiKey: KEY,
    wrap: (next) => (req: PetRequest) => {
      methods.push(req.method);
      return next(req);
    },
  });
  t.teardown(() => server.close());
  const reports = await tempDir();
  const result = await runCli(['--base-url', server.baseUrl, '--read-only', '--report-dir', reports], { PETSTORE_API_KEY: KEY });
  t.equal(result.code, 0, result.stderr);
  t.ok(methods.length > 10, 'requests were made');
  t.same([...new Set(methods)], ['GET'], 'only GET was sent');
  t.match(result.stdout, /read-only: nothing was written; \d+ cases that write were not run/);
});

t.test('--strict turns warnings into a failure', async (t) => {
  const variant = VARIANTS.find((v) => v.name === 'no-optional-headers');
  if (!variant) throw new Error('variant missing');
  const server = await startReferenceServer({ apiKey: KEY, ...variantServerOptions(variant) });
  t.teardown(() => server.close());
  // Its missing Deprecation header warns in the deprecation suite (the matrix runs it whole: warnings only).
  const plain = await runCli(['--base-url', server.baseUrl, '--suite', 'deprecation', '--report-dir', await tempDir(), '-q'], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(plain.code, 0, 'warnings alone pass');
  const strict = await runCli(['--base-url', server.baseUrl, '--suite', 'deprecation', '--report-dir', await tempDir(), '-q', '--strict'], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(strict.code, 1, 'warnings fail under --strict');
});

t.test('--now moves the suite clock past the removal of getPet, for the embedded server too', async (t) => {
  const reports = await tempDir();
  const result = await runCli(['--now', '2030-12-06', '--suite', 'deprecation', '--report-dir', reports]);
  t.equal(result.code, 0, result.stdout);
  t.match(result.stdout, /getPet was removed on 2030-12-05/);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as { cases: Array<{ id: string; outcome: string }> };
  t.equal(report.cases.find((c) => c.id === 'deprecation.getPet.removed')?.outcome, 'passed');
  t.equal(report.cases.find((c) => c.id === 'deprecation.getPet.available')?.outcome, 'not-judged');
});

t.test('a listing that shows a write late passes, and the report says a retry was needed', async (t) => {
  const variant = VARIANTS.find((v) => v.name === 'eventual-listing');
  if (!variant) throw new Error('variant missing');
  const server = await startReferenceServer({ apiKey: KEY, ...variantServerOptions(variant) });
  t.teardown(() => server.close());
  const reports = await tempDir();
  // The lifecycle reads back and lists what it created: the consistency window on the real clock.
  const result = await runCli(['--base-url', server.baseUrl, '--suite', 'lifecycle', '--report-dir', reports], { PETSTORE_API_KEY: KEY });
  t.equal(result.code, 0, result.stdout);
  t.match(result.stdout, /read-after-write: \d+ cases? needed retries/);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as { cases: Array<{ retries: number }> };
  t.ok(report.cases.some((c) => c.retries > 0));
});

t.test('a server whose certificate cannot be verified stops the run: one line with a hint; --ca-file trusts it', async (t) => {
  const dir = await tempDir();
  const store = createPetStore({ apiKey: KEY });
  const server = createHttpsServer(certificate(dir, 'self-signed'), toNodeHandler(store.handle));
  const cert = path.join(dir, 'self-signed.pem');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const refused = await runCli(['--base-url', base, '--report-dir', dir], { PETSTORE_API_KEY: KEY });
  t.equal(refused.code, 2);
  t.equal(refused.stderr.trim().split('\n').length, 2, 'the cause, then that nothing was judged');
  t.match(refused.stderr, /^petstore-conformance: cannot reach https:\/\/127\.0\.0\.1:\d+\/v1.*certificate.*--ca-file FILE/i);
  const trusted = await runCli(['--base-url', base, '--ca-file', cert, '--suite', 'limits', '--report-dir', dir, '-q'], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(trusted.code, 0, trusted.stdout + trusted.stderr);
});

t.test('Ctrl-C during the checks: exit 130, and the reports say what ran', async (t) => {
  let served = 0;
  const server = await startReferenceServer({
    apiKey: KEY,
    wrap: (next) => async (req) => {
      served += 1;
      await new Promise((resolve) => setTimeout(resolve, 25));
      return next(req);
    },
  });
  t.teardown(() => server.close());
  const reports = await tempDir();
  const { code, stdout } = await stopCli(
    ['--base-url', server.baseUrl, '--report-dir', reports, '--reporter', 'json,console'],
    { PETSTORE_API_KEY: KEY },
    // Past the preflight, the planned states and the store fill (some 40 requests on the reference store): in the checks.
    () => served > 60,
  );
  t.equal(code, 130);
  t.match(stdout, /interrupted: \d+ of \d+ planned cases? not run/);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as {
    interrupted?: boolean;
    cases: Array<{ outcome: string; reason?: string }>;
  };
  t.equal(report.interrupted, true);
  t.ok(
    report.cases.some((c) => c.reason === 'interrupted before it ran'),
    'unstarted checks are skipped as interrupted',
  );
  t.ok(
    report.cases.some((c) => c.outcome === 'passed'),
    'the checks that ran are kept',
  );
  t.same(await reportSchemaProblems(report), [], 'the report is valid');
});

t.test('Ctrl-C before any case ran: every planned case is in the report, not run, and the summary counts them', async (t) => {
  let served = 0;
  const server = await startReferenceServer({
    apiKey: KEY,
    // The first listing (the check that this is a pet store) hangs until the run gives up on it.
    wrap: () => () => {
      served++;
      return new Promise(() => undefined);
    },
  });
  t.teardown(() => {
    server.server.closeAllConnections();
    return server.close();
  });
  const reports = await tempDir();
  const { code, stdout } = await stopCli(
    ['--base-url', server.baseUrl, '--report-dir', reports, '--reporter', 'json,console'],
    { PETSTORE_API_KEY: KEY },
    () => served >= 1,
  );
  t.equal(code, 130);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as {
    cases: Array<{ skip?: string; reason?: string }>;
  };
  t.ok(report.cases.length > 100, `the report holds the ${report.cases.length} planned cases`);
  t.ok(
    report.cases.every((c) => c.skip === 'interrupted' && c.reason === 'not run: the run was interrupted before it reached this case'),
    'each one not run, and why',
  );
  t.match(
    stdout,
    new RegExp(`verdict: INCOMPLETE \\(interrupted: ${report.cases.length} of ${report.cases.length} planned cases not run\\)`),
  );
});

t.test('an empty store cannot show getPet: the deprecation checks are skipped, not failed', async (t) => {
  const server = await startReferenceServer({ apiKey: KEY, seed: { available: 0, pending: 0, sold: 0 } });
  t.teardown(() => server.close());
  const reports = await tempDir();
  const result = await runCli(
    ['--base-url', server.baseUrl, '--suite', 'deprecation', '--read-only', '--report-dir', reports, '--reporter', 'json'],
    { PETSTORE_API_KEY: KEY },
  );
  t.equal(result.code, 0, result.stdout);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as {
    cases: Array<{ id: string; outcome: string; reason?: string }>;
  };
  const available = report.cases.find((c) => c.id === 'deprecation.getPet.available');
  t.equal(available?.outcome, 'not-judged');
  t.match(available?.reason, /precondition of step 1 not met: expected at least 1 items, got 0/);
});

t.test('a configuration file supplies defaults; flags win; a production URL is never written to', async (t) => {
  const methods: string[] = [];
  const server = await startReferenceServer({
    apiKey: KEY,
    wrap: (next) => (req: PetRequest) => {
      methods.push(req.method);
      return next(req);
    },
  });
  t.teardown(() => server.close());
  const dir = await tempDir();
  await writeFile(path.join(dir, 'key'), KEY);
  const config = path.join(dir, 'petstore.yaml');
  await writeFile(
    config,
    `baseUrl: ${server.baseUrl}\napiKeyFile: key\nreporters: [json]\nreportDir: out\nsuites: [limits]\nproduction: ["${server.baseUrl}"]\n`,
  );
  const result = await runCli(['--config', config]);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /is marked production in .*petstore\.yaml: read-only/);
  const report = JSON.parse(await readFile(path.join(dir, 'out', 'report.json'), 'utf8')) as {
    meta: { suites: string[]; options: { readOnly: boolean } };
  };
  t.same(report.meta.suites, ['limits'], 'suites from the file');
  t.equal(report.meta.options.readOnly, true);
  t.same([...new Set(methods)], ['GET'], 'nothing was written');
  const overridden = await runCli(['--config', config, '--suite', 'filters', '--report-dir', path.join(dir, 'flags')]);
  t.equal(overridden.code, 0);
  const second = JSON.parse(await readFile(path.join(dir, 'flags', 'report.json'), 'utf8')) as { meta: { suites: string[] } };
  t.same(second.meta.suites, ['filters'], 'a flag beats the file');
  const load = await runCli(['load', 'smoke', '--config', config]);
  t.equal(load.code, 2);
  t.match(load.stderr, /marked production in .*petstore\.yaml.*--allow-production-load/);
  await writeFile(
    config,
    `baseUrl: ${server.baseUrl}\napiKeyFile: key\nreporters: [json]\nreportDir: out\ndisable:\n  - { id: listPets.limit.default, reason: "known bug PET-7" }\n  - { id: server.no-5xx, reason: "a flaky gateway" }\n`,
  );
  t.equal((await runCli(['--config', config, '--suite', 'limits'])).code, 0);
  const disabled = JSON.parse(await readFile(path.join(dir, 'out', 'report.json'), 'utf8')) as {
    meta: { disabled: unknown[] };
    cases: Array<{ id: string; skip?: string; reason?: string; checks: Array<{ id: string }> }>;
  };
  t.same(
    disabled.meta.disabled,
    [
      { id: 'listPets.limit.default', reason: 'known bug PET-7' },
      { id: 'server.no-5xx', reason: 'a flaky gateway' },
    ],
    'the report says what was disabled and why',
  );
  t.match(
    disabled.cases.find((c) => c.id === 'listPets.limit.default'),
    { skip: 'disabled', reason: /known bug PET-7/ },
  );
  t.notOk(
    disabled.cases.some((c) => c.checks.some((k) => k.id === 'server.no-5xx')),
    'a disabled check judges nothing',
  );
  await writeFile(config, `baseUrl: ${server.baseUrl}\napiKeyFile: key\ndisable: [{ id: no.such.check, reason: typo }]\n`);
  const typo = await runCli(['--config', config]);
  t.equal(typo.code, 2);
  t.match(typo.stderr, /petstore\.yaml:3:\d+: disable: no check or case has the id 'no\.such\.check'/);
  await writeFile(config, 'baseUrl: ftp://nope\nconcurency: 3\n');
  const bad = await runCli(['--config', config]);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /2 problems in the configuration file:\n {2}.*petstore\.yaml:1:10: \/baseUrl: must match pattern/);
});

t.test(
  'colour follows the conventions: NO_COLOR non-empty disables, set but empty does not; FORCE_COLOR forces (0 or false turns it off)',
  async (t) => {
    const { useColor } = await import('../../src/cli/plan.js');
    const rows: Array<[string, { 'no-color'?: boolean }, Record<string, string>, boolean, boolean]> = [
      ['a terminal', {}, {}, true, true],
      ['a log', {}, {}, false, false],
      ['NO_COLOR=1', {}, { NO_COLOR: '1' }, true, false],
      ['NO_COLOR set but empty', {}, { NO_COLOR: '' }, true, true],
      ['--no-color', { 'no-color': true }, {}, true, false],
      ['FORCE_COLOR=1 in a log', {}, { FORCE_COLOR: '1' }, false, true],
      ['FORCE_COLOR=0 on a terminal', {}, { FORCE_COLOR: '0' }, true, false],
      ['FORCE_COLOR set but empty', {}, { FORCE_COLOR: '' }, false, false],
      ['FORCE_COLOR=0 in a log', {}, { FORCE_COLOR: '0' }, false, false],
      ['NO_COLOR wins over FORCE_COLOR', {}, { NO_COLOR: '1', FORCE_COLOR: '1' }, true, false],
    ];
    for (const [name, flags, env, tty, expected] of rows) t.equal(useColor(flags, env, { isTTY: tty }), expected, name);
  },
);

t.test("COMMAND --help prints that command's help and exits 0", async (t) => {
  const rows: Array<[string[], RegExp, RegExp | undefined]> = [
    [['run', '--help'], /^petstore-conformance run: [\s\S]*Choosing what runs[\s\S]*Examples:/, /The reference server/],
    [['load', '--help'], /^petstore-conformance load: [\s\S]*Load \(run --load[\s\S]*Examples:/, /Choosing what runs/],
    [['merge', '--help'], /^petstore-conformance merge: [\s\S]*Examples:/, /Choosing what runs|Reaching the service/],
    [['serve', '--help'], /^petstore-conformance serve: [\s\S]*The reference server \(serve\)/, /npm run|Load \(/],
    [['catalogue', '--help'], /^petstore-conformance catalogue: [\s\S]*Examples:/, /Reaching the service|Output/],
    [['--help'], /Choosing what runs[\s\S]*Load \(run --load[\s\S]*The reference server[\s\S]*Examples:/, undefined],
  ];
  for (const [args, expected, absent] of rows) {
    const result = await runCli(args);
    t.equal(result.code, 0, `${args.join(' ')} exits 0`);
    t.match(result.stdout, expected, args.join(' '));
    if (absent !== undefined) t.notMatch(result.stdout, absent, `${args.join(' ')} holds only its own options`);
  }
});

t.test(
  'a report that cannot be written after a passing run: exit 2, and the last line says why the verdict above does not stand',
  async (t) => {
    const dir = await tempDir();
    const reports = path.join(dir, 'reports');
    const store = toNodeHandler(createPetStore({ apiKey: KEY }).handle);
    let first = true;
    // The report folder turns into a file during the run (a full or removed volume would do the same).
    const server = createServer((req, res) => {
      if (first) {
        first = false;
        rmSync(reports, { recursive: true, force: true });
        writeFileSync(reports, 'not a folder');
      }
      store(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => void server.close());
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const result = await runCli(['--base-url', base, '--suite', 'limits', '--reporter', 'console,json', '--report-dir', reports], {
      PETSTORE_API_KEY: KEY,
    });
    t.equal(result.code, 2);
    t.match(result.stdout, 'verdict: PASSED', 'the checks passed');
    t.match(
      result.stderr,
      /the json reporter failed: .*\npetstore-conformance: exit 2: the checks passed, but a report was not written or delivered, so the run cannot be trusted as passed\n$/,
    );
  },
);

t.test('--reporter json:- writes the canonical report to stdout alone; the console goes to stderr; no folder is made', async (t) => {
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  const dir = path.join(await tempDir(), 'never-made');
  const result = await runCli(['--base-url', server.baseUrl, '--suite', 'limits', '--reporter', 'console,json:-', '--report-dir', dir], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as { verdict: string; cases: unknown[] };
  t.equal(report.verdict, 'passed', 'stdout is the JSON and nothing else');
  t.same(await reportSchemaProblems(report), [], 'the same report as report.json, valid against its schema');
  t.match(result.stderr, /verdict: PASSED/, 'the console printed to stderr');
  t.notOk(existsSync(dir), 'no report folder is made');
  t.notMatch(result.stdout + result.stderr, KEY);
});

t.test(
  '--check runs only the cases its globs match; --skip-check disables what it matches, with the flag as the reason; a glob that matches nothing is one line',
  async (t) => {
    const { idGlob } = await import('../../src/cli/selection.js');
    const rows: Array<[string, string, boolean]> = [
      ['auth.*', 'auth.listPets.missing', true],
      ['auth.*', 'xauth.listPets', false],
      ['listPets.limit.?', 'listPets.limit.0', true],
      ['listPets.limit.?', 'listPets.limit.10', false],
      ['server.no-5xx', 'server.no-5xx', true],
      ['a.b', 'aXb', false],
    ];
    for (const [glob, id, matches] of rows)
      t.equal(idGlob(glob).test(id), matches, `${glob} ${matches ? 'matches' : 'does not match'} ${id}`);
    const server = await startReferenceServer({ apiKey: KEY });
    t.teardown(() => server.close());
    const dir = await tempDir();
    const result = await runCli(
      [
        '--base-url',
        server.baseUrl,
        '--check',
        'auth.listPets.*',
        '--skip-check',
        'server.no-5xx',
        '--reporter',
        'json',
        '--report-dir',
        dir,
      ],
      { PETSTORE_API_KEY: KEY },
    );
    t.equal(result.code, 0, result.stderr);
    const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as {
      cases: Array<{ id: string; checks: Array<{ id: string }> }>;
      meta: { disabled: Array<{ id: string; reason: string }> };
    };
    t.ok(
      report.cases.length > 0 && report.cases.every((c) => c.id.startsWith('auth.listPets.')),
      `only the matching cases ran (${report.cases.length})`,
    );
    t.notOk(
      report.cases.some((c) => c.checks.some((k) => k.id === 'server.no-5xx')),
      'the skipped check judged nothing',
    );
    t.same(report.meta.disabled, [{ id: 'server.no-5xx', reason: '--skip-check server.no-5xx' }]);
    const none = await runCli(['--base-url', server.baseUrl, '--check', 'nope.*'], { PETSTORE_API_KEY: KEY });
    t.equal(none.code, 2);
    t.match(none.stderr, /^petstore-conformance: --check 'nope\.\*' matches no case; `petstore-conformance list` prints every case id/);
    const typo = await runCli(['--base-url', server.baseUrl, '--skip-check', 'server.no-5x'], { PETSTORE_API_KEY: KEY });
    t.equal(typo.code, 2);
    t.match(typo.stderr, /--skip-check 'server\.no-5x' matches no check or case/);
  },
);
