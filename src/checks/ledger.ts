/**
 * The ledger of judgement: for every registered rule, how many exchanges judged it, by outcome, in which phases and
 * states, and for a rule nothing judged, why. The judge tallies as it judges (judge.ts); `build` turns the tally into
 * report.json's `judgement`, so that a rule nothing judged is reported as such, never as passed.
 */
import type { Check, ExpectationCheck } from '../model/check.js';
import { type Contract, listLimitOf, plays } from '../model/contract.js';
import type { Exchange } from '../model/exchange.js';
import type { CaseResult, CheckOutcome, JudgementLedger, Outcome, RuleLedgerEntry, RuleReason, RuleStatus } from '../model/results.js';
import { outcomeWords } from '../model/results.js';
import { expectationEntries, type CaseSpec } from '../model/scenario.js';
import { REGISTRY } from './registry.js';

/** The most distinct reasons a rule keeps; the others are counted together. */
export const MAX_REASONS = 5;

/** The most characters of one reason. */
const MAX_REASON_CHARS = 200;

/** The outcomes that conclude a judgement: a rule with one of them was judged. */
const CONCLUDED: readonly Outcome[] = ['passed', 'failed', 'warned'];

/** What the tally keeps of one rule. */
interface RuleTally {
  outcomes: Map<Outcome, number>;
  phases: Set<string>;
  states: Set<string>;
  reasons: Map<string, number>;
}

/** What the run selected, as the ledger reads it: what decides whether a rule counts in M. */
export interface LedgerSelection {
  /** Checks switched off by the configuration (or --skip-check), with the reason: not selected. */
  disabled: ReadonlyMap<string, string>;
  /** Whether a phase of the run sends requests through the run's client, which the exchange and transport rules judge. */
  exchanges: boolean;
  /** Whether the run measures (or merges) a load, which the run rules judge. */
  load: boolean;
  /** The ids of the exchange checks the run judges by, when not every registered one. */
  exchangeChecks?: ReadonlySet<string>;
  /** --min-judged, when set. */
  minJudged?: number;
  /** The request space's cells, judged of those it holds, when its phase ran. */
  cells?: { judged: number; of: number };
}

/** The state of a listing an exchange shows, as the ledger records it: `filtered, page full`; undefined for anything else. */
export function listingState(exchange: Exchange, contract: Pick<Contract, 'listLimit'>): string | undefined {
  const { request, response } = exchange;
  if (!plays(request.operation, 'list') || response.status !== 200 || !Array.isArray(response.json)) return undefined;
  const query = new URL(request.url).searchParams;
  const limits = query.getAll('limit');
  const limit = limits.length === 0 ? listLimitOf(contract).default : limits.length === 1 ? Number(limits[0]) : Number.NaN;
  const full = Number.isFinite(limit) ? (response.json.length >= limit ? 'page full' : 'page not full') : 'page size unknown';
  return `${query.has('status') ? 'filtered' : 'unfiltered'}, ${full}`;
}

/** A reason as the ledger keeps it: one line, bounded. */
function reasonText(reason: string): string {
  const line = reason.replace(/\s+/g, ' ').trim();
  return line.length > MAX_REASON_CHARS ? `${line.slice(0, MAX_REASON_CHARS - 1)}…` : line;
}

/** The case-scope rules a case declares: the checks of every expectation key of its steps (`when` included), and captures. */
function declaredRules(spec: CaseSpec): Set<string> {
  const keys = new Set<string>();
  for (const step of spec.steps) {
    for (const entry of [...expectationEntries(step.expect), ...expectationEntries(step.warn)]) keys.add(entry.key);
    if (step.capture !== undefined) keys.add('capture');
  }
  const ids = new Set<string>();
  for (const check of REGISTRY.values()) if (check.scope === 'case' && keys.has(check.key)) ids.add(check.id);
  return ids;
}

/** Counts every judgement of the run's rules as the judge makes it, and builds the ledger from the counts. */
export class JudgementTally {
  private readonly rules = new Map<string, RuleTally>();
  /** The case-scope rules some case of the run declared: the selected ones. */
  private readonly declared = new Set<string>();
  /** Rules the run's selection does not ask for (a run rule whose bound the load profile does not set), with why. */
  private readonly unasked = new Map<string, string>();
  /** The listings answered 200 with an array: how many, and how many of them were full pages. */
  private readonly listings = { seen: 0, full: 0 };

  /** A listing answered 200 with an array, in its state (listingState): counted once per exchange judged. */
  listingSeen(state: string): void {
    this.listings.seen += 1;
    if (state.endsWith('page full')) this.listings.full += 1;
  }

  private tally(id: string): RuleTally {
    let known = this.rules.get(id);
    if (known === undefined) {
      known = { outcomes: new Map(), phases: new Set(), states: new Set(), reasons: new Map() };
      this.rules.set(id, known);
    }
    return known;
  }

  /** One judgement of a rule (a check's outcome), in a phase, on a listing in a state when it was one. */
  judged(check: Pick<CheckOutcome, 'id' | 'outcome' | 'message'>, phase: string | undefined, state?: string): void {
    const rule = this.tally(check.id);
    rule.outcomes.set(check.outcome, (rule.outcomes.get(check.outcome) ?? 0) + 1);
    if (CONCLUDED.includes(check.outcome)) {
      if (phase !== undefined) rule.phases.add(phase);
      if (state !== undefined) rule.states.add(state);
    } else {
      const prefix = check.outcome === 'not-judged' ? '' : `${outcomeWords(check.outcome)}: `;
      this.because(check.id, `${prefix}${check.message}`);
    }
  }

