/**
 * The outcomes of the generated phases, each a case over many requests: a property over its examples (fuzzing), model
 * sequences over their steps (stateful) and a relation over its cells (the request space). The worst decides, with the
 * request that caused it as evidence; none of them passes for want of data. The phases run the requests and hand over
 * what came back; these decide.
 */
import type { RequestSpaceSummary, UnjudgedCell } from '../model/request-space.js';
import { outcomeWords, worstOutcome, type CaseInfo, type CaseResult, type ExchangeEvidence, type Outcome } from '../model/results.js';
import { notJudgedCase, passedCase } from './run-judging.js';

/** How the reason names the example that decided a property that did not fail. */
const FIRST_THAT: Partial<Record<Outcome, string>> = {
  warned: 'that warned',
  'could-not-test': 'that could not be tested',
  'internal-error': 'that met an internal error',
};

/** Results counted by outcome. */
function countOutcomes(results: readonly CaseResult[]): Map<Outcome, number> {
  const counts = new Map<Outcome, number>();
  for (const result of results) counts.set(result.outcome, (counts.get(result.outcome) ?? 0) + 1);
  return counts;
}

/** Outcomes counted, in words, in one order whatever order the results came in: `16 passed, 14 warned`. */
function tally(counts: ReadonlyMap<Outcome, number>): string {
  const order: readonly Outcome[] = ['passed', 'warned', 'failed', 'not-judged', 'could-not-test', 'internal-error'];
  return order
    .filter((outcome) => (counts.get(outcome) ?? 0) > 0)
    .map((outcome) => `${counts.get(outcome) ?? 0} ${outcomeWords(outcome)}`)
    .join(', ');
}

/** Whether an example breaks its property: it failed (no further example starts, and the first such one is shrunk). */
export function breaksProperty(example: CaseResult): boolean {
  return example.outcome === 'failed';
}

/** A property's examples as run: those sent, in the order drawn, how many were not sent, and its first failure shrunk. */
export interface PropertyRun {
  info: CaseInfo;
  seed: number;
  /** The results of the examples sent, in the order drawn. */
  sent: readonly CaseResult[];
  /** Examples not sent: the run created the pets --max-writes allows. */
  unsent: number;
  /** The first failure shrunk: the minimal example's result, and what makes that example what it is (for the reason). */
  failure?: { minimal: CaseResult; shrinks: number; replays: number; why: string | undefined };
  durationMs: number;
}

/**
 * A property's outcome: the worst over its examples, with the example that caused it as evidence: the first failure
 * (in the order drawn) shrunk to a minimal example, else the first example that threw, could not be tested or warned.
 * It never passes for want of data: with no example judged (none drawn, or none judgeable), it is not judged.
 */
export function propertyOutcome({ info, seed, sent, unsent, failure, durationMs }: PropertyRun): CaseResult {
  const examples = sent.length;
  const notSent = unsent > 0 ? `; ${unsent} more were not sent: --max-writes was reached` : '';
  if (examples === 0 && unsent > 0)
    return notJudgedCase(
      info,
      'write-budget',
      `the run created the pets --max-writes allows: none of the ${unsent} examples was sent`,
      durationMs,
    );
  if (failure !== undefined) {
    const requests = examples + failure.replays;
    const replay = `seed ${seed}; --seed ${seed} replays it`;
    const shrunk = `minimal failing example after ${failure.shrinks} shrinks of ${requests} requests`;
    const reason = `${shrunk} (${replay}): ${failure.why === undefined ? '' : `${failure.why}; `}${failure.minimal.reason ?? ''}`;
    return { ...failure.minimal, durationMs, reason };
  }
  const outcomes = countOutcomes(sent);
  let worst: CaseResult | undefined;
  for (const result of sent) {
    // The first example of the worst outcome is the evidence (a warning, could not test, an internal error).
    const counts = result.outcome !== 'passed' && result.outcome !== 'not-judged';
    if (counts && (worst === undefined || worstOutcome([worst, result]) !== worst.outcome)) worst = result;
  }
  const judged = examples - (outcomes.get('not-judged') ?? 0);
  if (worst !== undefined) {
    const first = FIRST_THAT[worst.outcome] ?? outcomeWords(worst.outcome);
    const seeded = `${examples} generated examples (seed ${seed}; --seed ${seed} replays them)`;
    const reason = `${seeded}: ${tally(outcomes)}${notSent}; the first ${first}: ${worst.reason ?? ''}`;
    return { ...worst, durationMs, reason };
  }
  if (judged === 0)
    return notJudgedCase(
      info,
      'precondition',
      examples > 0
        ? `none of the ${examples} generated examples could be judged (seed ${seed})`
        : `no generated example was sent (seed ${seed})`,
      durationMs,
    );
  const unjudged = judged < examples ? `; ${examples - judged} could not be judged` : '';
  return passedCase(info, `${judged} generated examples kept the contract (seed ${seed})${unjudged}${notSent}`, durationMs);
}

