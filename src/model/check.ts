/** What a check is: a rule registered once, with a stable id traced to a clause, that judges one thing. */
import type { Contract } from './contract.js';
import type { Exchange } from './exchange.js';
import type { LoadMetrics, LoadReport } from './load.js';
import type { Failure, Level, ThresholdLine } from './results.js';
import type { SourceLocation } from './source-location.js';
import type { Expectations } from './scenario.js';
import type { StoreView } from './store-model.js';

/**
 * Where a check applies: `exchange` judges every response of the run, `case` judges what a case's
 * expectation declares, `run` judges the run as a whole (a load profile's figures), `transport` judges a request that got no response.
 */
export type CheckScope = 'exchange' | 'case' | 'run' | 'transport';

/**
 * A check's verdict before its level is applied: passed, failed with typed failures (a warning when the check's level is
 * `warn`: that is the one way to warn), not judged (nothing to conclude from), could not test (the server or the network
 * prevented it), or internal error (the check itself threw; only `guarded` makes one). A load threshold's verdict carries
 * how it was judged (its bound and what was measured), for the reports to show.
 */
export type Judgement =
  | { outcome: 'passed'; message: string; threshold?: ThresholdLine }
  | { outcome: 'failed'; message: string; failures: Failure[]; threshold?: ThresholdLine }
  | { outcome: 'not-judged'; message: string }
  | { outcome: 'could-not-test'; message: string }
  | { outcome: 'internal-error'; message: string };

/** A passing judgement. */
export function passed(message: string): Judgement {
  return { outcome: 'passed', message };
}

/** A failing judgement; its message is the first failure's unless given. A failure of a warn-level check is a warning. */
export function failed(failures: Failure | readonly Failure[], message?: string): Judgement {
  const list = Array.isArray(failures) ? [...(failures as readonly Failure[])] : [failures as Failure];
  return { outcome: 'failed', message: message ?? list[0]?.message ?? 'failed', failures: list };
}

/** A judgement that could not be made (nothing to conclude from); never reported as passed. */
export function notJudged(message: string): Judgement {
  return { outcome: 'not-judged', message };
}

/** The rule could not be tested (a ramp that ended before the rate it must hold, a request that got no answer): the run is incomplete. */
export function couldNotTest(message: string): Judgement {
  return { outcome: 'could-not-test', message };
}

/** What every check says about itself: the catalogue and the reports show it. */
export interface CheckMeta {
  /** Stable id, e.g. `expect.status`, `errors.error-body`, `load.p99`. */
  id: string;
  title: string;
  /** The contract clause (or the reading of it) the check enforces. */
  clause: string;
  level: Level;
  scope: CheckScope;
  /** When it applies, in words. */
  appliesWhen: string;
  /** It judges only a listing shorter than its limit: a run whose every listing is a full page (a long-lived store) says so. */
  shortPagesOnly?: true;
}

/** An exchange as an exchange-scope check sees it, with what the step already declared about it. */
export interface ExchangeContext {
  exchange: Exchange;
  contract: Contract;
  /** The expectations the step declared for this response (`when` resolved), so a rule is not judged twice. */
  declared: Expectations;
  /** What the run has seen of the store before this response, for the invariants; absent where no model is kept. */
  model?: StoreView;
}

/** A rule that judges every exchange it concerns. */
export interface ExchangeCheck extends CheckMeta {
  scope: 'exchange';
  applies(context: ExchangeContext): boolean;
  evaluate(context: ExchangeContext): Judgement;
  /**
   * For a rule whose `applies` singles out its breach (a 5xx, an id seen before): whether an exchange it does not apply
   * to bears on it and keeps it. The ledger of judgement counts that exchange as judging it (passed); the case does not.
   */
  holds?(context: ExchangeContext): boolean;
}

/** An exchange and the (already filled) value a case's expectation names. */
export interface ExpectationContext<T = unknown> {
  exchange: Exchange;
  contract: Contract;
  expected: T;
  /** What the run has seen of the store, where a model is kept: what a failure may point back into. */
  model?: StoreView;
}

/** A rule that judges what a case declares under one expectation key (`expect.<key>`). */
export interface ExpectationCheck<T = unknown> extends CheckMeta {
  scope: 'case';
  /**
   * The expectation key in scenario files, e.g. `status`; a recommendation on the same key is a second check (level warn)
   * under its own id.
   */
  key: string;
  /** Whether it concerns this exchange (absent: always); one that does not is left out of the case. */
  applies?(context: ExpectationContext<T>): boolean;
  evaluate(context: ExpectationContext<T>): Judgement;
  /** Where `applies` singles out the breach: whether an exchange it does not apply to keeps it (see ExchangeCheck.holds). */
  holds?(context: ExpectationContext<T>): boolean;
}

/** An earlier run's load figures to compare with (`--baseline`). */
export interface Baseline {
  file: string;
  metrics: LoadMetrics;
  tolerance: number;
  /** The baseline's whole load (its histograms and seconds: the noise a comparison is held to). */
  load?: LoadReport;
  /** How the baseline's load differs from this one's (profile, base URL, suite version, request mix), when it does. */
  notComparable?: string[];
}

/**
 * What a run-scope check judges: a load profile's result (its `metrics` are those of the stage judged, its `baseline` the
 * comparison with an earlier run).
 */
export interface LoadContext {
  load: LoadReport;
}

/** A rule that judges a whole run (a load profile). */
export interface RunCheck extends CheckMeta {
  scope: 'run';
  applies(context: LoadContext): boolean;
  evaluate(context: LoadContext): Judgement;
  /** Where the bound it judges is declared (a threshold's line), when it is declared in a file. */
  sourceOf(context: LoadContext): SourceLocation | undefined;
}

/** A request that got no response, as a transport-scope check sees it. */
export interface TransportContext {
  /** Why nothing came back, e.g. `no response headers within 10000 ms`, and its stable code. */
  message: string;
  code: string;
  /** The request waited out a deadline: the server took it and did not answer. */
  timedOut: boolean;
  /** How many other requests the server answered meanwhile. */
  answeredMeanwhile: number;
  /** Sent once more on a fresh connection, it was closed there too. */
  closedTwice?: boolean;
  /** The answer began (status and headers came), then the connection closed before its end. */
  cutShort?: boolean;
}

/** A rule that judges a request that got no response. */
export interface TransportCheck extends CheckMeta {
  scope: 'transport';
  evaluate(context: TransportContext): Judgement;
}

/** Any registered check. */
export type Check = ExchangeCheck | ExpectationCheck | RunCheck | TransportCheck;
