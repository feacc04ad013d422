/**
 * The conformance baseline (`--baseline report.json`): an earlier run's cases and rules by id, and what this run changed
 * since. A staging with known violations fails every night; what a team acts on is what is new, what got fixed and what
 * is still failing, and `--fail-on new` gates on the new ones alone.
 */
import type { BaselineChange, CaseResult, JudgementLedger, Outcome, RuleLedgerEntry, RuleState, SinceBaseline } from './results.js';

/** What `--fail-on` makes exit 1 mean: `any` failure (the default), or only `new` ones (not failing in the baseline). */
export type FailOn = 'any' | 'new';

/** Every value `--fail-on` takes. */
export const FAIL_ON_VALUES: readonly FailOn[] = ['any', 'new'];

/** An earlier run, as `--baseline` reads it: what it ran against, and its cases and rules by id. */
export interface ConformanceBaseline {
  file: string;
  /** The suite's version that wrote it. */
  version: string;
  /** The contract's version it judged by, when the report records it. */
  contract?: string;
  /** The base URL it tested; `embedded` when it tested the embedded reference server. */
  target: string;
  cases: ReadonlyMap<string, Outcome>;
  /** The selected rules of its ledger (absent from a report without one). */
  rules: ReadonlyMap<string, RuleState>;
  /** The ids of its findings (recommendations not followed). */
  findings: ReadonlySet<string>;
}

/** Whether an outcome fails the run: a failure, and a warning under --strict. */
export function failing(outcome: Outcome | RuleState | 'absent', strict: boolean): boolean {
  return outcome === 'failed' || (strict && outcome === 'warned');
}

const JUDGED: ReadonlySet<string> = new Set(['passed', 'failed', 'warned', 'judged']);

/** A rule of the ledger as a baseline compares it; undefined when the run did not select it. */
export function ruleState(rule: RuleLedgerEntry): RuleState | undefined {
  if (rule.status === 'not-selected') return undefined;
  if ((rule.outcomes.failed ?? 0) > 0) return 'failed';
  return rule.status === 'judged' ? 'judged' : 'not-judged';
}

/** How a run differs from its baseline's in what it ran (each a short phrase), for a reader who would mix the two up. */
export function unlikeRuns(baseline: ConformanceBaseline, run: { version: string; contract?: string; target: string }): string[] {
  const unlike: string[] = [];
  if (baseline.version !== run.version) unlike.push(`suite version ${baseline.version}, this run ${run.version}`);
  if (baseline.contract !== undefined && run.contract !== undefined && baseline.contract !== run.contract)
    unlike.push(`contract ${baseline.contract}, this run ${run.contract}`);
  if (baseline.target !== run.target) unlike.push(`base URL ${baseline.target}, this run ${run.target}`);
  return unlike;
}

/** Compares the outcomes of one kind (cases or rules) by id. */
function compareById(
  was: ReadonlyMap<string, Outcome | RuleState>,
  now: ReadonlyArray<{ id: string; now: Outcome | RuleState }>,
  strict: boolean,
): Pick<SinceBaseline, 'newFailures' | 'fixed' | 'stillFailing' | 'newlyNotJudged'> {
  const sorted: Pick<SinceBaseline, 'newFailures' | 'fixed' | 'stillFailing' | 'newlyNotJudged'> = {
    newFailures: [],
    fixed: [],
    stillFailing: [],
    newlyNotJudged: [],
  };
  for (const { id, now: outcome } of now) {
    const before: BaselineChange['was'] = was.get(id) ?? 'absent';
    const change: BaselineChange = { id, was: before, now: outcome };
    if (failing(outcome, strict)) (failing(before, strict) ? sorted.stillFailing : sorted.newFailures).push(change);
    else if (outcome === 'not-judged') {
      if (JUDGED.has(before)) sorted.newlyNotJudged.push(change);
    } else if (failing(before, strict) && JUDGED.has(outcome)) sorted.fixed.push(change);
  }
  return sorted;
}

/** What changed since the baseline: its cases, rules and findings against this run's, by id. */
export function sinceBaseline(
  baseline: ConformanceBaseline,
  run: {
    cases: readonly CaseResult[];
    judgement?: JudgementLedger;
    findings: ReadonlyArray<{ id: string }>;
    strict: boolean;
    unlike: string[];
  },
): SinceBaseline {
  const cases = compareById(
    baseline.cases,
    run.cases.map((c) => ({ id: c.id, now: c.outcome })),
    run.strict,
  );
  const rulesNow = (run.judgement?.rules ?? []).flatMap((rule) => {
    const state = ruleState(rule);
    return state === undefined ? [] : [{ id: rule.id, now: state }];
  });
  const rules = compareById(baseline.rules, rulesNow, false);
  return {
    file: baseline.file,
    unlike: run.unlike,
    ...cases,
    rules: { newFailures: rules.newFailures, fixed: rules.fixed, newlyNotJudged: rules.newlyNotJudged },
    newFindings: run.findings.map((f) => f.id).filter((id) => !baseline.findings.has(id)),
  };
}

/** The headline of a comparison: `since the baseline: N new failures, M fixed, K still failing, J newly not judged`. */
export function sinceBaselineLine(since: SinceBaseline): string {
  const n = since.newFailures.length;
  return (
    `since the baseline: ${n} new failure${n === 1 ? '' : 's'}, ${since.fixed.length} fixed, ` +
    `${since.stillFailing.length} still failing, ${since.newlyNotJudged.length} newly not judged`
  );
}

/** The line that says the baseline's run is unlike this one, when it is. */
export function unlikeLine(since: SinceBaseline): string | undefined {
  return since.unlike.length === 0
    ? undefined
    : `the baseline ${since.file} is of another run: ${since.unlike.join('; ')} (its changes may be the suite's or the target's, not the server's)`;
}

/** How an earlier outcome reads beside a change: `passed`, `not judged`, `not in the baseline`. */
export function wasWords(was: BaselineChange['was']): string {
  return was === 'absent' ? 'not in the baseline' : `was ${was.replace(/-/g, ' ')}`;
}

/** With --fail-on new, the failures that decide the verdict: the new failing cases, and the new findings under --strict. */
export function gatedFailures(since: SinceBaseline, strict: boolean): number {
  return since.newFailures.length + (strict ? since.newFindings.length : 0);
}

/** What a run tested, as a baseline compares it: its base URL, or `embedded` for the embedded reference server (a new port each run). */
export function runTarget(meta: { baseUrl: string; embeddedServer: boolean }): string {
  return meta.embeddedServer ? 'embedded' : meta.baseUrl;
}