/** A property whose phase threw (its examples never throw): an internal error, a bug here, not in the server. */
export function propertyThrew(info: CaseInfo, error: unknown, durationMs: number): CaseResult {
  const message = `the fuzzing phase threw: ${error instanceof Error ? error.message : String(error)}`;
  return {
    ...info,
    outcome: 'internal-error',
    reason: message,
    durationMs,
    checks: [{ id: info.id, level: 'fail', outcome: 'internal-error', step: 0, message }],
    exchanges: [],
    retries: 0,
  };
}

/**
 * What a step's outcome does to its model sequence: `ends` it (it failed, could not be tested or threw: the worst outcome
 * decides the phase), `warns` (the sequence goes on, its first warning kept), `unjudged` (not sent, or nothing judged:
 * the model learns nothing from it) or `holds`.
 */
export function stepInSequence(step: CaseResult): 'ends' | 'warns' | 'unjudged' | 'holds' {
  if (step.outcome === 'failed' || step.outcome === 'could-not-test' || step.outcome === 'internal-error') return 'ends';
  if (step.outcome === 'warned') return 'warns';
  return step.outcome === 'not-judged' ? 'unjudged' : 'holds';
}

/** A step of a sequence with the sequence up to it. */
export interface SequenceStep {
  exchanges: ExchangeEvidence[];
  result: CaseResult;
}

/** What one sequence came to: the requests it sent, the step that ended or warned with the sequence up to it, or what it threw. */
export interface SequenceRun {
  requests: number;
  /** The exchanges of the sequence, in order. */
  exchanges: ExchangeEvidence[];
  /** The step that ended the sequence (see stepInSequence). */
  failing?: SequenceStep;
  /** The first step that warned. */
  warned?: SequenceStep;
  /** What the sequence threw other than an ending step: `brokeModel` where the service broke the model, else a bug here. */
  thrown?: { message: string; brokeModel: boolean };
}

/** Whether a sequence fails: a step ended it, or it broke the model, or it threw. */
export function sequenceFailed(run: SequenceRun): boolean {
  return run.failing !== undefined || run.thrown !== undefined;
}

/** The steps of a sequence, numbered, with their requests. */
function numbered(exchanges: readonly ExchangeEvidence[]): string {
  return exchanges.map((e, i) => `${i + 1}. ${e.request.method} ${e.request.url}`).join('; ');
}

/** The sequences as run: each one's run, in the order drawn, and the first failure shrunk to the shortest sequence. */
export interface SequencesRun {
  info: CaseInfo;
  seed: number;
  runs: readonly SequenceRun[];
  failure?: { minimal: SequenceRun; shrinks: number; replays: number };
  durationMs: number;
}

/**
 * The outcome of model sequences: the shortest failing one (a step that ended it, decided by that step; a broken model
 * failed; anything else thrown an internal error), else the first warning, else passed; never passed for want of data.
 */
