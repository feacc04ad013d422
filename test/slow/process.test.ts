/**
 * What only the real process shows: the quick answers of its entry, and how it stops on a signal. Each signal and a second
 * one are wired to the run as stopOnSignals says (test/e2e/fault-signals.test.ts tests what a stopped run does, in process),
 * the 1 s grace aborts the requests still hanging, and the process itself ends before anything but the grace could end it.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { INTERRUPT_GRACE_MS } from '../../src/cli/exit-codes.js';
import { cli, runRealCli, signalCli, tempDir } from '../helpers.js';
import { checkStoppedRun, SIGNAL_CASES } from '../signal-cases.js';

t.test('--version and --help answer at once', async (t) => {
  const version = await runRealCli(['--version']);
  t.equal(version.code, 0);
  t.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  const help = await runRealCli(['-h']);
  t.equal(help.code, 0);
  t.match(help.stdout, /--seed N/);
});

t.test('a working directory deleted under the run: one line, exit 2, no internal error', async (t) => {
  const dir = await tempDir();
  const script = `cd '${dir}' && rmdir '${dir}' && exec env -u NODE_OPTIONS '${process.execPath}' '${cli}' run`;
  const run = spawnSync('sh', ['-c', script], { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env['PATH'] ?? '' } });
  t.equal(run.status, 2, run.stderr);
  t.equal(run.stderr, 'petstore-conformance: the working directory no longer exists (ENOENT): cd into an existing folder and run again\n');
});

// Each case mostly waits (for the process to start, for the server to be hit, for the grace to run out): two at a time.
t.jobs = 2;

for (const c of SIGNAL_CASES.filter((x) => x.real)) {
  t.test(
    `${c.name}: the real process exits ${c.code} once the grace is over, every report written and marked interrupted, the key nowhere`,
    { buffered: true },
    (t) =>
      checkStoppedRun(
        t,
        c,
        async (args, env, ready, signals) => {
          const run = await signalCli(args, env, ready, signals, 20);
          return { ...run, said: run.stderr };
        },
        INTERRUPT_GRACE_MS,
      ),
  );
}
