/**
 * The ledger of judgement: what the tally makes of a run's judgements (judged, not judged with why, not selected), N of M,
 * --min-judged, the listing states, and the judge feeding it (an answered exchange, the rules an exchange keeps, a load).
 */
import t from 'tap';
import { Judge } from '../../../src/checks/judge.js';
import { JudgementTally, listingState, MAX_REASONS, type LedgerSelection } from '../../../src/checks/ledger.js';
import { LOAD_CHECKS } from '../../../src/checks/load-checks.js';
import { REGISTRY } from '../../../src/checks/registry.js';
import { loadCaseResult } from '../../../src/engine/phases/load.js';
import type { Check } from '../../../src/model/check.js';
import type { CheckOutcome, Outcome, RuleLedgerEntry } from '../../../src/model/results.js';
import type { CaseSpec } from '../../../src/model/scenario.js';
import { contract, exchange, pets } from '../../check-fixtures.js';
import { SAMPLE_LOAD } from '../../report-fixture.js';
import { caseSpec } from '../../case-context.js';

/** A small registry: one exchange rule, one transport rule, two case rules (one key), one run rule. */
const RULES: ReadonlyMap<string, Check> = new Map(
  ['server.no-5xx', 'server.answers', 'expect.status', 'expect.holdsIfNotFull', 'load.p99'].map((id) => [id, REGISTRY.get(id) as Check]),
);

const SELECTED: LedgerSelection = { disabled: new Map(), exchanges: true, load: true };

const outcome = (id: string, result: Outcome, message = 'm'): CheckOutcome => ({ id, level: 'fail', outcome: result, step: 0, message });

const caseOf = (expect: CaseSpec['steps'][number]['expect']): CaseSpec =>
  caseSpec([{ request: { method: 'GET', path: '/pets' }, ...(expect === undefined ? {} : { expect }) }]);

const rule = (rules: readonly RuleLedgerEntry[], id: string): RuleLedgerEntry | undefined => rules.find((r) => r.id === id);

