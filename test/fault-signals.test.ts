/**
 * Fault suite, signals and reports: SIGINT, SIGTERM, SIGHUP and a second signal stop `run`, `run --load` and `load` with
 * every report written and marked interrupted; a run stopped by an error keeps what it measured; no earlier run's report
 * is ever left for this run's; a report folder that cannot be written stops the run before any request. What a stopped run
 * does is tested in this process, stopped as the process entry stops it (stopOnSignals) with a short grace; the entry's own
 * wiring (each signal, the 1 s grace, a second signal, the process ending within 2 s) on the real process, three times.
 */
import t from 'tap';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, INTERRUPT_GRACE_MS, LAST_RESORT_MS, stopOnSignals, type StopSignal } from '../src/cli/exit-codes.js';
import type { RunReport } from '../src/model/results.js';
import { startReferenceServer, type RunningServer } from '../src/server/reference-server.js';
import { reportSchemaProblems, runCli, signalCli, stopCli, tempDir, type SignalledRun } from './helpers.js';

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

const SHORT_LOAD =
  'title: long load\nconnections: 2\nduration: 20\nmaxRequests: 1000000\ntimeout: 5\nqueries: [{ weight: 1 }]\nthresholds: { p99: { max: 1000 } }\n';

type Command = (base: string, reports: string, profile: string) => string[];
const runCommand: Command = (base, reports) => ['run', '--base-url', base, '--report-dir', reports];

/** Each way of stopping a run: where it runs (`real`: the process itself), what it runs, the signals, the exit code, when they come. */
const cases: Array<{ name: string; real: boolean; command: Command; signals: StopSignal[]; code: number; hangAfter: number }> = [
  {
    name: 'run, SIGTERM during the verified first request',
    real: false,
    command: runCommand,
    signals: ['SIGTERM'],
    code: 143,
    hangAfter: 0,
  },
  { name: 'run, SIGTERM while requests hang', real: true, command: runCommand, signals: ['SIGTERM'], code: 143, hangAfter: 12 },
  { name: 'run, SIGHUP while requests hang', real: false, command: runCommand, signals: ['SIGHUP'], code: 129, hangAfter: 12 },
  {
    name: 'run, Ctrl-C twice while requests hang',
    real: true,
    command: runCommand,
    signals: ['SIGINT', 'SIGINT'],
    code: 130,
    hangAfter: 12,
  },
  {
    name: 'load, SIGTERM mid-load',
    real: false,
    command: (base, reports, profile) => [
      'load',
      profile,
      '--base-url',
      base,
      '--report-dir',
      reports,
      '--reporter',
      'console,json,junit,html,markdown',
    ],
    signals: ['SIGTERM'],
    code: 143,
    hangAfter: 400,
  },
  {
    name: 'run --load, SIGHUP then SIGTERM during the load',
    real: true,
    command: (base, reports, profile) => ['run', '--load', profile, '--base-url', base, '--report-dir', reports, '--suite', 'auth'],
    signals: ['SIGHUP', 'SIGTERM'],
    code: 129,
    hangAfter: 600,
  },
];

/** The grace of the runs stopped in this process: short, so that requests left hanging are aborted soon. */
const GRACE_MS = 50;

// Each case mostly waits (for the server to be hit, for the grace to run out): two at a time keeps the file short.
t.jobs = 2;

for (const c of cases) {
  const where = c.real ? 'the real process exits' : 'stopped in process, it ends';
  t.test(
    `${c.name}: ${where} ${c.code} within 2 s, every report written and marked interrupted, the key nowhere`,
    { buffered: true },
    async (t) => {
      const server = await storeThatHangsAfter(c.hangAfter);
      const reports = await tempDir();
      const profile = path.join(await tempDir(), 'long.yaml');
      await writeFile(profile, SHORT_LOAD);
      // The signal comes once the server holds two requests it will not answer (the first, when it answers none): the run
      // is mid-flight. (A load's two connections then both wait, and nothing more is sent until its 5 s timeout.)
      // A second signal follows at once: later, a run that stopped its load at the first one may already be exiting, and a
      // signal that lands while Node tears the process down ends it by that signal.
      const ready = (): boolean => server.served() >= c.hangAfter + (c.hangAfter === 0 ? 1 : 2);
      const args = c.command(server.baseUrl, reports, profile);
      const env = { PETSTORE_API_KEY: KEY };
      let stopped: SignalledRun & { said: string };
      if (c.real) {
        const done = await signalCli(args, env, ready, c.signals, 20);
        stopped = { ...done, said: done.stderr };
      } else {
        stopped = await stopCli(args, env, ready, c.signals, { graceMs: GRACE_MS, gapMs: 20 });
      }
      t.equal(stopped.code, c.code, stopped.stderr);
      t.ok((stopped.exitAfterMs ?? Infinity) < 2_000, `ended ${Math.round(stopped.exitAfterMs ?? -1)} ms after the first signal`);
      const grace = c.real ? INTERRUPT_GRACE_MS : GRACE_MS;
      t.match(stopped.said, `${c.signals[0] as string}: stopping; requests in flight get ${grace / 1000} s`, 'it says that it is stopping');
      const report = await reportIn(reports);
      t.equal(report.interrupted, true);
      t.not(report.verdict, 'passed', `an interrupted run never passes (${report.verdict})`);
      for (const file of ['report.json', 'junit.xml', 'report.html', 'summary.md']) {
        const text = await readFile(path.join(reports, file), 'utf8').catch(() => '');
        t.ok(text.length > 0 && !text.includes(KEY), `${file} written, without the key`);
      }
      t.notOk(stopped.stdout.includes(KEY) || stopped.stderr.includes(KEY), 'the key is in no output');
    },
  );
}

