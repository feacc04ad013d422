/** The canonical report: report.json in the report folder. */
import path from 'node:path';
import type { Writable } from 'node:stream';
import { stringifyExactJson } from '../model/json.js';
import type { RunReport } from '../model/results.js';
import { FileReporter, REPORT_FILES } from './file-reporter.js';
import { redactValues } from './redact-values.js';
import type { Reporter } from './reporter.js';

/** The canonical report as JSON text (exact integers). */
export function renderJson(report: RunReport): string {
  return `${stringifyExactJson(report, 2)}\n`;
}

/** Writes report.json when the run ends. */
export class JsonReporter extends FileReporter {
  constructor(reportDir: string) {
    super('json', path.join(reportDir, REPORT_FILES.json), renderJson);
  }
}

/** `--reporter json:-`: the canonical report on standard output (the console then prints to standard error). */
export class StdoutJsonReporter implements Reporter {
  readonly name = 'json:-';
  private readonly stream: Writable;
  private readonly redact: (text: string) => string;

  /** `stream` is the raw standard output: the report's values are redacted here, so that its structure never is. */
  constructor(stream: Writable, redact: (text: string) => string = (text) => text) {
    this.stream = stream;
    this.redact = redact;
  }

  onRunEnd(report: RunReport): Promise<void> {
    const text = renderJson(redactValues(report, this.redact));
    return new Promise((resolve, reject) => this.stream.write(text, (error) => (error ? reject(error) : resolve())));
  }
}