t.test('each rule: judged, not judged with why, or not selected (not counted)', async (t) => {
  const rows: Array<{
    name: string;
    feed: (tally: JudgementTally) => void;
    selection?: Partial<LedgerSelection>;
    /** The registry the ledger is built over, when not the small one. */
    registry?: ReadonlyMap<string, Check>;
    id: string;
    status: RuleLedgerEntry['status'];
    judged: number;
    reason?: RegExp;
  }> = [
    {
      name: 'an exchange rule that passed twice and failed once',
      feed: (tally) => {
        for (const r of ['passed', 'passed', 'failed'] as const) tally.judged(outcome('server.no-5xx', r), 'cases');
      },
      id: 'server.no-5xx',
      status: 'judged',
      judged: 3,
    },
    {
      name: 'an exchange rule nothing applied to',
      feed: () => {},
      id: 'server.no-5xx',
      status: 'not-judged',
      judged: 0,
      reason: /^no exchange it applies to was sent in this run \(it applies when a response has a 5xx status\)$/,
    },
    {
      name: 'a rule of short pages nothing applied to, on a store whose every listing was a full page (a long-lived store)',
      feed: (tally) => {
        for (const state of ['unfiltered, page full', 'filtered, page full']) tally.listingSeen(state);
      },
      registry: REGISTRY,
      id: 'store.listing-complete',
      status: 'not-judged',
      judged: 0,
      reason: /\); every one of the 2 listings this run received was a full page$/,
    },
    {
      name: 'a page that was not full among them: no word of full pages',
      feed: (tally) => {
        for (const state of ['unfiltered, page full', 'filtered, page not full']) tally.listingSeen(state);
      },
      registry: REGISTRY,
      id: 'store.listing-complete',
      status: 'not-judged',
      judged: 0,
      reason: /the page should hold\)$/,
    },
    {
      name: 'a rule that is not about short pages: no word of them, every listing full or not',
      feed: (tally) => {
        tally.listingSeen('unfiltered, page full');
      },
      id: 'server.no-5xx',
      status: 'not-judged',
      judged: 0,
      reason: /^no exchange it applies to was sent in this run \(it applies when a response has a 5xx status\)$/,
    },
    {
      name: 'an exchange rule when no phase sends',
      feed: () => {},
      selection: { exchanges: false },
      id: 'server.no-5xx',
      status: 'not-selected',
      judged: 0,
      reason: /no phase of this run sends/,
    },
    {
      name: 'a disabled rule',
      feed: (tally) => tally.judged(outcome('server.no-5xx', 'passed'), 'cases'),
      selection: { disabled: new Map([['server.no-5xx', 'our gateway']]) },
      id: 'server.no-5xx',
      status: 'not-selected',
      judged: 1,
      reason: /^disabled by the configuration: our gateway$/,
    },
    {
      name: 'a case rule no case declares',
      feed: () => {},
      id: 'expect.holdsIfNotFull',
      status: 'not-selected',
      judged: 0,
      reason: /no case of this run declares `holdsIfNotFull`/,
    },
    {
      name: 'a case rule declared, every judgement not judged: the page was full',
      feed: (tally) => {
        tally.caseRan(caseOf({ holdsIfNotFull: { name: 'x' } }), {
          outcome: 'not-judged',
          reason: 'not judged: the page is full (100)',
          checks: [outcome('expect.holdsIfNotFull', 'not-judged', 'the page is full (100)')],
          exchanges: [],
        });
        tally.judged(outcome('expect.holdsIfNotFull', 'not-judged', 'the page is full (100)'), 'cases');
      },
      id: 'expect.holdsIfNotFull',
      status: 'not-judged',
      judged: 0,
      reason: /^the page is full \(100\)$/,
    },
    {
      name: 'a case rule of a case that was not run: the case says why',
      feed: (tally) =>
        tally.caseRan(caseOf({ status: 200 }), {
          outcome: 'not-judged',
          reason: 'writes to the server; not run in read-only mode',
          checks: [],
          exchanges: [],
        }),
      id: 'expect.status',
      status: 'not-judged',
      judged: 0,
      reason: /read-only/,
    },
    {
      name: 'a run rule with no load in the run',
      feed: () => {},
      selection: { load: false },
      id: 'load.p99',
      status: 'not-selected',
      judged: 0,
      reason: /measures no load/,
    },
    {
      name: 'a run rule the load does not ask for',
      feed: (tally) => tally.notAsked('load.p99', 'not selected: this load does not ask for it'),
      id: 'load.p99',
      status: 'not-selected',
      judged: 0,
      reason: /does not ask for it/,
    },
    {
      name: 'a run rule that could not test: not judged, and why',
      feed: (tally) => tally.judged(outcome('load.p99', 'could-not-test', 'the ramp ended'), 'load'),
      id: 'load.p99',
      status: 'not-judged',
      judged: 0,
      reason: /^could not test: the ramp ended$/,
    },
  ];
  for (const row of rows) {
    const tally = new JudgementTally();
    row.feed(tally);
    const ledger = tally.build({ ...SELECTED, ...row.selection }, row.registry ?? RULES);
    const entry = rule(ledger.rules, row.id);
    t.equal(entry?.status, row.status, `${row.name}: status`);
    t.equal(entry?.judged, row.judged, `${row.name}: judgements that concluded`);
    if (row.reason === undefined) t.equal(entry?.reasons, undefined, `${row.name}: no reason`);
    else t.match(entry?.reasons?.[0]?.reason, row.reason, `${row.name}: why`);
    const counted = ledger.rules.filter((r) => r.status !== 'not-selected');
    t.equal(ledger.selected, counted.length, `${row.name}: M counts only the selected rules`);
    t.equal(ledger.judged, counted.filter((r) => r.status === 'judged').length, `${row.name}: N counts the judged ones`);
  }
});

