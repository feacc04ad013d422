/** The console: progress on a TTY, then failures, warnings and the counts. */
import type { Writable } from 'node:stream';
import type { CheckInfo, CheckResult, Outcome, RunMeta, RunReport } from '../model/results.js';
import type { Reporter } from './reporter.js';

/** Where and how the console reporter writes. */
export interface ConsoleOptions {
  stream: Writable & { isTTY?: boolean };
  color: boolean;
  quiet: boolean;
}

const COLORS: Record<Outcome | 'dim' | 'bold', [number, number]> = {
  failed: [31, 39],
  errored: [35, 39],
  warned: [33, 39],
  passed: [32, 39],
  skipped: [90, 39],
  dim: [2, 22],
  bold: [1, 22],
};

const LABELS: Record<Outcome, string> = { failed: 'FAIL', errored: 'ERROR', warned: 'WARN', passed: 'PASS', skipped: 'SKIP' };

/** Strips control characters a server might have put in a message, so it cannot drive the terminal. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '�');
}

/** Prints a compact, human summary of the run. */
export class ConsoleReporter implements Reporter {
  readonly name = 'console';
  private readonly options: ConsoleOptions;
  private total = 0;
  private done = 0;
  private progressShown = false;

  constructor(options: ConsoleOptions) {
    this.options = options;
  }

  private paint(kind: keyof typeof COLORS, text: string): string {
    if (!this.options.color) return text;
    const [open, close] = COLORS[kind];
    return `\u001b[${open}m${text}\u001b[${close}m`;
  }

  private write(line = ''): void {
    this.options.stream.write(`${line}\n`);
  }

  onRunStart(meta: RunMeta, checks: readonly CheckInfo[]): void {
    this.total = checks.length;
    if (this.options.quiet) return;
    const where = meta.embeddedServer ? `${meta.baseUrl} (embedded reference server)` : meta.baseUrl;
    this.write(`${this.paint('bold', `${meta.tool.name} ${meta.tool.version}`)} → ${where}`);
    this.write(this.paint('dim', `run ${meta.runId} · clock ${meta.clock.slice(0, 10)} · ${checks.length} checks in ${meta.suites.join(', ')}`));
  }

  onCheckEnd(_result: CheckResult): void {
    this.done += 1;
    if (this.options.quiet || this.options.stream.isTTY !== true) return;
    this.options.stream.write(`\r${this.paint('dim', `checking ${this.done}/${this.total}`)}`);
    this.progressShown = true;
  }

  onRunEnd(report: RunReport): void {
    if (this.progressShown) this.options.stream.write('\r\u001b[K');
    const order: Outcome[] = this.options.quiet ? ['failed', 'errored'] : ['failed', 'errored', 'warned'];
    for (const outcome of order) {
      for (const check of report.checks.filter((c) => c.outcome === outcome)) this.printProblem(check);
    }
    const counts = (['passed', 'failed', 'warned', 'errored', 'skipped'] as const)
      .map((o) => (report.counts[o] > 0 ? this.paint(o, `${report.counts[o]} ${o}`) : `${report.counts[o]} ${o}`))
      .join(', ');
    this.write();
    if (!this.options.quiet) for (const line of this.notes(report)) this.write(this.paint('dim', line));
    this.write(`${counts} ${this.paint('dim', `(${(report.durationMs / 1000).toFixed(2)} s, ${report.requests} requests)`)}`);
    const verdict = { passed: this.paint('passed', 'PASSED'), failed: this.paint('failed', 'FAILED'), incomplete: this.paint('errored', 'INCOMPLETE') }[report.verdict];
    this.write(`verdict: ${verdict}`);
  }

  private notes(report: RunReport): string[] {
    const notes: string[] = [];
    for (const d of report.meta.deprecations) {
      notes.push(d.daysLeft > 0 ? `${d.operation} is deprecated: removed on ${d.removal}, in ${d.daysLeft} days` : `${d.operation} was removed on ${d.removal}: the suite checks that it is gone`);
    }
    if (report.meta.options['readOnly'] === true) {
      const skipped = report.checks.filter((c) => c.outcome === 'skipped' && c.reason?.includes('read-only')).length;
      notes.push(`read-only: nothing was written; ${skipped} checks that write were skipped`);
    } else {
      notes.push(`created ${report.createdPets.count} pets, each named with ${report.createdPets.namedWith}`);
    }
    const retried = report.checks.filter((c) => c.retries > 0);
    if (retried.length > 0) notes.push(`read-after-write: ${retried.length} checks needed retries to see a write (${retried.map((c) => c.id).join(', ')})`);
    return notes;
  }

  private printProblem(check: CheckResult): void {
    this.write(`${this.paint(check.outcome, LABELS[check.outcome].padEnd(5))} ${this.paint('bold', check.id)}  ${printable(check.title)}`);
    const reasons = check.assertions.filter((a) => a.outcome === check.outcome || (check.outcome === 'failed' && a.outcome === 'failed'));
    const lines = reasons.length > 0 ? reasons.map((a) => `${a.id}: ${a.message}`) : [check.reason ?? ''];
    for (const line of lines) this.write(`      ${printable(line)}`);
    const exchange = check.exchanges.at(-1);
    if (exchange) this.write(this.paint('dim', `      ${exchange.request.method} ${exchange.request.url}${exchange.response ? ` → ${exchange.response.status}` : ''}`));
    this.write(this.paint('dim', `      ${check.source.file}:${check.source.line}`));
  }
}
