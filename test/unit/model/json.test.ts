/** Exact JSON and the reference store's catalogue. */
import t from 'tap';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { isInteger, parse } from 'lossless-json';
import { jsonEqual, parseExactJson, showJson, type JsonValue, stringifyExactJson, toValidationView } from '../../../src/model/json.js';
import { PetCatalogue, seedCatalogue } from '../../../src/server/store.js';

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

  t.test('showJson writes a value exactly when it fits, and the start of it with its size when it does not', async (t) => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.integer(),
        fc.bigInt(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string(),
        fc.boolean(),
        fc.constant(null),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 5 }),
      object: fc.dictionary(fc.string(), tie('value'), { maxKeys: 5 }),
    })).value;
    fc.assert(
      fc.property(json, (value) => showJson(value as JsonValue) === stringifyExactJson(value)),
      { numRuns: 300 },
    );
    t.pass('300 generated values shown as stringifyExactJson writes them');
    const pets = Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `pet-${i}` }));
    const shown = showJson(pets);
    t.equal(shown.length, 4096 + '… (an array of 50000 items)'.length);
    t.ok(shown.startsWith('[{"id":0,"name":"pet-0"},{"id":1,'), shown.slice(0, 40));
    t.match(showJson('x'.repeat(100_000)), /^"x{4095}… \(a string of 100000 characters\)$/);
    t.equal(showJson({ a: 'b' }, 3), '{"a… (an object of 1 member)');
    t.equal(showJson(undefined), 'nothing');
  });

  t.test('the validation view keeps out-of-range integers out of int64', async (t) => {
    t.equal(toValidationView(2n ** 63n), 2 ** 64);
    t.equal(toValidationView(-(2n ** 63n) - 1n), -(2 ** 64));
    t.equal(toValidationView(2n ** 62n), 2 ** 62);
  });

  t.test('duplicate keys and garbage are rejected', async (t) => {
    t.throws(() => parseExactJson('{"a":1,"a":2}'));
    t.throws(() => parseExactJson('[{"b":{"a":1,"a":{}}}]'), 'a duplicate deep inside, where JSON.parse would keep the last');
    t.throws(() => parseExactJson('{"__proto__":1,"__proto__":2}'));
    t.throws(() => parseExactJson('nope'));
    t.throws(() => parseExactJson('[1] x'), 'trailing data');
  });

  t.test('the native fast path reads every text exactly as lossless-json does (values, refusals and their messages)', async (t) => {
    // lossless-json with the suite's number rule: the reference the fast path is held to.
    const reference = (text: string): { value: unknown } | { error: string } => {
      try {
        return {
          value: parse(text, null, (n: string) =>
            isInteger(n) ? (Number.isSafeInteger(Number(n)) ? Number(n) : BigInt(n)) : Number.parseFloat(n),
          ),
        };
      } catch (error) {
        return { error: (error as Error).message };
      }
    };
    const ours = (text: string): { value: unknown } | { error: string } => {
      try {
        return { value: parseExactJson(text) };
      } catch (error) {
        return { error: (error as Error).message };
      }
    };
    const key = fc.constantFrom('a', 'b', 'id', '__proto__', 'n\\"a', '\\u0061');
    const number = fc.oneof(
      fc.integer().map(String),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.constantFrom('-0', '1e400', '1E+2', '0.1e-3', '9007199254740993', '123456789012345.5'),
    );
    const { value: json } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        number,
        fc.string().map((s) => JSON.stringify(s)),
        fc.constantFrom('true', 'false', 'null', '"\\ud83d"'),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
      object: fc
        .array(fc.tuple(key, tie('value')), { maxLength: 4 })
        .map((members) => `{${members.map(([k, v]) => `"${k}" : ${v}`).join(',')}}`),
    }));
    const noise = fc.constantFrom('', ' ', ']', ',', 'x', '\n', '"');
    fc.assert(
      fc.property(json, noise, fc.nat(), (text, extra, at) => {
        const mutated = extra === '' ? text : `${text.slice(0, at % (text.length + 1))}${extra}${text.slice(at % (text.length + 1))}`;
        return [text, mutated].every((candidate) => isDeepStrictEqual(ours(candidate), reference(candidate)));
      }),
      { numRuns: 500 },
    );
    t.pass('500 generated texts and as many mutated ones read alike');
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
