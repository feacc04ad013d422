/**
 * What only the real process shows: the quick answers of its entry, and how it stops on a signal. Each signal and a second
 * one are wired to the run as stopOnSignals says (fast/fault-signals.test.ts tests what a stopped run does, in process),
 * the 1 s grace aborts the requests still hanging, and the process itself ends within 2 s of the first signal.
 */
import t from 'tap';
import { INTERRUPT_GRACE_MS } from '../../src/cli/exit-codes.js';
import { runRealCli, signalCli } from '../helpers.js';
import { checkStoppedRun, SIGNAL_CASES } from '../signal-cases.js';

t.test('--version and --help answer at once', async (t) => {
  const version = await runRealCli(['--version']);
  t.equal(version.code, 0);
  t.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  const help = await runRealCli(['-h']);
  t.equal(help.code, 0);
  t.match(help.stdout, /--seed N/);
});

// Each case mostly waits (for the process to start, for the server to be hit, for the grace to run out): two at a time.
t.jobs = 2;

for (const c of SIGNAL_CASES.filter((x) => x.real)) {
  t.test(
    `${c.name}: the real process exits ${c.code} within 2 s, every report written and marked interrupted, the key nowhere`,
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
