/**
 * The events of phases that run side by side, told in the order of the plan: a phase's events wait until every phase
 * before it is over, so listeners still see one phase at a time (each onPhaseEnd before the next onPhaseStart).
 */
import type { RunListener } from '../model/events.js';

/** Holds back the events of each phase until the phases before it are over, then tells them in the order they came. */
export class OrderedPhaseEvents {
  private head = 0;
  private readonly held: Array<Array<() => void>>;
  private readonly over: boolean[];

  constructor(
    private readonly listener: RunListener,
    count: number,
  ) {
    this.held = Array.from({ length: count }, () => []);
    this.over = Array.from({ length: count }, () => false);
  }

  /** The listener phase `index` (its place in the plan) tells its events to; the run's own events (waits, load progress) pass at once. */
  listenerFor(index: number): RunListener {
    const { listener } = this;
    const tell = (event: () => void): void => {
      if (index === this.head) event();
      else this.held[index]?.push(event);
    };
    return {
      onPhaseStart: (phase) => tell(() => listener.onPhaseStart?.(phase)),
      onPhaseEnd: (phase, results) => tell(() => listener.onPhaseEnd?.(phase, results)),
      onCaseStart: (info) => tell(() => listener.onCaseStart?.(info)),
      onCaseEnd: (result) => tell(() => listener.onCaseEnd?.(result)),
      onWait: (wait) => listener.onWait?.(wait),
      onLoadProgress: (progress) => listener.onLoadProgress?.(progress),
      onLoadEnd: () => listener.onLoadEnd?.(),
    };
  }

  /** Phase `index` is over (ended, or stopped by an error): what the phases after it held back is told, up to the next one still running. */
  finished(index: number): void {
    this.over[index] = true;
    while (this.head < this.over.length && this.over[this.head] === true) {
      this.head += 1;
      for (const event of this.held[this.head]?.splice(0) ?? []) event();
    }
  }
}
