/**
 * The listing invariants, once: their table, and a property that the two forms that apply them agree on generated listings:
 * the exchange checks (checks/invariants.ts, against the store model) and the load's hot path (load/listing-judge.ts).
 */
import t from 'tap';
import fc from 'fast-check';
import { INVARIANT_CHECKS } from '../../../src/checks/invariants.js';
import { ListingJudge } from '../../../src/load/listing-judge.js';
import { listLimitOf } from '../../../src/model/contract.js';
import {
  isShortPage,
  missingFromShortPage,
  overLimit,
  pageBound,
  pageLimit,
  strayStatuses,
} from '../../../src/model/listing-invariants.js';
import type { ListingInvariant } from '../../../src/model/load.js';
import { StoreModel } from '../../../src/model/store-model.js';
import { contract, exchange } from '../../check-fixtures.js';

const bounds = listLimitOf(contract);

t.test('the table: page size, bound, limit, short page', async (t) => {
  // [asked limit, page size, bound, over the limit with 25 pets, a short page with 19 pets]
  const rows: Array<[number | undefined, number | undefined, number, boolean, boolean]> = [
    [undefined, 20, 20, true, true],
    [1, 1, 1, true, false],
    [20, 20, 20, true, true],
    [100, 100, 100, false, true],
    [0, undefined, 100, false, false],
    [101, undefined, 100, false, false],
    [Number.NaN, undefined, 100, false, false],
    [2.5, undefined, 100, false, false],
  ];
  for (const [asked, limit, bound, over, short] of rows) {
    const what = `limit ${String(asked)}`;
    t.equal(pageLimit(asked, bounds), limit, `${what}: page size`);
    t.equal(pageBound(asked, bounds), bound, `${what}: bound`);
    t.equal(overLimit(25, asked, bounds), over, `${what}: 25 pets over it`);
    t.equal(isShortPage(19, asked, bounds), short, `${what}: 19 pets a short page`);
  }
  t.same(
    strayStatuses([{ s: 'sold' }, { s: 'Sold' }, {}, { s: 'sold' }], 'sold', (p: { s?: string }) => p.s),
    [{ s: 'Sold' }, {}],
  );
  const seen = [
    { id: '1', status: 'sold' },
    { id: '2', status: 'available' },
    { id: '3', status: undefined },
  ];
  t.same(missingFromShortPage(new Set(['1']), seen, undefined), [seen[1], seen[2]], 'unfiltered: every pet');
  t.same(missingFromShortPage(new Set(['1']), seen, 'sold'), [], 'filtered: its status only');
  t.same(missingFromShortPage(new Set<string>(), seen, 'available'), [seen[1]]);
});

const STATUSES = ['available', 'pending', 'sold'] as const;

/** A pet of the pool: ids 1..12, a status of the enum, another one, or none. */
const petArb = fc.record({
  id: fc.integer({ min: 1, max: 12 }),
  status: fc.option(fc.constantFrom(...STATUSES, 'Sold'), { nil: undefined }),
});
type Pet = { id: number; status: string | undefined };
const asJson = (pet: Pet) => ({
  id: pet.id,
  name: `pet ${pet.id}`,
  categoryId: 1,
  ...(pet.status === undefined ? {} : { status: pet.status }),
});

/** The invariants the exchange checks find broken, the store model knowing `known`. */
function byChecks(
  known: readonly Pet[],
  listed: readonly Pet[],
  limit: number | undefined,
  status: string | undefined,
): ListingInvariant[] {
  let now = 0;
  const model = new StoreModel({ windowMs: 0, now: () => now });
  model.observe(exchange({ target: '/pets?limit=100', body: JSON.stringify(known.map(asJson)) }), 'earlier');
  now = 1_000;
  const pairs: Array<[string, string]> = [];
  if (limit !== undefined) pairs.push(['limit', String(limit)]);
  if (status !== undefined) pairs.push(['status', status]);
  const query = new URLSearchParams(pairs).toString();
  const context = {
    exchange: exchange({ target: `/pets${query === '' ? '' : `?${query}`}`, body: JSON.stringify(listed.map(asJson)) }),
    contract,
    declared: {},
    model,
  };
  const names: Record<string, ListingInvariant> = {
    'store.listing-limit': 'limit',
    'store.listing-status': 'status',
    'store.listing-complete': 'complete',
  };
  return INVARIANT_CHECKS.filter((c) => names[c.id] !== undefined && c.applies(context) && c.evaluate(context).outcome === 'failed')
    .map((c) => names[c.id] as ListingInvariant)
    .sort();
}

/** The invariants the load's listing judge counts broken, holding the listing to `known`. */
function byLoad(
  known: readonly Pet[],
  listed: readonly Pet[],
  limit: number | undefined,
  status: (typeof STATUSES)[number] | undefined,
): ListingInvariant[] {
  // The last sighting of an id is what the model keeps too: the first response that showed it.
  const first = new Map<string, Pet>();
  for (const pet of known) if (!first.has(String(pet.id))) first.set(String(pet.id), pet);
  const held = [...first.values()].map((pet) => ({ id: String(pet.id), status: pet.status, where: 'earlier', settlesInMs: 0 }));
  const judge = new ListingJudge(
    held,
    contract,
    (text) => text,
    () => 0,
  );
  const query = { weight: 1, ...(limit === undefined ? {} : { limit }), ...(status === undefined ? {} : { status }) };
  judge.judge('GET /pets', query, 200, 0, JSON.stringify(listed.map(asJson)));
  const { contradictions } = judge.result();
  return (Object.keys(contradictions) as ListingInvariant[]).filter((invariant) => contradictions[invariant] > 0).sort();
}

t.test('the exchange checks and the load judge agree on every generated listing', async (t) => {
  fc.assert(
    fc.property(
      fc.array(petArb, { maxLength: 12 }),
      fc.array(petArb, { maxLength: 30 }),
      fc.option(fc.integer({ min: -2, max: 110 }), { nil: undefined }),
      // A profile's query names a status of the enum (its schema): the load is never asked another.
      fc.option(fc.constantFrom(...STATUSES), { nil: undefined }),
      (known, listed, limit, status) => {
        const checks = byChecks(known, listed, limit, status);
        const load = byLoad(known, listed, limit, status);
        if (checks.join() !== load.join()) throw new Error(`checks ${checks.join() || 'none'}, load ${load.join() || 'none'}`);
      },
    ),
    { numRuns: 300, seed: 43 },
  );
  t.pass('300 generated listings judged alike');
});
