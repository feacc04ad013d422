/** Enough data to judge: the store is counted, topped up with pets named by the run id, and a case that still cannot be judged is skipped with its reason. */
import t, { type Test } from 'tap';
import { CreatedPets } from '../../../src/engine/observer.js';
import { fillStore } from '../../../src/engine/phases/store-fill.js';
import { spareStatusOf, unmetRequirement, type StoreCounts } from '../../../src/engine/store-counts.js';
import { phaseVariables, writtenStatus } from '../../../src/engine/run-context.js';
import { DEFAULT_HTTP_OPTIONS } from '../../../src/http/client.js';
import { openClient } from '../../../src/http/open-client.js';
import { generateCases } from '../../../src/requests/generated-cases.js';
import { errorResponse, startReferenceServer, type ReferenceServerOptions } from '../../../src/server/reference-server.js';
import { contract } from '../../check-fixtures.js';

const KEY = 'store-fill-key';
const cases = generateCases(contract);

async function fill(
  t: Test,
  server: Partial<ReferenceServerOptions>,
  readOnly: boolean,
): Promise<{ counts: StoreCounts | undefined; created: CreatedPets; listed: () => number }> {
  const running = await startReferenceServer({ apiKey: KEY, seed: { available: 5, pending: 5, sold: 3 }, ...server });
  // The created pets hear of the fill's creates through the client's observe layer, as the run's do.
  const created = new CreatedPets();
  const client = openClient({ ...DEFAULT_HTTP_OPTIONS, baseUrl: running.baseUrl, apiKey: KEY }, { observer: created });
  t.teardown(async () => {
    await client.close();
    await running.close();
  });
  const counts = await fillStore(cases, { client, contract, readOnly, concurrency: 4, runId: 'pc-test-run', categoryId: 1 });
  return { counts, created, listed: () => running.store.catalogue.size };
}

t.test('a store of 13 pets is topped up to what the caps and filters need, each new pet named with the run id', async (t) => {
  const { counts, created, listed } = await fill(t, {}, false);
  // limit=100 needs 101 pets; the default page under status=available needs 21 available pets; every status needs one.
  t.match(counts, { total: 101, created: 88 });
  t.equal(counts?.byStatus.get('available'), 93);
  t.equal(listed(), 101, 'the server holds them');
  t.equal(created.count, 88, 'the pets are counted among those the run created');
  t.ok(
    created.all().every((p) => String(p['name']).startsWith('pc-test-run fill ')),
    'named with the run id',
  );
  t.equal(
    unmetRequirement({ pets: 101, because: 'limit=100 cannot show a cap' }, counts, false),
    undefined,
    'the largest cap can be judged',
  );
});

t.test('read-only: nothing is created, and the cases that need more pets say why they cannot be judged', async (t) => {
  const { counts, created } = await fill(t, {}, true);
  t.match(counts, { total: 13, created: 0 });
  t.equal(created.count, 0);
  t.equal(
    unmetRequirement({ pets: 21, because: 'limit=20 cannot show a cap' }, counts, true),
    'only 13 pets (21 needed): limit=20 cannot show a cap (read-only: the suite creates none)',
  );
  t.equal(
    unmetRequirement({ pets: 4, status: 'sold', because: 'x' }, counts, true),
    'only 3 sold pets (4 needed): x (read-only: the suite creates none)',
  );
  t.equal(unmetRequirement({ pets: 1, status: 'pending', because: 'x' }, counts, true), undefined, 'enough pending pets');
  t.equal(unmetRequirement(undefined, counts, true), undefined, 'a case that requires nothing');
});

t.test('a store that refuses to create, or to count, is not filled and says so', async (t) => {
  const refusing = await fill(
    t,
    { wrap: (next) => (req) => (req.method === 'POST' ? errorResponse(400, 'unknown_category', 'no category 1') : next(req)) },
    false,
  );
  t.match(refusing.counts, { created: 0, problem: 'creating pets to judge by answered 400' });
  t.match(
    unmetRequirement({ pets: 21, because: 'limit=20 cannot show a cap' }, refusing.counts, false),
    /^only 13 pets \(21 needed\): limit=20 cannot show a cap \(creating pets to judge by answered 400\)$/,
  );

  const uncountable = await fill(
    t,
    { wrap: (next) => (req) => (req.method === 'GET' && req.query.has('status') ? errorResponse(400, 'no_filter', 'no') : next(req)) },
    false,
  );
  t.match(uncountable.counts, { created: 0, problem: /^the store could not be counted: GET \/pets\?status=available answered 400/ });
});

t.test('a large store needs nothing', async (t) => {
  const { counts, created } = await fill(t, { seed: { available: 120, pending: 2, sold: 2 } }, false);
  t.match(counts, { created: 0 });
  t.ok((counts?.total ?? 0) >= 101);
  t.equal(created.count, 0);
});

t.test('the spare status: the one counted with most pets, the earliest on a tie, the first when nothing was counted', async (t) => {
  const statuses = ['available', 'pending', 'sold'];
  const counted = (byStatus: Record<string, number>): StoreCounts => ({
    total: 0,
    byStatus: new Map(Object.entries(byStatus)),
    created: 0,
  });
  const table: Array<[string, StoreCounts | undefined, string | undefined]> = [
    ['nothing counted', undefined, 'available'],
    ['the fullest page', counted({ available: 20, pending: 100, sold: 3 }), 'pending'],
    ['a tie goes to the earliest', counted({ available: 7, pending: 100, sold: 100 }), 'pending'],
    ['a status not counted has none', counted({ sold: 1 }), 'sold'],
    ['every count zero', counted({ available: 0, pending: 0, sold: 0 }), 'available'],
  ];
  for (const [name, store, spare] of table) t.equal(spareStatusOf(statuses, store), spare, name);
  t.equal(spareStatusOf([], undefined), undefined, 'a contract without a status enum has none');

  const variables = phaseVariables(new Map([['runId', 'pc-x']]), { store: counted({ sold: 9 }) }, statuses);
  t.equal(variables.get('spareStatus'), 'sold', 'a phase after the fill sees the spare status');
  t.equal(variables.get('runId'), 'pc-x', 'beside the run variables');
  t.equal(writtenStatus('pending', variables), 'sold', 'a generated create writes the spare status whatever it drew');
  t.equal(writtenStatus('pending', new Map()), 'pending', 'what it drew while the run does not know the spare one');
});
