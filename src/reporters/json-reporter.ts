/** The canonical report: report.json in the report folder. */
import path from 'node:path';
import { stringifyExactJson } from '../model/json.js';
import type { RunReport } from '../model/results.js';
import { FileReporter, REPORT_FILES } from './file-reporter.js';

/** The canonical report as JSON text (exact integers). */
function renderJson(report: RunReport): string {
  return `${stringifyExactJson(report, 2)}\n`;
}

/** Writes report.json when the run ends. */
export class JsonReporter extends FileReporter {
  constructor(reportDir: string) {
    super('json', path.join(reportDir, REPORT_FILES.json), renderJson);
  }
}