  /** A reason a rule was not judged where it could have been. */
  because(id: string, reason: string): void {
    const { reasons } = this.tally(id);
    const text = reasonText(reason);
    const key = reasons.has(text) || reasons.size < MAX_REASONS ? text : 'other reasons';
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }

  /** A rule the run's selection does not ask for, with why: listed apart, not counted. */
  notAsked(id: string, reason: string): void {
    if (!this.unasked.has(id)) this.unasked.set(id, reason);
  }

  /**
   * A case ran (or was reported without running): the case-scope rules it declares are selected, and each it did not judge
   * gets the case's reason when the case was not judged, or the step it never reached when it stopped before it.
   */
  caseRan(spec: CaseSpec, result: Pick<CaseResult, 'outcome' | 'reason' | 'checks' | 'exchanges'>): void {
    const ids = declaredRules(spec);
    const judgedHere = new Set(result.checks.map((c) => c.id));
    for (const id of ids) {
      this.declared.add(id);
      if (judgedHere.has(id)) continue;
      if (result.outcome === 'not-judged') this.because(id, result.reason ?? 'the case was not judged');
      else if (result.outcome !== 'passed' && !this.reached(spec, result, id))
        this.because(id, `not reached: its case ended (${outcomeWords(result.outcome)}) at an earlier step`);
    }
  }

  /** Whether a step that declares rule `id` was sent in the case. */
  private reached(spec: CaseSpec, result: Pick<CaseResult, 'exchanges'>, id: string): boolean {
    const sent = new Set(result.exchanges.map((e) => e.step));
    return spec.steps.some((step, index) => sent.has(index) && declaredRules({ ...spec, steps: [step] }).has(id));
  }

  /** The ledger: every registered rule (`registry`, the run's by default) with what judged it, or why nothing did. */
  build(selection: LedgerSelection, registry: ReadonlyMap<string, Check> = REGISTRY): JudgementLedger {
    const rules = [...registry.values()].map((check) => this.entry(check, selection));
    const counted = rules.filter((r) => r.status !== 'not-selected');
    const judged = counted.filter((r) => r.status === 'judged').length;
    const percent = counted.length === 0 ? 0 : Math.floor((judged * 1000) / counted.length) / 10;
    const ledger: JudgementLedger = { judged, selected: counted.length, percent, rules };
    const { cells, minJudged } = selection;
    if (cells !== undefined) ledger.cells = cells;
    if (minJudged !== undefined) {
      ledger.minJudged = minJudged;
      // Exact: N of M is below PERCENT when 100 N < PERCENT M, whatever the rounding of `percent`; cells are counted alike.
      const below = (n: number, m: number): boolean => n * 100 < minJudged * m;
      if (
        below(judged, counted.length) ||
        (counted.length === 0 && minJudged > 0) ||
        (cells !== undefined && below(cells.judged, cells.of))
      )
        ledger.belowMinimum = true;
    }
    return ledger;
  }

  /** Why a rule is outside what the run selected, if it is. */
  private unselected(check: Check, selection: LedgerSelection): string | undefined {
    const disabled = selection.disabled.get(check.id);
    if (disabled !== undefined) return `disabled by the configuration: ${disabled}`;
    switch (check.scope) {
      case 'exchange':
        if (!selection.exchanges) return 'not selected: no phase of this run sends requests through its client';
        if (selection.exchangeChecks !== undefined && !selection.exchangeChecks.has(check.id))
          return 'not selected: not among the exchange checks of this run';
        return undefined;
      case 'transport':
        return selection.exchanges ? undefined : 'not selected: no phase of this run sends requests through its client';
      case 'case':
        return this.declared.has(check.id)
          ? undefined
          : `not selected: no case of this run declares \`${(check as ExpectationCheck).key}\``;
      case 'run':
        return selection.load ? this.unasked.get(check.id) : 'not selected: this run measures no load';
    }
  }

  /**
   * What the run saw when every listing it received was a full page: a store that holds more than a page of what was listed
   * (a long-lived one) shows no shorter page, and a rule about one cannot be judged there.
   */
  private allFull(): string {
    const { seen, full } = this.listings;
    return seen > 0 && full === seen ? `; every one of the ${seen} listings this run received was a full page` : '';
  }

  private entry(check: Check, selection: LedgerSelection): RuleLedgerEntry {
    const rule = this.rules.get(check.id);
    const outcomes: Partial<Record<Outcome, number>> = {};
    for (const [outcome, count] of rule?.outcomes ?? []) outcomes[outcome] = count;
    const judged = CONCLUDED.reduce((sum, outcome) => sum + (outcomes[outcome] ?? 0), 0);
    const why = this.unselected(check, selection);
    const status: RuleStatus = why !== undefined ? 'not-selected' : judged > 0 ? 'judged' : 'not-judged';
    let reasons: RuleReason[] = [...(rule?.reasons ?? [])].map(([reason, count]) => ({ reason, count }));
    if (why !== undefined) reasons = [{ reason: why, count: 1 }];
    else if (status === 'not-judged' && reasons.length === 0)
      reasons = [
        {
          reason:
            check.scope === 'run'
              ? 'no load was measured in this run'
              : `no exchange it applies to was sent in this run (it applies when ${check.appliesWhen})` +
                (check.shortPagesOnly === true ? this.allFull() : ''),
          count: 1,
        },
      ];
    const entry: RuleLedgerEntry = {
      id: check.id,
      title: check.title,
      clause: check.clause,
      scope: check.scope,
      level: check.level,
      status,
      judged,
      outcomes,
      phases: [...(rule?.phases ?? [])],
    };
    if (rule !== undefined && rule.states.size > 0) entry.states = [...rule.states].sort();
    if (reasons.length > 0) entry.reasons = reasons;
    return entry;
  }
}
