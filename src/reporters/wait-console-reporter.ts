/** The console while --wait-for waits for the service: a live line on a terminal, nothing in a log (the outcome says enough). */
import type { Writable } from 'node:stream';
import type { ServiceWait } from '../model/events.js';
import type { Reporter } from './reporter.js';

/** The live line: what is waited for, how long so far out of how long, and why the last try got no answer. */
function serviceWaitLine(wait: ServiceWait): string {
  const seconds = (ms: number): string => (ms / 1000).toFixed(0);
  return (
    `waiting for ${wait.url} to answer: ${seconds(wait.waitedMs)}/${seconds(wait.boundMs)} s, ${wait.tries} ` +
    `${wait.tries === 1 ? 'try' : 'tries'} (${wait.last})`
  );
}

/**
 * Shows each try of --wait-for on one line that it rewrites, on a terminal only; the line is gone before the run starts or says why it did
 * not.
 */
export class WaitConsoleReporter implements Reporter {
  readonly name = 'wait-console';
  private shown = false;

  constructor(private readonly options: { stream: Writable & { isTTY?: boolean }; quiet: boolean }) {}

  onServiceWait(wait: ServiceWait): void {
    if (this.options.quiet || this.options.stream.isTTY !== true) return;
    this.options.stream.write(`\r\u001b[K${serviceWaitLine(wait)}`);
    this.shown = true;
  }

  onRunStart(): void {
    this.clearLiveLine();
  }

  onRunNotStarted(): void {
    this.clearLiveLine();
  }

  /** Takes the live line away (before another line is written). */
  clearLiveLine(): void {
    if (this.shown) this.options.stream.write('\r\u001b[K');
    this.shown = false;
  }
}
