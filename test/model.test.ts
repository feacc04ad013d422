/** Exact JSON and the reference store's catalogue. */
import t from 'tap';
import { jsonEqual, parseExactJson, stringifyExactJson, toValidationView } from '../dist/model/json.js';
import { PetCatalogue, seedCatalogue } from '../dist/server/store.js';

// json.test.ts
{
  t.test('integers beyond 2^53 survive parsing and serialising exactly', async (t) => {
    const text = '{"id":9223372036854775807,"small":42,"f":1.5}';
    const value = parseExactJson(text);
    t.same(value, { id: 9223372036854775807n, small: 42, f: 1.5 });
    t.equal(stringifyExactJson(value), text);
    t.notOk(jsonEqual(parseExactJson('9007199254740993'), 9007199254740992), 'a JSON.parse round would have made these equal');
    t.ok(jsonEqual(5, 5n), 'number and bigint of the same integer are equal');
    t.notOk(jsonEqual(1.5, 1), 'floats compare by value');
    t.ok(jsonEqual({ a: [1, { b: 2n ** 60n }] }, { a: [1, { b: 2n ** 60n }] }));
  });

  t.test('the validation view keeps out-of-range integers out of int64', async (t) => {
    t.equal(toValidationView(2n ** 63n), 2 ** 64);
    t.equal(toValidationView(-(2n ** 63n) - 1n), -(2 ** 64));
    t.equal(toValidationView(2n ** 62n), 2 ** 62);
  });

  t.test('duplicate keys and garbage are rejected', async (t) => {
    t.throws(() => parseExactJson('{"a":1,"a":2}'));
    t.throws(() => parseExactJson('nope'));
  });
}

// store.test.ts
{
  t.test('a listing page is served from the cache until a write changes the catalogue', async (t) => {
    const catalogue = new PetCatalogue(1n);
    seedCatalogue(catalogue, { available: 2, pending: 1, sold: 0 });
    const first = catalogue.pageJson(5, 'available');
    t.equal(catalogue.pageJson(5, 'available'), first, 'the same page again');
    t.equal((JSON.parse(first) as unknown[]).length, 2);
    catalogue.add({ name: 'Newcomer', categoryId: 1n, status: 'available' });
    const after = JSON.parse(catalogue.pageJson(5, 'available')) as Array<{ name: string }>;
    t.equal(after.length, 3, 'the write shows in the next listing');
    t.equal(after[2]?.name, 'Newcomer');
    t.equal((JSON.parse(catalogue.pageJson(1, 'available')) as unknown[]).length, 1, 'each limit is its own page');
    t.equal(catalogue.pageJson(5, 'sold'), '[]');
  });
}
