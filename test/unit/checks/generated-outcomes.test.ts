/** The outcomes the judge decides for the generated phases: a property, model sequences, a relation over cells; table-driven. */
import t from 'tap';
import {
  breaksProperty,
  brokeRelation,
  propertyOutcome,
  propertyThrew,
  relationOutcome,
  type SequenceRun,
  sequenceFailed,
  sequencesOutcome,
  spaceSummary,
  stepInSequence,
} from '../../../src/checks/generated-outcomes.js';
import type { CaseInfo, CaseResult, ExchangeEvidence, Outcome } from '../../../src/model/results.js';

const INFO: CaseInfo = {
  id: 'gen.case',
  title: 'a generated case',
  clause: 'a clause',
  suite: 'fuzz',
  operation: 'listPets',
  level: 'fail',
};

/** An example's (or a step's, or a cell's) result: its outcome and reason. */
function result(outcome: Outcome, reason?: string): CaseResult {
  return {
    ...INFO,
    outcome,
    durationMs: 3,
    checks: [{ id: 'expect.status', level: 'fail', outcome, step: 0, message: reason ?? outcome }],
    exchanges: [],
    retries: 0,
    ...(reason === undefined ? {} : { reason }),
  };
}

const evidence = (url: string): ExchangeEvidence => ({
  step: 0,
  request: { method: 'GET', url, headers: {} },
  durationMs: 1,
  attempts: 1,
});

/** What a case came to, as the table compares it: outcome, reason and skip. */
const seen = (r: CaseResult): { outcome: Outcome; reason?: string; skip?: string } => ({
  outcome: r.outcome,
  ...(r.reason === undefined ? {} : { reason: r.reason }),
  ...(r.skip === undefined ? {} : { skip: r.skip }),
});

t.test('propertyOutcome: the worst over the examples, never passed for want of data', async (t) => {
  const rows: Array<[string, Parameters<typeof propertyOutcome>[0], ReturnType<typeof seen>]> = [
    [
      'every example passed',
      { info: INFO, seed: 7, sent: [result('passed'), result('passed')], unsent: 0, durationMs: 5 },
      { outcome: 'passed' },
    ],
    [
      'a warning decides over passes, the first one its evidence',
      { info: INFO, seed: 7, sent: [result('passed'), result('warned', 'w1'), result('warned', 'w2')], unsent: 0, durationMs: 5 },
      {
        outcome: 'warned',
        reason: '3 generated examples (seed 7; --seed 7 replays them): 1 passed, 2 warned; the first that warned: w1',
      },
    ],
    [
      'could not test decides over a warning',
      { info: INFO, seed: 7, sent: [result('warned', 'w'), result('could-not-test', 'reset')], unsent: 0, durationMs: 5 },
      {
        outcome: 'could-not-test',
        reason:
          '2 generated examples (seed 7; --seed 7 replays them): 1 warned, 1 could not test; the first that could not be tested: reset',
      },
    ],
    [
      'an internal error, with the examples not sent',
      { info: INFO, seed: 7, sent: [result('internal-error', 'threw')], unsent: 2, durationMs: 5 },
      {
        outcome: 'internal-error',
        reason:
          '1 generated examples (seed 7; --seed 7 replays them): 1 internal error; 2 more were not sent: --max-writes was reached; ' +
          'the first that met an internal error: threw',
      },
    ],
    [
      'a failure shrunk: the minimal example decides, with why it is what it is',
      {
        info: INFO,
        seed: 7,
        sent: [result('passed'), result('failed', 'broke')],
        unsent: 0,
        failure: { minimal: result('failed', 'broke small'), shrinks: 4, replays: 6, why: 'the body is invalid because name is null' },
        durationMs: 5,
      },
      {
        outcome: 'failed',
        reason:
          'minimal failing example after 4 shrinks of 8 requests (seed 7; --seed 7 replays it): ' +
          'the body is invalid because name is null; broke small',
      },
    ],
    [
      'no example judged: not judged',
      { info: INFO, seed: 7, sent: [result('not-judged'), result('not-judged')], unsent: 0, durationMs: 5 },
      { outcome: 'not-judged', reason: 'none of the 2 generated examples could be judged (seed 7)', skip: 'precondition' },
    ],
    [
      'no example drawn: not judged',
      { info: INFO, seed: 7, sent: [], unsent: 0, durationMs: 5 },
      { outcome: 'not-judged', reason: 'no generated example was sent (seed 7)', skip: 'precondition' },
    ],
    [
      'none sent for the write budget',
      { info: INFO, seed: 7, sent: [], unsent: 3, durationMs: 5 },
      {
        outcome: 'not-judged',
        reason: 'the run created the pets --max-writes allows: none of the 3 examples was sent',
        skip: 'write-budget',
      },
    ],
  ];
  for (const [what, run, want] of rows) t.same(seen(propertyOutcome(run)), want, what);
  const passed = propertyOutcome({ info: INFO, seed: 7, sent: [result('passed'), result('not-judged')], unsent: 1, durationMs: 5 });
  t.same(
    passed.checks.map((c) => [c.id, c.outcome, c.message]),
    [
      [
        'gen.case',
        'passed',
        '1 generated examples kept the contract (seed 7); 1 could not be judged; 1 more were not sent: --max-writes was reached',
      ],
    ],
    'a property that passed says how many examples kept the contract, in a check of its own id',
  );
  t.equal(passed.durationMs, 5, 'the duration is the property’s');
});

