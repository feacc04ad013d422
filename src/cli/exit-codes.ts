/** Exit codes and the words of a stopping run: what the process entry needs before (and without) loading the rest of the CLI. */

/** The signals that stop a run. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** Exit codes, as the README documents them: an interrupted run exits 128 + the signal's number. */
export const EXIT = { passed: 0, failed: 1, cannotRun: 2, interrupted: { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } } as const;

/** How long requests in flight may still finish after the first signal. */
export const INTERRUPT_GRACE_MS = 1_000;

/** What a run says when a signal stops it; `serve` writes no reports, so it says only that it stops. */
export function stoppingLine(signal: StopSignal, serving = false): string {
  if (serving) return `petstore-conformance: ${signal}: stopping the reference server`;
  return `petstore-conformance: ${signal}: stopping; requests in flight get ${INTERRUPT_GRACE_MS / 1000} s, then the reports are written (a second signal aborts them now)`;
}
