import t from 'tap';
import { LISTING_CHECKS } from '../../../src/checks/load-listings.js';
import { LISTING_RULE } from '../../../src/load/listing-judge.js';
import type { ListingContradiction, LoadReport } from '../../../src/model/load.js';
import { loadReportOf, metricsOf, profileOf } from '../../load-fixtures.js';

/** A load whose listings were judged with these figures (absent: a report of an earlier version). */
function loadWith(listings?: Partial<NonNullable<LoadReport['listings']>>): LoadReport {
  return loadReportOf(
    profileOf(),
    metricsOf(),
    listings === undefined
      ? {}
      : {
          listings: {
            knownPets: 20,
            answered: 1000,
            judged: 400,
            shortPages: 300,
            heldToKnown: 250,
            contradictions: { complete: 0, limit: 0, status: 0 },
            evidence: [],
            rule: LISTING_RULE,
            ...listings,
          },
        },
  );
}

const EMPTY_PAGE: ListingContradiction = {
  invariant: 'complete',
  request: 'GET /v1/pets?limit=100',
  status: 200,
  message: 'a page of 0 for limit 100 lacks 20 pets of any status the run saw before the load: pet 1 (shown by GET /v1/pets)',
  bodyExcerpt: '[]',
};

const check = (id: string) => {
  const found = LISTING_CHECKS.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no check ${id}`);
  return found;
};

const ROWS: Array<{ name: string; id: string; load: LoadReport; applies: boolean; outcome?: string; message?: RegExp }> = [
  { name: 'a report of an earlier version', id: 'load.listing-complete', load: loadWith(), applies: false },
  {
    name: 'nothing contradicts',
    id: 'load.listing-complete',
    load: loadWith({}),
    applies: true,
    outcome: 'passed',
    message: /^400 of 1000 listings answered 200 judged, 250 short pages held to 20 pets the run saw before the load: none contradicts it$/,
  },
  {
    name: 'no short page sent once a known pet had settled',
    id: 'load.listing-complete',
    load: loadWith({ heldToKnown: 0 }),
    applies: true,
    outcome: 'not-judged',
    message: /^no page shorter than its limit \(300 judged\) was sent once a matching pet of the 20 the run saw before the load had passed/,
  },
  {
    name: 'every page full: nothing for listing-complete to hold',
    id: 'load.listing-complete',
    load: loadWith({ shortPages: 0, heldToKnown: 0 }),
    applies: true,
    outcome: 'not-judged',
    message: /^every page judged was as long as its limit \(400 of 1000 listings answered 200 judged\)/,
  },
  {
    name: 'no pet known before the load',
    id: 'load.listing-complete',
    load: loadWith({ knownPets: 0 }),
    applies: true,
    outcome: 'not-judged',
    message: /^the run saw no pet before the load/,
  },
  {
    name: 'the page shape is judged without known pets',
    id: 'load.listing-limit',
    load: loadWith({ knownPets: 0 }),
    applies: true,
    outcome: 'passed',
  },
  {
    name: 'no listing judged',
    id: 'load.listing-status',
    load: loadWith({ judged: 0 }),
    applies: true,
    outcome: 'not-judged',
  },
  {
    name: 'empty pages under pressure',
    id: 'load.listing-complete',
    load: loadWith({ contradictions: { complete: 7, limit: 0, status: 0 }, evidence: [EMPTY_PAGE] }),
    applies: true,
    outcome: 'failed',
    message: /^7 of 400 listings under load contradict it, 250 short pages held to 20 pets the run saw before the load$/,
  },
  {
    name: "another invariant's contradiction is not this one's",
    id: 'load.listing-limit',
    load: loadWith({ contradictions: { complete: 7, limit: 0, status: 0 }, evidence: [EMPTY_PAGE] }),
    applies: true,
    outcome: 'passed',
  },
  {
    name: "a count with every evidence slot another invariant's still fails",
    id: 'load.listing-status',
    load: loadWith({ contradictions: { complete: 7, limit: 0, status: 2 }, evidence: [EMPTY_PAGE] }),
    applies: true,
    outcome: 'failed',
    message: /^2 of 400 listings under load contradict it$/,
  },
];

t.test('each listing check judges its invariant from the load report', async (t) => {
  for (const row of ROWS) {
    const c = check(row.id);
    t.equal(c.applies({ load: row.load }), row.applies, `${row.name}: applies`);
    if (!row.applies) continue;
    const judgement = c.evaluate({ load: row.load });
    t.equal(judgement.outcome, row.outcome, `${row.name}: ${judgement.message}`);
    if (row.message !== undefined) t.match(judgement.message, row.message, `${row.name}: message`);
  }
});

t.test('a failure carries the exchange: request line, status, what is missing, the body', async (t) => {
  const judgement = check('load.listing-complete').evaluate({
    load: loadWith({ contradictions: { complete: 1, limit: 0, status: 0 }, evidence: [EMPTY_PAGE] }),
  });
  t.match(judgement, {
    outcome: 'failed',
    failures: [
      {
        message: `GET /v1/pets?limit=100 → 200: ${EMPTY_PAGE.message}`,
        expected: 'every matching pet the run saw before the load on a page shorter than its limit',
        actual: '[]',
      },
    ],
  });
});

t.test('the checks trace to the clauses of their functional counterparts', async (t) => {
  t.same(
    LISTING_CHECKS.map((c) => c.id),
    ['load.listing-complete', 'load.listing-limit', 'load.listing-status'],
  );
  t.match(check('load.listing-complete').clause, /a page shorter than its limit holds every matching pet \(store\.listing-complete\)/);
  for (const c of LISTING_CHECKS) t.equal(c.level, 'fail', `${c.id} fails the load`);
});
