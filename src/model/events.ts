/** The events of a run, declared once (RUN_EVENTS): the typed union (RunEvent) and the listener reporters implement, both made of it. */
import type { ServerWait } from './exchange.js';
import type { LoadProgress } from './load.js';
import type { CaseInfo, CaseResult, NotStartedReport, RunMeta, RunReport } from './results.js';

/** A phase of a run (the store fill, the declared cases, fuzzing, a load...), as events name it. */
export interface PhaseInfo {
  id: string;
  title: string;
}

/** A try of --wait-for that got no answer: the service is still starting, or not there. */
export interface ServiceWait {
  url: string;
  /** Tries so far, this one included. */
  tries: number;
  /** Since the first try began. */
  waitedMs: number;
  boundMs: number;
  /** Why this try got no answer, in words. */
  last: string;
}

/** A listener's method for an event: the begin and end of a run may be awaited, every other event is told and not waited for. */
type Method<Fields extends readonly unknown[], Awaited extends boolean> = Awaited extends true
  ? (...fields: Fields) => void | Promise<void>
  : (...fields: Fields) => void;

/** One event as declared: the names of its fields in the order its listener method takes them (their types ride along). */
interface EventSpec<Fields extends readonly unknown[], Names extends readonly string[], Awaited extends boolean> {
  readonly names: Names;
  readonly awaited: Awaited;
  /** Never set: carries the fields' types. */
  readonly fields?: Fields;
}

/** Declares an event whose listener method is not awaited: `told<[ServerWait]>()('wait')`. */
function told<Fields extends readonly unknown[]>() {
  return <const Names extends readonly string[] & { length: Fields['length'] }>(...names: Names): EventSpec<Fields, Names, false> => ({
    names,
    awaited: false,
  });
}

/** Declares an event whose listener method may be awaited (a run's begin and end). */
function awaited<Fields extends readonly unknown[]>() {
  return <const Names extends readonly string[] & { length: Fields['length'] }>(...names: Names): EventSpec<Fields, Names, true> => ({
    names,
    awaited: true,
  });
}

/**
 * Every event of a run, each declared once: its type, the fields it carries, in the order its listener method
 * (`on` and the type in PascalCase: 'case-end' → onCaseEnd) takes them. The event union, the listener and every fan-out are made of
 * this table. Begin and end events come in pairs: every case-end follows its case-start, every phase-end its phase-start, both inside
 * run-start and run-end.
 */
export const RUN_EVENTS = {
  /** --wait-for: a try got no answer; the service is asked again after a pause, within the bound (before run-start). */
  'service-wait': told<[ServiceWait]>()('wait'),
  /** The run is about to send its first case (after the preflight). */
  'run-start': awaited<[RunMeta, readonly CaseInfo[]]>()('meta', 'cases'),
  /** A phase begins (one the plan runs; its cases may still all be reported not judged, with why). */
  'phase-start': told<[PhaseInfo]>()('phase'),
  /** A phase is over: the results of its cases, in the order of the report. */
  'phase-end': told<[PhaseInfo, readonly CaseResult[]]>()('phase', 'results'),
  'case-start': told<[CaseInfo]>()('info'),
  'case-end': told<[CaseResult]>()('result'),
  /** The server asked the suite to wait (429, 503 with Retry-After), and it waits: nothing moves until the wait is over. */
  wait: told<[ServerWait]>()('wait'),
  /** Once a second while a load profile runs. */
  'load-progress': told<[LoadProgress]>()('progress'),
  /** The load has stopped (before its result is judged). */
  'load-end': told<[]>()(),
  /** The run could not start (before run-start; no other event follows): nothing was judged, only what stopped it is known. */
  'run-not-started': awaited<[NotStartedReport]>()('report'),
  /** The run is over and judged: the report is final. */
  'run-end': awaited<[RunReport]>()('report'),
  /** Every reporter has finished: the files written, for a reporter that lists them (told by the reporters' fan-out, never by the run). */
  'reports-written': told<[readonly string[]]>()('files'),
} as const;

/** The type of an event: a key of RUN_EVENTS. */
export type RunEventType = keyof typeof RUN_EVENTS;

type SpecOf<T extends RunEventType> = (typeof RUN_EVENTS)[T];
type FieldsOf<T extends RunEventType> = SpecOf<T> extends EventSpec<infer F, readonly string[], boolean> ? F : never;
type NamesOf<T extends RunEventType> = SpecOf<T>['names'];
type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<S>;

/** The listener method an event calls: 'case-end' → 'onCaseEnd'. */
export type MethodOf<T extends RunEventType> = `on${Pascal<T>}`;

/** One event as `emit` takes it: its type and its fields by name. */
type EventOf<T extends RunEventType> = { readonly type: T } & {
  readonly [I in keyof NamesOf<T> & `${number}` as NamesOf<T>[I] & string]: FieldsOf<T>[I & keyof FieldsOf<T>];
};

/** Every event of a run, as one typed union made of RUN_EVENTS. */
export type RunEvent = { [T in RunEventType]: EventOf<T> }[RunEventType];

/** A listener for the events of a run (the shape every reporter has): one optional method per event of RUN_EVENTS. */
export type RunListener = {
  [T in RunEventType as MethodOf<T>]?: Method<FieldsOf<T>, SpecOf<T>['awaited']>;
};

/** Emits an event: what every part of a run that tells of something calls, never a listener's method itself. */
export type Emit = (event: RunEvent) => void | Promise<void>;

/** Every event type, in the order RUN_EVENTS declares them. */
export const RUN_EVENT_TYPES = Object.keys(RUN_EVENTS) as RunEventType[];

/** The listener method of an event type. */
export function methodOf<T extends RunEventType>(type: T): MethodOf<T> {
  return `on${type.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase())}` as MethodOf<T>;
}

/** Whether a listener's answer to an event of this type is awaited (a run's begin and end). */
export function isAwaited(type: RunEventType): boolean {
  return RUN_EVENTS[type].awaited;
}

/** A listener method, as the generic code calls it: its fields spread in the declared order. */
type AnyMethod = (...fields: unknown[]) => void | Promise<void>;

const METHODS = new Map(RUN_EVENT_TYPES.map((type) => [type, methodOf(type)]));

/** The fields of an event, in the order its listener method takes them. */
export function fieldsOf(event: RunEvent): unknown[] {
  const record = event as unknown as Record<string, unknown>;
  return RUN_EVENTS[event.type].names.map((name) => record[name]);
}

/** The one place an event becomes a call of the listener's method of the same name. */
export function tellListener(listener: RunListener, event: RunEvent): void | Promise<void> {
  const method = (listener as Record<string, AnyMethod | undefined>)[METHODS.get(event.type) ?? ''];
  return method?.apply(listener, fieldsOf(event));
}

/** The event a call of a listener method stands for: the inverse of tellListener. */
export function eventOf(type: RunEventType, fields: readonly unknown[]): RunEvent {
  const event: Record<string, unknown> = { type };
  RUN_EVENTS[type].names.forEach((name, i) => {
    event[name] = fields[i];
  });
  return event as unknown as RunEvent;
}

/** A listener whose every method emits its event: what hands a RunListener's calls to one `emit`. */
export function listenerOf(emit: Emit): Required<RunListener> {
  const listener: Record<string, AnyMethod> = {};
  for (const type of RUN_EVENT_TYPES) listener[methodOf(type)] = (...fields) => emit(eventOf(type, fields));
  return listener as unknown as Required<RunListener>;
}
