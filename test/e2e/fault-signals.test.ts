/**
 * Fault suite, signals and reports: SIGINT, SIGTERM, SIGHUP and a second signal stop `run`, `run --load` and `load` with
 * every report written and marked interrupted; a run stopped by an error keeps what it measured; no earlier run's report
 * is ever left for this run's; a report folder that cannot be written stops the run before any request. The runs are
 * stopped in this process as the process entry stops them (stopOnSignals), with a short grace; the entry's own wiring
 * (each signal, the 1 s grace, a second signal, the process ending once the grace is over) is tested on the real process in
 * slow/process.test.ts.
 */
import t from 'tap';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, INTERRUPT_GRACE_MS, LAST_RESORT_MS, stopOnSignals } from '../../src/cli/exit-codes.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { runCli, stopCli, tempDir } from '../helpers.js';
import { checkStoppedRun, EXIT_BOUND_MS, reportIn, SIGNAL_CASES } from '../signal-cases.js';

const KEY = 'signal-fault-key-3f9a2c';

/** The grace of the runs stopped in this process: short, so that requests left hanging are aborted soon. */
const GRACE_MS = 50;

for (const c of SIGNAL_CASES.filter((x) => !x.real)) {
  t.test(
    `${c.name}: stopped in process, it ends ${c.code} once the grace is over, every report written and marked interrupted, the key nowhere`,
    (t) =>
      checkStoppedRun(t, c, (args, env, ready, signals) => stopCli(args, env, ready, signals, { graceMs: GRACE_MS, gapMs: 20 }), GRACE_MS),
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
  'Ctrl-C stops a run once the grace is over while a read waits out a 20 s consistency window, and judges no write it gave no time to show',
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
    t.ok((stopped.exitAfterMs ?? Infinity) < EXIT_BOUND_MS, `ended ${Math.round(stopped.exitAfterMs ?? -1)} ms after Ctrl-C`);
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
  // Three in a row, or a few more that failed beside them while the plain listing was asked.
  t.match(run.stderr, /^petstore-conformance: the server stopped answering: \d+ requests in a row got no answer/m);
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
    t.match(run.stderr, /cannot write the reports to .* \((ENOTDIR|EACCES|EEXIST)\)(: [^\n]*)?; nothing was sent\n$/);
  }
  t.equal(served, 0, 'no request reached the server');
});
