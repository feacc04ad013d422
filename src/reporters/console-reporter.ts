/** The console: progress on a TTY, then failures, warnings and the counts. */
import type { Writable } from 'node:stream';
import { emptyCounts, type CheckInfo, type CheckResult, type Outcome, type RunMeta, type RunReport } from '../model/results.js';
import type { Reporter } from './reporter.js';
import { countdownSentence, decidingExchange, LABELS, oneLine, problemMessages, safeText } from './report-view.js';

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


/** Progress of one suite while the run goes on. */
interface SuiteProgress {
  total: number;
  done: number;
  counts: Record<Outcome, number>;
}

/** Prints progress suite by suite on a terminal, then failures with their reasons and a curl to reproduce, warnings and the counts. */
export class ConsoleReporter implements Reporter {
  readonly name = 'console';
  private readonly options: ConsoleOptions;
  private readonly suites = new Map<string, SuiteProgress>();
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

  private get showsProgress(): boolean {
    return !this.options.quiet && this.options.stream.isTTY === true;
  }

  private clearProgress(): void {
    if (this.progressShown) this.options.stream.write('\r\u001b[K');
    this.progressShown = false;
  }

  onRunStart(meta: RunMeta, checks: readonly CheckInfo[]): void {
    this.total = checks.length;
    for (const check of checks) {
      const suite = this.suites.get(check.suite) ?? { total: 0, done: 0, counts: emptyCounts() };
      suite.total += 1;
      this.suites.set(check.suite, suite);
    }
    if (this.options.quiet) return;
    const where = meta.embeddedServer ? `${meta.baseUrl} (embedded reference server)` : meta.baseUrl;
    this.write(`${this.paint('bold', `${meta.tool.name} ${meta.tool.version}`)} → ${where}`);
    this.write(this.paint('dim', `run ${meta.runId} · clock ${meta.clock.slice(0, 10)} · ${checks.length} checks in ${meta.suites.join(', ')}`));
  }

  onCheckEnd(result: CheckResult): void {
    this.done += 1;
    const suite = this.suites.get(result.suite);
    if (suite) {
      suite.done += 1;
      suite.counts[result.outcome] += 1;
    }
    if (!this.showsProgress) return;
    this.clearProgress();
    if (suite && suite.done === suite.total) this.write(this.suiteLine(result.suite, suite));
    if (this.done < this.total) {
      this.options.stream.write(this.paint('dim', `checking ${this.done}/${this.total}${suite && suite.done < suite.total ? ` · ${result.suite} ${suite.done}/${suite.total}` : ''}`));
      this.progressShown = true;
    }
  }

  private suiteLine(name: string, suite: SuiteProgress): string {
    const worst = (['failed', 'errored', 'warned', 'passed', 'skipped'] as const).find((o) => suite.counts[o] > 0) ?? 'passed';
    const mark = { failed: '✗', errored: '!', warned: '~', passed: '✓', skipped: '-' }[worst];
    const detail = (['passed', 'failed', 'warned', 'errored', 'skipped'] as const).filter((o) => suite.counts[o] > 0).map((o) => `${suite.counts[o]} ${o}`).join(', ');
    return `${this.paint(worst, mark)} ${name.padEnd(14)} ${this.paint('dim', detail)}`;
  }

  onRunEnd(report: RunReport): void {
    this.clearProgress();
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
    const interrupted = report.interrupted === true ? ` ${this.paint('errored', '(interrupted: the checks not yet started were skipped)')}` : '';
    this.write(`verdict: ${verdict}${interrupted}`);
  }

  private notes(report: RunReport): string[] {
    const notes: string[] = [];
    notes.push(...report.meta.deprecations.map(countdownSentence));
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
    this.write(`${this.paint(check.outcome, LABELS[check.outcome].padEnd(5))} ${this.paint('bold', check.id)}  ${safeText(check.title)}`);
    for (const line of problemMessages(check)) this.write(`      ${safeText(oneLine(line, 300))}`);
    const exchange = decidingExchange(check);
    if (exchange) this.write(this.paint('dim', `      ${exchange.request.method} ${safeText(exchange.request.url)}${exchange.response ? ` → ${exchange.response.status}` : ''}`));
    if (exchange?.reproduce !== undefined && check.outcome !== 'warned') this.write(this.paint('dim', `      reproduce: ${safeText(exchange.reproduce)}`));
    this.write(this.paint('dim', `      ${check.source.file}:${check.source.line}`));
  }
}