export function sequencesOutcome({ info, seed, runs, failure, durationMs }: SequencesRun): CaseResult {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0) + (failure?.replays ?? 0);
  const minimal = failure?.minimal;
  const replay = `seed ${seed}; --seed ${seed} replays it`;
  if (failure !== undefined && minimal !== undefined && minimal.failing === undefined) {
    const model = minimal.thrown?.brokeModel === true;
    const message = minimal.thrown?.message ?? 'undefined';
    const outcome = model ? 'failed' : 'internal-error';
    return {
      ...info,
      outcome,
      durationMs,
      reason: `${model ? 'a sequence broke the model' : 'the stateful phase threw'} (${replay}): ${message}`,
      checks: [{ id: info.id, level: 'fail', outcome, step: 0, message }],
      exchanges: minimal.exchanges,
      retries: 0,
    };
  }
  if (failure !== undefined && minimal?.failing !== undefined) {
    const { exchanges, result } = minimal.failing;
    const reason = `shortest failing sequence after ${failure.shrinks} shrinks (${replay}): ${numbered(exchanges)}: ${result.reason ?? ''}`;
    return { ...info, outcome: result.outcome, durationMs, reason, checks: result.checks, exchanges, retries: 0 };
  }
  const warned = runs.find((run) => run.warned !== undefined)?.warned;
  if (warned !== undefined) {
    return {
      ...info,
      outcome: 'warned',
      durationMs,
      reason:
        `${runs.length} sequences (${requests} requests) agreed with the model (seed ${seed}), ` +
        `with a warning: ${numbered(warned.exchanges)}: ${warned.result.reason ?? ''}`,
      checks: warned.result.checks,
      exchanges: warned.exchanges,
      retries: 0,
    };
  }
  // Sequences that sent nothing judged nothing.
  if (requests === 0) return notJudgedCase(info, 'precondition', `no sequence sent a request (seed ${seed})`, durationMs);
  return passedCase(info, `${runs.length} sequences (${requests} requests) agreed with the model (seed ${seed})`, durationMs);
}

/** Whether a cell's (or a pack of cells') result broke its relation: failed or warned (a pack's cells are then sent alone). */
export function brokeRelation(result: CaseResult): boolean {
  return result.outcome === 'failed' || result.outcome === 'warned';
}

/** One cell of the request space as run: its name, its operation and slot, and its result when sent, else why not. */
export interface SpaceCell {
  name: string;
  /** `operation slot`, as report.json counts them. */
  slot: string;
  result?: CaseResult;
  unsent?: string;
}

/** A relation's case, from the cells it judged: the worst cell is its evidence, the counts its reason. */
export function relationOutcome(info: CaseInfo, runs: readonly SpaceCell[], durationMs: number): CaseResult {
  const sent = runs.filter((run): run is SpaceCell & { result: CaseResult } => run.result !== undefined);
  const tallied = tally(countOutcomes(sent.map(({ result }) => result)));
  const judged = sent.filter(({ result }) => result.outcome !== 'not-judged').length;
  if (judged === 0) return notJudgedCase(info, 'precondition', `none of its ${runs.length} cells could be judged`, durationMs);
  const worst = worstOutcome(sent.map(({ result }) => result));
  const first = sent.find(({ result }) => result.outcome === worst && worst !== 'passed' && worst !== 'not-judged');
  if (first !== undefined) {
    const reason = `${sent.length} cells sent (${tallied}); the first ${outcomeWords(worst)}: ${first.name}: ${first.result.reason ?? ''}`;
    return { ...first.result, ...info, outcome: first.result.outcome, reason, durationMs };
  }
  return passedCase(info, `${judged} cells kept the relation (${tallied})`, durationMs);
}

/**
 * The count report.json keeps of the request space: every cell, those sent, those judged (a cell that could not be tested
 * judged nothing), each one not judged with its reason, and each one that broke its relation.
 */
export function spaceSummary(runs: readonly SpaceCell[]): RequestSpaceSummary {
  const notJudged: UnjudgedCell[] = [];
  const broken: UnjudgedCell[] = [];
  const slots: Record<string, number> = {};
  let sent = 0;
  let judged = 0;
  for (const run of runs) {
    slots[run.slot] = (slots[run.slot] ?? 0) + 1;
    if (run.result === undefined) {
      notJudged.push({ cell: run.name, reason: run.unsent ?? 'not sent' });
      continue;
    }
    sent += 1;
    if (run.result.outcome === 'not-judged' || run.result.outcome === 'could-not-test')
      notJudged.push({ cell: run.name, reason: run.result.reason ?? run.result.outcome });
    else judged += 1;
    if (brokeRelation(run.result)) broken.push({ cell: run.name, reason: run.result.reason ?? run.result.outcome });
  }
  return { cells: runs.length, sent, judged, slots, notJudged, broken };
}
