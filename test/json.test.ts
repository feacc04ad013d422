import t from 'tap';
import { jsonEqual, parseExactJson, stringifyExactJson, toValidationView } from '../dist/model/json.js';

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
