/** A reporter that renders the finished report into one file, written atomically. */
import type { RunReport } from '../model/results.js';
import { writeFileAtomic } from './atomic-write.js';
import { redactValues } from './redact-values.js';
import type { Reporter } from './reporter.js';

/** Renders the report into `file` when the run ends; a render that throws leaves any earlier file untouched. */
export class FileReporter implements Reporter {
  readonly name: string;
  readonly files: string[] = [];
  /**
   * Applied to every value of the report before it is rendered (never to its structure): whoever makes the reporters sets the run's
   * redactor.
   */
  redact: (text: string) => string = (text) => text;
  private readonly file: string;
  private readonly render: (report: RunReport) => string;

  constructor(name: string, file: string, render: (report: RunReport) => string) {
    this.name = name;
    this.file = file;
    this.render = render;
  }

  async onRunEnd(report: RunReport): Promise<void> {
    await writeFileAtomic(this.file, this.render(redactValues(report, this.redact)));
    this.files.push(this.file);
  }
}