t.test('breaksProperty and propertyThrew', async (t) => {
  const rows: Array<[Outcome, boolean]> = [
    ['failed', true],
    ['warned', false],
    ['could-not-test', false],
    ['internal-error', false],
    ['not-judged', false],
    ['passed', false],
  ];
  for (const [outcome, breaks] of rows) t.equal(breaksProperty(result(outcome)), breaks, outcome);
  const threw = propertyThrew(INFO, new Error('boom'), 9);
  t.same(seen(threw), { outcome: 'internal-error', reason: 'the fuzzing phase threw: boom' });
  t.same(threw.checks[0]?.outcome, 'internal-error');
});

t.test('stepInSequence: what a step does to its sequence', async (t) => {
  const rows: Array<[Outcome, ReturnType<typeof stepInSequence>]> = [
    ['failed', 'ends'],
    ['could-not-test', 'ends'],
    ['internal-error', 'ends'],
    ['warned', 'warns'],
    ['not-judged', 'unjudged'],
    ['passed', 'holds'],
  ];
  for (const [outcome, effect] of rows) t.equal(stepInSequence(result(outcome)), effect, outcome);
});

t.test('sequencesOutcome: the shortest failing sequence, else the first warning, else passed; never for want of data', async (t) => {
  const two = [evidence('http://x/pets'), evidence('http://x/pets/1')];
  const run = (extra: Partial<SequenceRun> = {}, requests = 2): SequenceRun => ({ requests, exchanges: two, ...extra });
  const rows: Array<[string, Parameters<typeof sequencesOutcome>[0], ReturnType<typeof seen>, boolean]> = [
    ['every sequence agreed', { info: INFO, seed: 3, runs: [run(), run()], durationMs: 1 }, { outcome: 'passed' }, false],
    [
      'a warning',
      { info: INFO, seed: 3, runs: [run(), run({ warned: { exchanges: two, result: result('warned', 'w') } })], durationMs: 1 },
      {
        outcome: 'warned',
        reason: '2 sequences (4 requests) agreed with the model (seed 3), with a warning: 1. GET http://x/pets; 2. GET http://x/pets/1: w',
      },
      false,
    ],
    [
      'a step that could not be tested ends the sequence, and decides',
      {
        info: INFO,
        seed: 3,
        runs: [run()],
        failure: { minimal: run({ failing: { exchanges: two, result: result('could-not-test', 'reset') } }), shrinks: 2, replays: 5 },
        durationMs: 1,
      },
      {
        outcome: 'could-not-test',
        reason:
          'shortest failing sequence after 2 shrinks (seed 3; --seed 3 replays it): 1. GET http://x/pets; 2. GET http://x/pets/1: reset',
      },
      true,
    ],
    [
      'a broken model fails',
      {
        info: INFO,
        seed: 3,
        runs: [run()],
        failure: { minimal: run({ thrown: { message: 'id 4 was given to two pets', brokeModel: true } }), shrinks: 0, replays: 0 },
        durationMs: 1,
      },
      { outcome: 'failed', reason: 'a sequence broke the model (seed 3; --seed 3 replays it): id 4 was given to two pets' },
      true,
    ],
    [
      'anything else thrown is an internal error',
      {
        info: INFO,
        seed: 3,
        runs: [run()],
        failure: { minimal: run({ thrown: { message: 'oops', brokeModel: false } }), shrinks: 0, replays: 0 },
        durationMs: 1,
      },
      { outcome: 'internal-error', reason: 'the stateful phase threw (seed 3; --seed 3 replays it): oops' },
      true,
    ],
    [
      'sequences that sent nothing judged nothing',
      { info: INFO, seed: 3, runs: [run({}, 0)], durationMs: 1 },
      { outcome: 'not-judged', reason: 'no sequence sent a request (seed 3)', skip: 'precondition' },
      false,
    ],
  ];
  for (const [what, runs, want, fails] of rows) {
    t.same(seen(sequencesOutcome(runs)), want, what);
    t.equal(runs.failure === undefined ? false : sequenceFailed(runs.failure.minimal), fails, `${what}: the sequence fails or not`);
  }
});

