/** Exit codes and the words of a stopping run: what the process entry needs before (and without) loading the rest of the CLI. */

import type { Verdict } from '../model/results.js';

/** The signals that stop a run. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/**
 * Exit codes, as docs/running.md documents them: 1 the contract is broken, 2 the run could not be run or completed, 3 a check
 * or phase of this project threw (a bug to report); an interrupted run exits 128 + the signal's number.
 */
export const EXIT = {
  passed: 0,
  failed: 1,
  cannotRun: 2,
  internalError: 3,
  interrupted: { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 },
} as const;

/** The exit code of a finished run's verdict: the contract broken first, then a bug of ours, then what could not be run or completed. */
export const EXIT_OF_VERDICT: Readonly<Record<Verdict, number>> = {
  passed: EXIT.passed,
  failed: EXIT.failed,
  'internal-error': EXIT.internalError,
  incomplete: EXIT.cannotRun,
};

/** The line that asks for a bug report, after what threw and where (a check id, a case, a phase). */
export function bugReportLine(what: string): string {
  return (
    `petstore-conformance: internal error: ${what}; this is a bug in petstore-conformance, not in the server under test: please ` +
    `report it (with report.json, or this line)`
  );
}

/** How long requests in flight may still finish after the first signal. */
export const INTERRUPT_GRACE_MS = 1_000;

/** However the run is stuck, a second signal ends the process this long after it. */
export const LAST_RESORT_MS = 5_000;

/** What a run says when a signal stops it; `serve` writes no reports, so it says only that it stops. */
function stoppingLine(signal: StopSignal, serving = false, graceMs = INTERRUPT_GRACE_MS): string {
  if (serving) return `petstore-conformance: ${signal}: stopping the reference server`;
  return (
    `petstore-conformance: ${signal}: stopping; requests in flight get ${graceMs / 1000} s, then the reports are written (a second ` +
    `signal aborts them now)`
  );
}

/** Sets a timer that does not keep the process alive. */
export type Schedule = (run: () => void, ms: number) => void;

/** How a process stops on its signals: where it says so, how it exits, and the timers it sets (real ones by default). */
export interface StoppingOptions {
  /** `serve` stops at once: it has no run to report. */
  serving: boolean;
  /** Writes a line (with its newline) where the person who sent the signal sees it. */
  write: (line: string) => void;
  /** Ends the process: the last resort, when a run still has not ended this long after a second signal. */
  exit: (code: number) => void;
  graceMs?: number;
  lastResortMs?: number;
  schedule?: Schedule;
}

/** The two stages of stopping, as signals to the command, and what each signal does to them. */
export interface Stopping {
  /** The first signal (its name is the reason): the run stops starting work (or stops its load) and still reports. */
  readonly interruption: AbortSignal;
  /** The grace after the first signal ran out, or a second signal came: requests in flight are aborted; the reports are still written. */
  readonly abortion: AbortSignal;
  onSignal(name: StopSignal): void;
}

const unrefTimer: Schedule = (run, ms) => void setTimeout(run, ms).unref();

/**
 * The first signal stops the run cleanly (it still reports) and gives the requests in flight a grace, then aborts them; a
 * second signal aborts them at once, and ends the process if the run has still not ended `lastResortMs` later.
 */
export function stopOnSignals(options: StoppingOptions): Stopping {
  const { serving, write, exit, graceMs = INTERRUPT_GRACE_MS, lastResortMs = LAST_RESORT_MS, schedule = unrefTimer } = options;
  const interruption = new AbortController();
  const abortion = new AbortController();
  return {
    interruption: interruption.signal,
    abortion: abortion.signal,
    onSignal(name) {
      if (!interruption.signal.aborted) {
        write(`${stoppingLine(name, serving, graceMs)}\n`);
        interruption.abort(name);
        schedule(() => abortion.abort(name), graceMs);
        return;
      }
      if (!abortion.signal.aborted) {
        write('petstore-conformance: aborting the requests in flight; writing the reports\n');
        abortion.abort(name);
      }
      schedule(() => {
        write('petstore-conformance: interrupted\n');
        exit(EXIT.interrupted[name]);
      }, lastResortMs);
    },
  };
}
