/**
 * Fault suite, signals and reports: SIGINT, SIGTERM, SIGHUP and a second signal stop `run`, `run --load` and `load` within
 * 2 s with every report written and marked interrupted; a run stopped by an error keeps what it measured; no earlier
 * run's report is ever left for this run's; a report folder that cannot be written stops the run before any request.
 */
import t from 'tap';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunReport } from '../src/model/results.js';
import { startReferenceServer, type RunningServer } from '../src/server/reference-server.js';
import { reportSchemaProblems, runCli, signalCli, tempDir } from './helpers.js';

const KEY = 'signal-fault-key-3f9a2c';

/** A reference store that answers the first `answered` requests and leaves every later one hanging (until the server closes). */
async function storeThatHangsAfter(answered: number): Promise<RunningServer & { served: () => number }> {
  let served = 0;
  const server = await startReferenceServer({
    apiKey: KEY,
    wrap: (next) => (req) => (++served <= answered ? next(req) : new Promise(() => undefined)),
  });
  t.teardown(async () => {
    server.server.closeAllConnections();
    await server.close();
  });
  return { ...server, served: () => served };
}

async function reportIn(dir: string): Promise<RunReport> {
  const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as RunReport;
  const problems = await reportSchemaProblems(report);
  if (problems.length > 0) throw new Error(`report.json does not match its schema: ${problems.join('; ')}`);
  return report;
}

const SHORT_LOAD = 'title: long load\nconnections: 2\nduration: 20\nmaxRequests: 1000000\ntimeout: 5\nqueries: [{ weight: 1 }]\nthresholds: { p99: { max: 1000 } }\n';

const cases: Array<{ name: string; command: (base: string, reports: string, profile: string) => string[]; signals: NodeJS.Signals[]; code: number; hangAfter: number }> = [
  { name: 'run, SIGTERM during the verified first request', command: (base, reports) => ['run', '--base-url', base, '--report-dir', reports], signals: ['SIGTERM'], code: 143, hangAfter: 0 },
  { name: 'run, SIGTERM while requests hang', command: (base, reports) => ['run', '--base-url', base, '--report-dir', reports], signals: ['SIGTERM'], code: 143, hangAfter: 12 },
  { name: 'run, SIGHUP while requests hang', command: (base, reports) => ['run', '--base-url', base, '--report-dir', reports], signals: ['SIGHUP'], code: 129, hangAfter: 12 },
  { name: 'run, Ctrl-C twice while requests hang', command: (base, reports) => ['run', '--base-url', base, '--report-dir', reports], signals: ['SIGINT', 'SIGINT'], code: 130, hangAfter: 12 },
  { name: 'load, SIGTERM mid-load', command: (base, reports, profile) => ['load', profile, '--base-url', base, '--report-dir', reports, '--reporter', 'console,json,junit,html,markdown'], signals: ['SIGTERM'], code: 143, hangAfter: 400 },
  { name: 'run --load, SIGHUP then SIGTERM during the load', command: (base, reports, profile) => ['run', '--load', profile, '--base-url', base, '--report-dir', reports, '--suite', 'auth'], signals: ['SIGHUP', 'SIGTERM'], code: 129, hangAfter: 600 },
];

// Each case mostly waits (for the server to be hit, for the grace to run out): two at a time keeps the file short.
t.jobs = 2;

for (const c of cases) {
  t.test(`${c.name}: exit ${c.code} within 2 s, every report written and marked interrupted, the key nowhere`, { buffered: true }, async (t) => {
    const server = await storeThatHangsAfter(c.hangAfter);
    const reports = await tempDir();
    const profile = path.join(await tempDir(), 'long.yaml');
    await writeFile(profile, SHORT_LOAD);
    // The signal comes once the server has served (or held) a few more requests than it answers: the run is mid-flight.
    // A second signal follows at once: later, a run that stopped its load at the first one may already be exiting, and a
    // signal that lands while Node tears the process down ends it by that signal.
    const run = await signalCli(c.command(server.baseUrl, reports, profile), { PETSTORE_API_KEY: KEY }, () => server.served() > c.hangAfter + (c.hangAfter === 0 ? 0 : 2), c.signals, 20);
    t.equal(run.code, c.code, run.stderr);
    t.ok((run.exitAfterMs ?? Infinity) < 2_000, `exited ${Math.round(run.exitAfterMs ?? -1)} ms after the first signal`);
    t.match(run.stderr, new RegExp(`${c.signals[0] as string}: stopping; requests in flight get 1 s`), 'it says that it is stopping');
    const report = await reportIn(reports);
    t.equal(report.interrupted, true);
    t.not(report.verdict, 'passed', `an interrupted run never passes (${report.verdict})`);
    for (const file of ['report.json', 'junit.xml', 'report.html', 'summary.md']) {
      const text = await readFile(path.join(reports, file), 'utf8').catch(() => '');
      t.ok(text.length > 0 && !text.includes(KEY), `${file} written, without the key`);
    }
    t.notOk(run.stdout.includes(KEY) || run.stderr.includes(KEY), 'the key is in no output');
  });
}