t.test('relationOutcome and spaceSummary: the worst cell is the evidence; a cell that could not be tested judged nothing', async (t) => {
  const cell = (name: string, outcome?: Outcome, reason?: string) =>
    outcome === undefined
      ? { name, slot: 'listPets limit', unsent: reason ?? 'not sent' }
      : { name, slot: 'listPets limit', result: result(outcome, reason) };
  const rows: Array<[string, ReturnType<typeof cell>[], ReturnType<typeof seen>, { sent: number; judged: number; broken: number }]> = [
    ['every cell kept it', [cell('a', 'passed'), cell('b', 'passed')], { outcome: 'passed' }, { sent: 2, judged: 2, broken: 0 }],
    [
      'the first failed cell is the evidence',
      [cell('a', 'warned', 'w'), cell('b', 'failed', 'f'), cell('c', 'failed', 'g')],
      { outcome: 'failed', reason: '3 cells sent (1 warned, 2 failed); the first failed: b: f' },
      { sent: 3, judged: 3, broken: 3 },
    ],
    ['a cell not sent counts for nothing', [cell('a', 'passed'), cell('b')], { outcome: 'passed' }, { sent: 1, judged: 1, broken: 0 }],
    [
      'no cell judged: not judged',
      [cell('a', 'not-judged'), cell('b')],
      { outcome: 'not-judged', reason: 'none of its 2 cells could be judged', skip: 'precondition' },
      { sent: 1, judged: 0, broken: 0 },
    ],
    [
      'a cell that could not be tested decides over passes, and is not judged in the count',
      [cell('a', 'passed'), cell('b', 'could-not-test', 'reset')],
      { outcome: 'could-not-test', reason: '2 cells sent (1 passed, 1 could not test); the first could not test: b: reset' },
      { sent: 2, judged: 1, broken: 0 },
    ],
  ];
  for (const [what, cells, want, counts] of rows) {
    t.same(seen(relationOutcome(INFO, cells, 1)), want, what);
    const summary = spaceSummary(cells);
    t.same({ sent: summary.sent, judged: summary.judged, broken: summary.broken.length }, counts, `${what}: the count`);
    t.equal(summary.cells, cells.length);
    t.equal(summary.notJudged.length, cells.length - counts.judged, `${what}: each cell not judged, with its reason`);
  }
  const rowsBroke: Array<[Outcome, boolean]> = [
    ['failed', true],
    ['warned', true],
    ['could-not-test', false],
    ['passed', false],
  ];
  for (const [outcome, broke] of rowsBroke) t.equal(brokeRelation(result(outcome)), broke, `brokeRelation: ${outcome}`);
});
