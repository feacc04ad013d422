/** The reporter interface (optional event methods) and a fan-out that keeps one broken reporter from losing the others. */
import { isAwaited, listenerOf, methodOf, tellListener, type RunEvent, type RunListener } from '../model/events.js';
import type { NotStartedReport } from '../model/results.js';

/** A reporter: a named listener; it may write files and say which. */
export interface Reporter extends RunListener {
  readonly name: string;
  /** Files this reporter wrote, for the summary. */
  readonly files?: readonly string[];
  /** Takes away a live line it keeps on the console, before another line is written there. */
  clearLiveLine?(): void;
}

/** A reporter's failure, kept so the CLI can name it after the others have finished. */
export interface ReporterFailure {
  reporter: string;
  event: string;
  message: string;
}

/** Forwards every event to every reporter; a reporter that throws is recorded and skipped, never fatal. */
export class ReporterFanOut {
  /** What the run tells: each of its calls is one event, fanned out by `emit`. */
  readonly listener: Required<RunListener> = listenerOf((event) => this.emit(event));
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

  /** Tells one event to every reporter, generically over the union: awaited only where RUN_EVENTS says a listener may be. */
  emit(event: RunEvent): void | Promise<void> {
    if (isAwaited(event.type)) return this.emitAwaited(event);
    this.syncEach(methodOf(event.type), (r) => void tellListener(r, event));
  }

  /** A run's begin or end: the earlier reports set aside first; after the end, the files written are announced. */
  private async emitAwaited(event: RunEvent): Promise<void> {
    if (event.type === 'run-start') await this.ready(true);
    // What could not be set aside stays where it was; the note of this run is still written.
    if (event.type === 'run-not-started') await this.ready(false).catch(() => undefined);
    await this.asyncEach(methodOf(event.type), (r) => tellListener(r, event));
    // The run could not start: the files written are not announced (the CLI names them).
    if (event.type === 'run-not-started') this.notStarted = event.report;
    if (event.type === 'run-end') this.emit({ type: 'reports-written', files: this.files });
  }

  /** Every file the reporters wrote. */
  get files(): string[] {
    return this.reporters.flatMap((r) => (this.broken(r) ? [] : (r.files ?? [])));
  }
}