t.test(
  'what each signal does: the first stops the run and starts the grace, a second aborts at once, and the last resort ends the process',
  async (t) => {
    const timers: Array<{ run: () => void; ms: number }> = [];
    const said: string[] = [];
    const exits: number[] = [];
    const stopping = stopOnSignals({
      serving: false,
      write: (line) => said.push(line),
      exit: (code) => exits.push(code),
      schedule: (run, ms) => timers.push({ run, ms }),
    });
    t.notOk(stopping.interruption.aborted || stopping.abortion.aborted, 'nothing is stopped before a signal');
    stopping.onSignal('SIGHUP');
    t.equal(stopping.interruption.reason, 'SIGHUP', 'the first signal stops the run, named by it');
    t.notOk(stopping.abortion.aborted, 'the requests in flight get their grace');
    t.same(said, [
      'petstore-conformance: SIGHUP: stopping; requests in flight get 1 s, then the reports are written (a second signal aborts them now)\n',
    ]);
    t.same(
      timers.map((x) => x.ms),
      [INTERRUPT_GRACE_MS],
    );
    timers[0]?.run();
    t.equal(stopping.abortion.reason, 'SIGHUP', 'when the grace runs out, what is in flight is aborted');
    stopping.onSignal('SIGTERM');
    t.same(
      timers.map((x) => x.ms),
      [INTERRUPT_GRACE_MS, LAST_RESORT_MS],
      'a later signal sets the last resort',
    );
    t.equal(said.length, 1, 'nothing more to say: the requests were aborted already');
    timers[1]?.run();
    t.same(exits, [EXIT.interrupted.SIGTERM], 'the last resort exits by the signal that set it');
    t.equal(said.at(-1), 'petstore-conformance: interrupted\n');

    const early: Array<() => void> = [];
    const twice = stopOnSignals({
      serving: false,
      write: (line) => said.push(line),
      exit: (code) => exits.push(code),
      graceMs: 250,
      schedule: (run) => early.push(run),
    });
    twice.onSignal('SIGINT');
    t.match(said.at(-1), 'requests in flight get 0.25 s', 'the line says the grace it gives');
    twice.onSignal('SIGINT');
    t.equal(twice.abortion.reason, 'SIGINT', 'a second signal aborts what is in flight at once');
    t.equal(said.at(-1), 'petstore-conformance: aborting the requests in flight; writing the reports\n');
    const serve = stopOnSignals({
      serving: true,
      write: (line) => said.push(line),
      exit: (code) => exits.push(code),
      schedule: () => undefined,
    });
    serve.onSignal('SIGTERM');
    t.equal(said.at(-1), 'petstore-conformance: SIGTERM: stopping the reference server\n', 'serve only says that it stops');
  },
);

t.test(
  'Ctrl-C stops a run within 2 s while a read waits out a 20 s consistency window, and judges no write it gave no time to show',
  async (t) => {
    let reads = 0;
    // A store whose writes never show: every read of one pet is a 404, so each read-after-write step retries for the whole window.
    const server = await startReferenceServer({
      apiKey: KEY,
      wrap: (next) => (req) => {
        if (req.method !== 'GET' || !/\/pets\/\d+$/.test(req.path)) return next(req);
        reads++;
        return Promise.resolve({
          status: 404,
          headers: { 'content-type': 'application/json' },
          body: '{"code":"not_found","message":"no","status":404}',
        });
      },
    });
    t.teardown(() => server.close());
    const reports = await tempDir();
    const stopped = await stopCli(
      ['run', '--base-url', server.baseUrl, '--report-dir', reports, '--consistency-window', '20000', '--suite', 'lifecycle'],
      { PETSTORE_API_KEY: KEY },
      () => reads > 2,
      ['SIGINT'],
      { graceMs: GRACE_MS },
    );
    t.equal(stopped.code, 130, stopped.stderr);
    t.ok((stopped.exitAfterMs ?? Infinity) < 2_000, `ended ${Math.round(stopped.exitAfterMs ?? -1)} ms after Ctrl-C`);
    const report = await reportIn(reports);
    const waiting = report.cases.filter((c) => c.skip === 'interrupted' && /waited for a write to show/.test(c.reason ?? ''));
    t.ok(waiting.length > 0, 'the cases stopped mid-wait are skipped as interrupted');
    t.notOk(
      report.cases.some((c) => c.outcome === 'failed' && c.retries > 0),
      'none of them is failed for a write it had no time to show',
    );
  },
);

t.test('a server that dies mid-run: exit 2 with one line, and reports that say so with every result measured until then', async (t) => {
  let seen = 0;
  const server = await startReferenceServer({
    apiKey: KEY,
    wrap: (next) => (req) => (seen <= 30 ? next(req) : new Promise(() => undefined)),
  });
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
  t.same(
    JSON.parse(await readFile(path.join(reports, 'previous', 'report.json'), 'utf8')),
    { verdict: 'passed', note: 'an earlier run' },
    "the earlier run's report is kept aside, not left in place",
  );
});

t.test('a report folder that cannot be written stops the run before any request', async (t) => {
  let served = 0;
  const server = await startReferenceServer({
    apiKey: KEY,
    wrap: (next) => (req) => {
      served++;
      return next(req);
    },
  });
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
