/**
 * The events of phases that run side by side, told in the order of the plan: a phase's events wait until every phase
 * before it is over, so listeners still see one phase at a time (each onPhaseEnd before the next onPhaseStart).
 */
import type { Emit, RunEvent } from '../model/events.js';

/** Holds back the events of each phase until the phases before it are over, then tells them in the order they came. */
export class OrderedPhaseEvents {
  private head = 0;
  private readonly held: RunEvent[][];
  private readonly over: boolean[];

  constructor(
    private readonly emit: Emit,
    count: number,
  ) {
    this.held = Array.from({ length: count }, () => []);
    this.over = Array.from({ length: count }, () => false);
  }

  /**
   * What phase `index` (its place in the plan) emits through: its phase and case events are held back; the run's own
   * (waits, load progress) pass at once.
   */
  emitFor(index: number): Emit {
    return (event) => {
      const ordered =
        event.type === 'phase-start' || event.type === 'phase-end' || event.type === 'case-start' || event.type === 'case-end';
      if (!ordered || index === this.head) return this.emit(event);
      this.held[index]?.push(event);
    };
  }

  /** Phase `index` is over (ended, or stopped by an error): what the phases after it held back is told, up to one still running. */
  finished(index: number): void {
    this.over[index] = true;
    while (this.head < this.over.length && this.over[this.head] === true) {
      this.head += 1;
      for (const event of this.held[this.head]?.splice(0) ?? []) void this.emit(event);
    }
  }
}
