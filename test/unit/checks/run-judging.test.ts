/** The case outcome the judge settles from a case's checks: table-driven. */
import t from 'tap';
import {
  awaitsTheWrite,
  brokenCase,
  caseOutcome,
  endsTheCase,
  notJudgedCase,
  notJudgedOutcome,
  noteJudgedAnotherWay,
  passedCase,
  unansweredCaseOutcome,
} from '../../../src/checks/run-judging.js';
import type { CheckOutcome, Outcome } from '../../../src/model/results.js';

const check = (id: string, outcome: Outcome, message = `${id} ${outcome}`): CheckOutcome => ({
  id,
  level: 'fail',
  outcome,
  step: 0,
  message,
});

t.test('caseOutcome', async (t) => {
  const rows: Array<[string, CheckOutcome[], boolean, { outcome: Outcome; reason?: string; skip?: string }]> = [
    ['every check passed', [check('a', 'passed'), check('b', 'passed')], false, { outcome: 'passed' }],
    [
      'the worst decides, with its message',
      [check('a', 'passed'), check('b', 'failed', 'b broke')],
      false,
      { outcome: 'failed', reason: 'b broke' },
    ],
    ['a warning', [check('a', 'warned', 'w')], false, { outcome: 'warned', reason: 'w' }],
    [
      'a rule that judged nothing anywhere leaves the case not judged',
      [check('a', 'passed'), check('b', 'not-judged', 'a full page')],
      false,
      { outcome: 'not-judged', reason: 'not judged: a full page', skip: 'precondition' },
    ],
    ['unless the case judges it another way', [check('a', 'passed'), check('b', 'not-judged')], true, { outcome: 'passed' }],
    ['a rule judged on another step counts', [check('b', 'passed'), check('b', 'not-judged')], false, { outcome: 'passed' }],
    ['never passed for want of data', [], false, { outcome: 'not-judged', reason: 'not judged: nothing here', skip: 'precondition' }],
    [
      'not passed when every check was not judged, even another way',
      [check('b', 'not-judged')],
      true,
      { outcome: 'not-judged', reason: 'not judged: nothing here', skip: 'precondition' },
    ],
  ];
  for (const [what, checks, anotherWay, want] of rows)
    t.same(caseOutcome(checks, { judgedAnotherWay: () => anotherWay, nothingJudged: 'nothing here' }), want, what);
});

t.test('unansweredCaseOutcome: could not test, unless a check decided worse', async (t) => {
  t.same(unansweredCaseOutcome([check('a', 'passed')], 'no answer (X)'), { outcome: 'could-not-test', reason: 'no answer (X)' });
  t.same(unansweredCaseOutcome([check('server.answers', 'failed', 'unanswered while others were')], 'no answer (X)'), {
    outcome: 'failed',
    reason: 'unanswered while others were',
  });
  t.same(unansweredCaseOutcome([check('b', 'could-not-test', 'reset (E)')], 'reset (E)'), {
    outcome: 'could-not-test',
    reason: 'reset (E)',
  });
});

t.test('the rules a case steps by: a failed step ends it; a read-after-write waits while only expectations failed', async (t) => {
  const rows: Array<[string, CheckOutcome[], { ends: boolean; awaits: boolean }]> = [
    ['every check passed', [check('expect.status', 'passed'), check('wire.json-body', 'passed')], { ends: false, awaits: false }],
    ['an expectation failed', [check('expect.body', 'failed'), check('wire.json-body', 'passed')], { ends: true, awaits: true }],
    [
      'a rule every exchange keeps failed',
      [check('expect.body', 'failed'), check('server.no-5xx', 'failed')],
      { ends: true, awaits: false },
    ],
    ['a warning ends nothing', [check('expect.body', 'warned')], { ends: false, awaits: false }],
    ['could not test ends nothing here', [check('expect.status', 'could-not-test')], { ends: false, awaits: false }],
  ];
  for (const [what, checks, want] of rows) t.same({ ends: endsTheCase(checks), awaits: awaitsTheWrite(checks) }, want, what);
});

t.test('noteJudgedAnotherWay says by what, on checks not judged only', async (t) => {
  const checks = [check('expect.holdsIfNotFull', 'not-judged', 'a full page'), check('expect.holdsIfNotFull', 'passed', 'held')];
  noteJudgedAnotherWay(checks, (c) => (c.id === 'expect.holdsIfNotFull' ? 'getPet' : undefined));
  t.same(
    checks.map((c) => c.message),
    ['a full page; the case judges the pet by getPet instead', 'held'],
  );
});

t.test('a case not judged, one broken, one passed over many requests', async (t) => {
  t.same(notJudgedOutcome('interrupted', 'not finished'), { outcome: 'not-judged', reason: 'not finished', skip: 'interrupted' });
  t.same(brokenCase('could not be sent'), { outcome: 'internal-error', reason: 'could not be sent' });
  const info = { id: 'x', title: 'x', clause: 'c', suite: 's', operation: 'listPets', level: 'fail' } as const;
  t.same(notJudgedCase(info, 'read-only', 'writes', 4), {
    ...info,
    outcome: 'not-judged',
    skip: 'read-only',
    reason: 'writes',
    durationMs: 4,
    checks: [],
    exchanges: [],
    retries: 0,
  });
  t.same(passedCase(info, '3 kept it', 2).checks, [{ id: 'x', level: 'fail', outcome: 'passed', step: 0, message: '3 kept it' }]);
});