t.test('outcomes, phases and states as recorded; reasons counted, at most a few distinct', async (t) => {
  const tally = new JudgementTally();
  tally.judged(outcome('server.no-5xx', 'passed'), 'cases', 'filtered, page full');
  tally.judged(outcome('server.no-5xx', 'warned'), 'fuzz', 'unfiltered, page not full');
  tally.judged(outcome('server.no-5xx', 'not-judged', 'nothing to see'), 'fuzz');
  for (let i = 0; i < MAX_REASONS + 3; i += 1) tally.because('server.no-5xx', `reason ${i}`);
  tally.because('server.no-5xx', 'reason 0');
  const entry = rule(tally.build(SELECTED, RULES).rules, 'server.no-5xx');
  t.same(entry?.outcomes, { passed: 1, warned: 1, 'not-judged': 1 }, 'every outcome counted');
  t.same(entry?.phases, ['cases', 'fuzz'], 'the phases where it concluded');
  t.same(entry?.states, ['filtered, page full', 'unfiltered, page not full'], 'the listing states');
  t.equal(entry?.reasons?.length, MAX_REASONS + 1, 'a few distinct reasons, then the others together');
  t.same(entry?.reasons?.find((r) => r.reason === 'reason 0')?.count, 2, 'a repeated reason counted');
  // 'nothing to see' and reasons 0 to 3 are the five kept; reasons 4 to 7 are the others.
  t.same(entry?.reasons?.at(-1), { reason: 'other reasons', count: 4 }, 'the rest counted together');
});

t.test('N of M and --min-judged: below only when 100 N < PERCENT M; nothing selected judges 0 %', async (t) => {
  // name, rules judged of the 4 selected, --min-judged, percent, below the minimum
  const rows: Array<[string, number, number | undefined, number, boolean | undefined]> = [
    ['3 of 4, no minimum', 3, undefined, 75, undefined],
    ['3 of 4, at least 75', 3, 75, 75, false],
    ['3 of 4, at least 76', 3, 76, 75, true],
    ['2 of 4, at least 50', 2, 50, 50, false],
    ['none judged, minimum 0', 0, 0, 0, false],
    ['1 of 4, minimum 100', 1, 100, 25, true],
  ];
  for (const [name, judged, minJudged, percent, below] of rows) {
    const tally = new JudgementTally();
    tally.caseRan(caseOf({ status: 200, holdsIfNotFull: { name: 'x' } }), { outcome: 'passed', checks: [], exchanges: [] });
    for (const id of ['server.no-5xx', 'expect.status', 'expect.holdsIfNotFull'].slice(0, judged))
      tally.judged(outcome(id, 'passed'), 'cases');
    tally.judged(outcome('server.answers', 'not-judged'), 'cases');
    const selection: LedgerSelection = { disabled: new Map(), exchanges: true, load: false };
    const ledger = tally.build(minJudged === undefined ? selection : { ...selection, minJudged }, RULES);
    t.equal(ledger.selected, 4, `${name}: M (the run rule is not selected: no load)`);
    t.equal(ledger.judged, judged, `${name}: N`);
    t.equal(ledger.percent, percent, `${name}: percent`);
    t.equal(ledger.minJudged, minJudged, `${name}: the minimum recorded`);
    t.equal(ledger.belowMinimum === true ? true : minJudged === undefined ? undefined : false, below, `${name}: below the minimum`);
  }
  const none = new JudgementTally().build({ disabled: new Map(), exchanges: false, load: false, minJudged: 1 }, RULES);
  t.same([none.judged, none.selected, none.percent, none.belowMinimum], [0, 0, 0, true], 'nothing selected: 0 %, below any minimum');
  // The request space's cells count too: with rules at the minimum (2 of 4 at 50 %), the cells decide.
  const cellRows: Array<[string, { judged: number; of: number }, number | undefined, true | undefined]> = [
    ['every cell judged', { judged: 427, of: 427 }, 50, undefined],
    ['cells at the minimum', { judged: 50, of: 100 }, 50, undefined],
    ['cells below the minimum', { judged: 49, of: 100 }, 50, true],
    ['cells recorded without a minimum', { judged: 1, of: 100 }, undefined, undefined],
  ];
  for (const [name, cells, minJudged, below] of cellRows) {
    const tally = new JudgementTally();
    tally.caseRan(caseOf({ status: 200, holdsIfNotFull: { name: 'x' } }), { outcome: 'passed', checks: [], exchanges: [] });
    for (const id of ['server.no-5xx', 'expect.status']) tally.judged(outcome(id, 'passed'), 'cases');
    const ledger = tally.build(
      { disabled: new Map(), exchanges: true, load: false, cells, ...(minJudged === undefined ? {} : { minJudged }) },
      RULES,
    );
    t.same([ledger.judged, ledger.selected], [2, 4], `${name}: the rules at 50 %`);
    t.same(ledger.cells, cells, `${name}: the cells recorded`);
    t.equal(ledger.belowMinimum, below, `${name}: below the minimum`);
  }
});

