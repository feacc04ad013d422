/**
 * The verdict's vocabulary and its exit code: one precedence, broken contract, then a bug of ours, then what could not be run.
 * What whole runs show of it (a recommendation is a run finding, a check that throws is exit 3) is test/e2e/verdict.test.ts.
 */
import t from 'tap';
import { bugReportLine, EXIT, EXIT_OF_VERDICT } from '../../../src/cli/exit-codes.js';
import { judgeRun as verdictOf } from '../../../src/checks/judge.js';
import { emptyCounts, type OutcomeCounts, type Verdict } from '../../../src/model/results.js';

t.test('the verdict and its exit code: broken contract, then a bug of ours, then what could not be run', async (t) => {
  const counts = (extra: Partial<OutcomeCounts>): OutcomeCounts => ({ ...emptyCounts(), passed: 3, ...extra });
  const base = { strict: false, interrupted: false, stopped: false, findings: 0, internalErrors: 0 };
  const rows: Array<[string, Parameters<typeof verdictOf>[0], Verdict, number]> = [
    ['all passed', { ...base, counts: counts({}) }, 'passed', 0],
    ['warnings, findings and cases not judged pass', { ...base, counts: counts({ warned: 2, 'not-judged': 4 }), findings: 3 }, 'passed', 0],
    ['a failure', { ...base, counts: counts({ failed: 1 }) }, 'failed', 1],
    [
      'a failure wins over everything',
      { ...base, counts: counts({ failed: 1, 'internal-error': 1, 'could-not-test': 1 }), internalErrors: 1, stopped: true },
      'failed',
      1,
    ],
    ['a case that threw', { ...base, counts: counts({ 'internal-error': 1 }), internalErrors: 1 }, 'internal-error', 3],
    ['a finding check that threw', { ...base, counts: counts({}), internalErrors: 1 }, 'internal-error', 3],
    [
      'a bug of ours wins over what could not be tested',
      { ...base, counts: counts({ 'could-not-test': 2 }), internalErrors: 1 },
      'internal-error',
      3,
    ],
    ['could not test', { ...base, counts: counts({ 'could-not-test': 1 }) }, 'incomplete', 2],
    ['stopped', { ...base, counts: counts({}), stopped: true }, 'incomplete', 2],
    ['interrupted', { ...base, counts: counts({}), interrupted: true }, 'incomplete', 2],
    ['strict: a warning fails', { ...base, strict: true, counts: counts({ warned: 1 }) }, 'failed', 1],
    ['strict: a finding fails', { ...base, strict: true, counts: counts({}), findings: 1 }, 'failed', 1],
  ];
  for (const [name, inputs, verdict, code] of rows) {
    t.equal(verdictOf(inputs), verdict, name);
    t.equal(EXIT_OF_VERDICT[verdictOf(inputs)], code, `${name}: exit ${code}`);
  }
  t.equal(EXIT.internalError, 3);
  t.match(
    bugReportLine('auth.throws threw 40 times (the check threw: boom)'),
    /^petstore-conformance: internal error: auth\.throws threw 40 times \(the check threw: boom\); this is a bug in petstore-conformance, not in the server under test: please report it/,
  );
});
