/** The conformance baseline (src/model/baseline.ts): cases and rules compared by id, and the headline every reporter says. */
import t from 'tap';
import { type ConformanceBaseline, gatedFailures, sinceBaseline, sinceBaselineLine, unlikeRuns } from '../../../src/model/baseline.js';
import type { CaseResult, JudgementLedger, Outcome, RuleLedgerEntry } from '../../../src/model/results.js';

function caseOf(id: string, outcome: Outcome): CaseResult {
  return {
    id,
    title: id,
    clause: 'c',
    suite: 's',
    operation: 'listPets',
    level: 'fail',
    outcome,
    durationMs: 1,
    checks: [],
    exchanges: [],
    retries: 0,
  };
}

function ruleOf(id: string, status: RuleLedgerEntry['status'], outcomes: RuleLedgerEntry['outcomes'] = {}): RuleLedgerEntry {
  return { id, title: id, clause: 'c', scope: 'exchange', level: 'fail', status, judged: 0, outcomes, phases: [] };
}

function baselineOf(cases: Record<string, Outcome>, extra: Partial<ConformanceBaseline> = {}): ConformanceBaseline {
  return {
    file: 'last/report.json',
    version: '0.1.0',
    target: 'https://staging.example.com/v1',
    cases: new Map(Object.entries(cases)),
    rules: new Map(),
    findings: new Set(),
    ...extra,
  };
}

t.test('cases by id: new failures (passed, not judged or absent before), fixed, still failing, newly not judged', async (t) => {
  const rows: Array<{ was: Outcome | undefined; now: Outcome; strict?: boolean; lands: string | undefined }> = [
    { was: 'passed', now: 'failed', lands: 'newFailures' },
    { was: undefined, now: 'failed', lands: 'newFailures' },
    { was: 'not-judged', now: 'failed', lands: 'newFailures' },
    { was: 'could-not-test', now: 'failed', lands: 'newFailures' },
    { was: 'failed', now: 'failed', lands: 'stillFailing' },
    { was: 'failed', now: 'passed', lands: 'fixed' },
    { was: 'failed', now: 'warned', lands: 'fixed' },
    { was: 'failed', now: 'warned', strict: true, lands: 'stillFailing' },
    { was: 'passed', now: 'warned', strict: true, lands: 'newFailures' },
    { was: 'passed', now: 'warned', lands: undefined },
    { was: 'passed', now: 'not-judged', lands: 'newlyNotJudged' },
    { was: 'failed', now: 'not-judged', lands: 'newlyNotJudged' },
    { was: 'not-judged', now: 'not-judged', lands: undefined },
    { was: undefined, now: 'not-judged', lands: undefined },
    { was: 'failed', now: 'could-not-test', lands: undefined },
    { was: 'passed', now: 'passed', lands: undefined },
  ];
  for (const row of rows) {
    const baseline = baselineOf(row.was === undefined ? {} : { a: row.was });
    const since = sinceBaseline(baseline, { cases: [caseOf('a', row.now)], findings: [], strict: row.strict === true, unlike: [] });
    const lands = (['newFailures', 'fixed', 'stillFailing', 'newlyNotJudged'] as const).filter((k) => since[k].length > 0);
    t.same(lands, row.lands === undefined ? [] : [row.lands], `${row.was ?? 'absent'} → ${row.now}${row.strict ? ' (strict)' : ''}`);
  }
});

t.test('rules by id, findings by id, the headline and the gate', async (t) => {
  const judgement: JudgementLedger = {
    judged: 2,
    selected: 3,
    percent: 66.7,
    rules: [
      ruleOf('r.new', 'judged', { failed: 2, passed: 1 }),
      ruleOf('r.fixed', 'judged', { passed: 3 }),
      ruleOf('r.unjudged', 'not-judged'),
      ruleOf('r.off', 'not-selected'),
    ],
  };
  const baseline = baselineOf(
    { a: 'failed', b: 'passed' },
    {
      rules: new Map([
        ['r.new', 'judged'],
        ['r.fixed', 'failed'],
        ['r.unjudged', 'judged'],
        ['r.off', 'failed'],
      ]),
      findings: new Set(['f.old']),
    },
  );
  const since = sinceBaseline(baseline, {
    cases: [caseOf('a', 'failed'), caseOf('b', 'failed'), caseOf('c', 'passed')],
    judgement,
    findings: [{ id: 'f.old' }, { id: 'f.new' }],
    strict: false,
    unlike: [],
  });
  t.same(
    since.rules.newFailures.map((r) => r.id),
    ['r.new'],
  );
  t.same(
    since.rules.fixed.map((r) => r.id),
    ['r.fixed'],
  );
  t.same(
    since.rules.newlyNotJudged.map((r) => r.id),
    ['r.unjudged'],
  );
  t.same(since.newFindings, ['f.new']);
  t.equal(sinceBaselineLine(since), 'since the baseline: 1 new failure, 0 fixed, 1 still failing, 0 newly not judged');
  t.equal(gatedFailures(since, false), 1, 'the gate counts the new failing cases');
  t.equal(gatedFailures(since, true), 2, 'and, under --strict, the new findings');
});

t.test('a baseline of another suite version, contract or base URL is said to be so', async (t) => {
  const baseline = baselineOf({}, { contract: '1.0.0' });
  t.same(unlikeRuns(baseline, { version: '0.1.0', contract: '1.0.0', target: 'https://staging.example.com/v1' }), []);
  t.same(unlikeRuns(baseline, { version: '0.2.0', contract: '2.0.0', target: 'embedded' }), [
    'suite version 0.1.0, this run 0.2.0',
    'contract 1.0.0, this run 2.0.0',
    'base URL https://staging.example.com/v1, this run embedded',
  ]);
});