t.test('listingState: filtered or not, the page full or not, by the limit asked or the default', async (t) => {
  const rows: Array<[string, string, string, string | undefined]> = [
    ['a full page of the default size', '/pets', pets(20), 'unfiltered, page full'],
    ['a short filtered page', '/pets?status=sold&limit=5', pets(2), 'filtered, page not full'],
    ['a full page of the limit asked', '/pets?limit=2', pets(2), 'unfiltered, page full'],
    ['the limit repeated', '/pets?limit=2&limit=3', pets(2), 'unfiltered, page size unknown'],
  ];
  for (const [name, target, body, state] of rows)
    t.equal(listingState(exchange({ target, body, operation: 'listPets' }), contract), state, name);
  t.equal(listingState(exchange({ target: '/pets/1', body: '{"id":1}', operation: 'getPet' }), contract), undefined, 'not a listing');
  t.equal(listingState(exchange({ target: '/pets', status: 401, body: '{}', operation: 'listPets' }), contract), undefined, 'not a 200');
});

t.test('the judge tallies: an answered exchange keeps the transport rule, a kept rule is judged, the phase is recorded', async (t) => {
  const judge = new Judge({ contract, disabled: new Map([['store.unique-ids', 'off']]) }, undefined, 'cases');
  const answered = exchange({ target: '/pets', body: pets(20), operation: 'listPets' });
  const judged = judge.exchange(answered, { step: { expect: { status: 200 } }, index: 0, level: 'fail', vars: new Map() });
  t.ok(judged.held?.includes('server.no-5xx'), 'a 200 keeps server.no-5xx: held, not a check of the case');
  t.notOk(
    judged.checks.some((c) => c.id === 'server.no-5xx'),
    'the case carries no outcome of it',
  );
  judge.record(answered, judged.checks, judged.held);
  const ledger = judge.tally.build({ disabled: judge.disabled, exchanges: true, load: false });
  t.equal(rule(ledger.rules, 'server.no-5xx')?.status, 'judged', 'server.no-5xx judged by the answer that kept it');
  t.same(rule(ledger.rules, 'server.answers')?.outcomes, { passed: 1 }, 'an answer keeps server.answers');
  t.same(rule(ledger.rules, 'expect.status')?.phases, ['cases'], 'the phase the judge judges for');
  t.equal(rule(ledger.rules, 'store.unique-ids')?.status, 'not-selected', 'a disabled rule is not selected');
  t.match(
    rule(ledger.rules, 'store.listing-complete')?.reasons?.[0]?.reason,
    /every one of the 1 listings this run received was a full page/,
    'the listing it recorded was a full page (20 pets, the default limit): a rule about a shorter page says so',
  );
});

t.test('a load through the judge: the bounds it asks for are judged, the others not selected; a load nothing concluded on', async (t) => {
  const judge = new Judge({ contract, disabled: new Map() }, undefined, 'load');
  const checks = judge.load(SAMPLE_LOAD);
  const ledger = judge.tally.build({ disabled: new Map(), exchanges: false, load: true });
  for (const check of checks)
    t.equal(rule(ledger.rules, check.id)?.status, check.outcome === 'not-judged' ? 'not-judged' : 'judged', `${check.id}: as judged`);
  const asked = new Set(checks.map((c) => c.id));
  const unasked = ledger.rules.filter((r) => r.scope === 'run' && !asked.has(r.id));
  t.ok(unasked.length > 0, 'the sample load leaves some bounds unset');
  t.ok(
    unasked.every((r) => r.status === 'not-selected' && /this load does not ask for it/.test(r.reasons?.[0]?.reason ?? '')),
    'each bound the load does not ask for is not selected, with why',
  );
  const everyRunCheck = new Map(LOAD_CHECKS.map((c) => [c.id, 'off']));
  const result = loadCaseResult(SAMPLE_LOAD, everyRunCheck, 0, new Judge({ contract, disabled: everyRunCheck }));
  t.equal(result.outcome, 'not-judged', 'a load no run check concluded on is not judged, never passed');
  t.match(result.reason, /no check judged the load/);
});
