/** The console side of load: progress (live on a terminal, a line every 10 s in a log), then the load figures of the report. */
import type { Writable } from 'node:stream';
import type { LoadProgress } from '../model/load.js';
import type { RunReport } from '../model/results.js';
import { loadFigures } from './load-figures.js';
import { MARKS } from './report-view.js';
import type { Reporter } from './reporter.js';

/** Where the load summary goes. */
export interface LoadConsoleOptions {
  stream: Writable & { isTTY?: boolean };
  quiet: boolean;
}

/** Seconds between two progress lines when the output is not a terminal (a CI log). */
const LOG_PROGRESS_SECONDS = 10;

/** One progress line: where the run is, what it sent and got. */
function progressLine(p: LoadProgress, elapsedSeconds = p.elapsedSeconds): string {
  const target = p.rate === undefined ? '' : ` (target ${p.rate}/s)`;
  return (
    `load ${p.profile}: ${elapsedSeconds.toFixed(0)}/${p.plannedSeconds.toFixed(0)} s, ${p.requests} requests, ${p.responses} ` +
    `responses, ${p.errors} errors, ${p.rps} req/s${target}`
  );
}

/** Shows progress (a live line on a terminal, a line every 10 s otherwise) and the load figures when the run ends. */
export class LoadConsoleReporter implements Reporter {
  readonly name = 'load-console';
  private readonly options: LoadConsoleOptions;
  private progressShown = false;
  /** Seconds of earlier stages (each stage counts its own time from 0), so a log line comes every 10 s of the whole run. */
  private offset = 0;
  private lastElapsed = 0;
  private nextLogAt = LOG_PROGRESS_SECONDS;

  constructor(options: LoadConsoleOptions) {
    this.options = options;
  }

  onLoadProgress(p: LoadProgress): void {
    if (this.options.quiet) return;
    if (this.options.stream.isTTY === true) {
      this.options.stream.write(`\r\u001b[K${progressLine(p)}`);
      this.progressShown = true;
      return;
    }
    if (p.elapsedSeconds < this.lastElapsed) this.offset += this.lastElapsed;
    this.lastElapsed = p.elapsedSeconds;
    const total = this.offset + p.elapsedSeconds;
    if (total < this.nextLogAt) return;
    this.nextLogAt = (Math.floor(total / LOG_PROGRESS_SECONDS) + 1) * LOG_PROGRESS_SECONDS;
    this.options.stream.write(`${progressLine(p)}\n`);
  }

  onLoadEnd(): void {
    if (this.progressShown) this.options.stream.write('\r\u001b[K');
    this.progressShown = false;
  }

  onRunEnd(report: RunReport): void {
    if (this.options.quiet || report.load === undefined) return;
    const { heading, figures, thresholds } = loadFigures(report.load, report);
    // Every threshold with its verdict and what was measured, passed ones too, aligned as load tools print them.
    const width = Math.max(0, ...thresholds.map((c) => c.expression.length));
    const lines = [
      heading,
      ...figures.filter((f) => f.label !== 'profile').map((f) => `  ${f.label}: ${f.value}`),
      ...(thresholds.length === 0 ? [] : ['  thresholds:']),
      ...thresholds.map((c) => `    ${MARKS[c.outcome]} ${c.expression.padEnd(width)}   ${c.figure}`),
    ];
    for (const line of lines) this.options.stream.write(`${line}\n`);
  }
}
