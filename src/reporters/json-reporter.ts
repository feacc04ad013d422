/** The canonical report: report.json in the report folder. */
import path from 'node:path';
import { stringifyExactJson } from '../model/json.js';
import type { RunReport } from '../model/results.js';
import { writeFileAtomic } from './atomic-write.js';
import type { Reporter } from './reporter.js';

/** Writes report.json when the run ends. */
export class JsonReporter implements Reporter {
  readonly name = 'json';
  readonly files: string[] = [];
  private readonly file: string;

  constructor(reportDir: string) {
    this.file = path.join(reportDir, 'report.json');
  }

  async onRunEnd(report: RunReport): Promise<void> {
    await writeFileAtomic(this.file, `${stringifyExactJson(report, 2)}\n`);
    this.files.push(this.file);
  }
}