t.test('Ctrl-C stops a run within 2 s while a read waits out a 20 s consistency window, and judges no write it gave no time to show', async (t) => {
  let reads = 0;
  // A store whose writes never show: every read of one pet is a 404, so each read-after-write step retries for the whole window.
  const server = await startReferenceServer({ apiKey: KEY, wrap: (next) => (req) => (req.method === 'GET' && /\/pets\/\d+$/.test(req.path) ? (reads++, Promise.resolve({ status: 404, headers: { 'content-type': 'application/json' }, body: '{"code":"not_found","message":"no","status":404}' })) : next(req)) });
  t.teardown(() => server.close());
  const reports = await tempDir();
  const run = await signalCli(['run', '--base-url', server.baseUrl, '--report-dir', reports, '--consistency-window', '20000', '--suite', 'lifecycle'], { PETSTORE_API_KEY: KEY }, () => reads > 8, ['SIGINT']);
  t.equal(run.code, 130, run.stderr);
  t.ok((run.exitAfterMs ?? Infinity) < 2_000, `exited ${Math.round(run.exitAfterMs ?? -1)} ms after Ctrl-C`);
  const report = await reportIn(reports);
  const waiting = report.cases.filter((c) => c.skip === 'interrupted' && /waited for a write to show/.test(c.reason ?? ''));
  t.ok(waiting.length > 0, 'the cases stopped mid-wait are skipped as interrupted');
  t.notOk(report.cases.some((c) => c.outcome === 'failed' && c.retries > 0), 'none of them is failed for a write it had no time to show');
});

t.test('a server that dies mid-run: exit 2 with one line, and reports that say so with every result measured until then', async (t) => {
  let seen = 0;
  const server = await startReferenceServer({ apiKey: KEY, wrap: (next) => (req) => (seen <= 30 ? next(req) : new Promise(() => undefined)) });
  // After 30 requests the server is gone: every connection is cut without an answer.
  server.server.prependListener('request', (req) => {
    if (++seen > 30) req.socket.destroy();
  });
  t.teardown(() => server.close());
  const reports = await tempDir();
  await writeFile(path.join(reports, 'report.json'), JSON.stringify({ verdict: 'passed', note: 'an earlier run' }));
  const run = await runCli(['run', '--base-url', server.baseUrl, '--report-dir', reports], { PETSTORE_API_KEY: KEY });
  t.equal(run.code, 2);
  t.match(run.stderr, /^petstore-conformance: the server stopped answering: 3 requests in a row got no answer/m);
  const report = await reportIn(reports);
  t.equal(report.verdict, 'incomplete');
  t.equal(report.stopped?.code, 'ERR_SERVER_GONE');
  t.ok(report.counts.passed > 0, `the cases measured before are kept (${report.counts.passed} passed)`);
  t.match(await readFile(path.join(reports, 'summary.md'), 'utf8'), /the run stopped before its end \(ERR\\_SERVER\\_GONE\)/);
  t.same(JSON.parse(await readFile(path.join(reports, 'previous', 'report.json'), 'utf8')), { verdict: 'passed', note: 'an earlier run' }, "the earlier run's report is kept aside, not left in place");
});

t.test('a report folder that cannot be written stops the run before any request', async (t) => {
  let served = 0;
  const server = await startReferenceServer({ apiKey: KEY, wrap: (next) => (req) => (served++, next(req)) });
  t.teardown(() => server.close());
  const dir = await tempDir();
  const file = path.join(dir, 'not-a-folder');
  await writeFile(file, 'x');
  const locked = path.join(dir, 'locked');
  await mkdir(locked);
  await chmod(locked, 0o500);
  // root writes anywhere, so the locked folder is tried only by others; a path through a regular file is no folder for anyone.
  for (const reports of [path.join(file, 'reports'), ...(process.getuid?.() === 0 ? [] : [locked])]) {
    const run = await runCli(['run', '--base-url', server.baseUrl, '--report-dir', reports], { PETSTORE_API_KEY: KEY });
    t.equal(run.code, 2, reports);
    t.match(run.stderr, /cannot write the reports to .* \((ENOTDIR|EACCES|EEXIST)\); nothing was sent/);
  }
  t.equal(served, 0, 'no request reached the server');
});
