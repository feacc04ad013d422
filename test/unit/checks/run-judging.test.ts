/** The case outcome the judge settles from a case's checks: table-driven. */
import t from 'tap';
import { caseOutcome, unansweredCaseOutcome } from '../../../src/checks/run-judging.js';
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
