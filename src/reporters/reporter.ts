/** The reporter interface (optional event methods) and a fan-out that keeps one broken reporter from losing the others. */
import type { PhaseInfo, RunListener, ServiceWait } from '../model/events.js';
import type { ServerWait } from '../model/exchange.js';
import type { LoadProgress } from '../model/load.js';
import type { CaseInfo, CaseResult, NotStartedReport, RunMeta, RunReport } from '../model/results.js';

/** A reporter: a named listener; it may write files and say which. */
export interface Reporter extends RunListener {
  readonly name: string;
  /** Files this reporter wrote, for the summary. */
  readonly files?: readonly string[];
}

/** A reporter's failure, kept so the CLI can name it after the others have finished. */
export interface ReporterFailure {
  reporter: string;
  event: string;
  message: string;
}

/** Forwards every event to every reporter; a reporter that throws is recorded and skipped, never fatal. */
export class ReporterFanOut implements RunListener {
  readonly failures: ReporterFailure[] = [];
  /** What stopped the run before it started, once the reporters have rendered it. */
  notStarted: NotStartedReport | undefined;
  private readonly reporters: readonly Reporter[];
  private readonly beforeFirst: ((started: boolean) => Promise<void>) | undefined;
  private readied: Promise<void> | undefined;

  /**
   * `beforeFirst`: what must be done once, before any reporter hears that the run started or could not start (the
   * earlier reports moved aside), told which it is; unlike a reporter's failure, its error stops a run that was starting, which then has
   * not.
   */
  constructor(reporters: readonly Reporter[], beforeFirst?: (started: boolean) => Promise<void>) {
    this.reporters = reporters;
    this.beforeFirst = beforeFirst;
  }

  /** Runs `beforeFirst` once: a run that could not start because of it still tells its reporters, without trying it again. */
  private ready(started: boolean): Promise<void> {
    this.readied ??= this.beforeFirst?.(started) ?? Promise.resolve();
    return this.readied;
  }

  private record(reporter: Reporter, event: string, error: unknown): void {
    this.failures.push({ reporter: reporter.name, event, message: error instanceof Error ? error.message : String(error) });
  }

  private broken(reporter: Reporter): boolean {
    return this.failures.some((f) => f.reporter === reporter.name);
  }

  private syncEach(event: string, call: (r: Reporter) => void): void {
    for (const reporter of this.reporters) {
      if (this.broken(reporter)) continue;
      try {
        call(reporter);
      } catch (error) {
        this.record(reporter, event, error);
      }
    }
  }

  private async asyncEach(event: string, call: (r: Reporter) => void | Promise<void>): Promise<void> {
    await Promise.all(
      this.reporters.map(async (reporter) => {
        if (this.broken(reporter)) return;
        try {
          await call(reporter);
        } catch (error) {
          this.record(reporter, event, error);
        }
      }),
    );
  }

  async onRunStart(meta: RunMeta, cases: readonly CaseInfo[]): Promise<void> {
    await this.ready(true);
    await this.asyncEach('onRunStart', (r) => r.onRunStart?.(meta, cases));
  }

  onPhaseStart(phase: PhaseInfo): void {
    this.syncEach('onPhaseStart', (r) => r.onPhaseStart?.(phase));
  }

  onPhaseEnd(phase: PhaseInfo, results: readonly CaseResult[]): void {
    this.syncEach('onPhaseEnd', (r) => r.onPhaseEnd?.(phase, results));
  }

  onCaseStart(info: CaseInfo): void {
    this.syncEach('onCaseStart', (r) => r.onCaseStart?.(info));
  }

  onCaseEnd(result: CaseResult): void {
    this.syncEach('onCaseEnd', (r) => r.onCaseEnd?.(result));
  }

  onServiceWait(wait: ServiceWait): void {
    this.syncEach('onServiceWait', (r) => r.onServiceWait?.(wait));
  }

  onWait(wait: ServerWait): void {
    this.syncEach('onWait', (r) => r.onWait?.(wait));
  }

  onLoadProgress(progress: LoadProgress): void {
    this.syncEach('onLoadProgress', (r) => r.onLoadProgress?.(progress));
  }

  onLoadEnd(): void {
    this.syncEach('onLoadEnd', (r) => r.onLoadEnd?.());
  }

  /** The run could not start: the reporters that write something for it do (the files written are not announced: the CLI names them). */
  async onRunNotStarted(report: NotStartedReport): Promise<void> {
    // What could not be set aside stays where it was; the note of this run is still written.
    await this.ready(false).catch(() => undefined);
    await this.asyncEach('onRunNotStarted', (r) => r.onRunNotStarted?.(report));
    this.notStarted = report;
  }

  /** The report is final: each reporter renders it, then the files written are announced to those that list them. */
  async onRunEnd(report: RunReport): Promise<void> {
    await this.asyncEach('onRunEnd', (r) => r.onRunEnd?.(report));
    const files = this.files;
    this.syncEach('onReportsWritten', (r) => r.onReportsWritten?.(files));
  }

  /** Every file the reporters wrote. */
  get files(): string[] {
    return this.reporters.flatMap((r) => (this.broken(r) ? [] : (r.files ?? [])));
  }
}
