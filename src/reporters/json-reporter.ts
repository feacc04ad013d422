/** The canonical report: report.json in the report folder. */
import path from 'node:path';
import { stringifyExactJson } from '../model/json.js';
import type { NotStartedReport, RunReport } from '../model/results.js';
import { writeFileAtomic } from './atomic-write.js';
import { FileReporter } from './file-reporter.js';
import { NOT_STARTED_FILE, REPORT_FILES } from './report-files.js';
import type { OutputStream } from './output-streams.js';
import { redactValues } from './redact-values.js';
import type { Reporter } from './reporter.js';

/**
 * A report with its steps counted from 1, as every other report shows them (`step 1, expect.status`): a run counts them
 * from 0, as indexes into a case's steps.
 */
function stepsFromOne(report: RunReport): RunReport {
  const next = <T extends { step: number }>(item: T): T => ({ ...item, step: item.step + 1 });
  return {
    ...report,
    cases: report.cases.map((c) => ({ ...c, checks: c.checks.map(next), exchanges: c.exchanges.map(next) })),
    warnings: report.warnings.map(next),
    findings: report.findings.map((f) => ({ ...f, examples: f.examples.map(next) })),
  };
}

/** The canonical report (or the note of a run that could not start) as JSON text (exact integers; steps counted from 1). */
export function renderJson(report: RunReport | NotStartedReport): string {
  return `${stringifyExactJson('cases' in report ? stepsFromOne(report) : report, 2)}\n`;
}

/** Writes report.json when the run ends; not-started.json beside it, and nothing else, when the run could not start. */
export class JsonReporter extends FileReporter {
  private readonly notStartedFile: string;

  constructor(reportDir: string) {
    super('json', path.join(reportDir, REPORT_FILES.json), renderJson);
    this.notStartedFile = path.join(reportDir, NOT_STARTED_FILE);
  }

  async onRunNotStarted(report: NotStartedReport): Promise<void> {
    await writeFileAtomic(this.notStartedFile, renderJson(redactValues(report, this.redact)));
    this.files.push(this.notStartedFile);
  }
}

/** `--reporter json:-`: the canonical report on standard output (the console then prints to standard error). */
export class StdoutJsonReporter implements Reporter {
  readonly name = 'json:-';
  private readonly stream: OutputStream;
  private readonly redact: (text: string) => string;

  /** `stream` is the raw standard output: the report's values are redacted here, so that its structure never is. */
  constructor(stream: OutputStream, redact: (text: string) => string = (text) => text) {
    this.stream = stream;
    this.redact = redact;
  }

  onRunEnd(report: RunReport): Promise<void> {
    return this.print(report);
  }

  /** A pipeline that parses standard output gets JSON whatever happened: here, what stopped the run before it started. */
  onRunNotStarted(report: NotStartedReport): Promise<void> {
    return this.print(report);
  }

  private print(report: RunReport | NotStartedReport): Promise<void> {
    const text = renderJson(redactValues(report, this.redact));
    // A guarded standard output drops what it cannot write: its failure, not the write's, says the report was lost.
    return new Promise((resolve, reject) =>
      this.stream.write(text, (error) => {
        const failure: NodeJS.ErrnoException | null | undefined = error ?? this.stream.failure;
        if (failure) reject(new Error(`standard output failed (${failure.code ?? failure.message}): the report was not delivered`));
        else resolve();
      }),
    );
  }
}
