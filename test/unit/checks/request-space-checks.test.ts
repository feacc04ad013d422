/** The request space's relations, one table: each outcome a server may choose, and the verdict that holds whatever it chose. */
import t from 'tap';
import { REQUEST_SPACE_CHECKS } from '../../../src/checks/request-space-checks.js';
import { contract, exchange, pets, type ExchangeSpec } from '../../check-fixtures.js';

const error = (status: number): string => JSON.stringify({ code: 'x', message: 'no', status });
const check = (id: string) => {
  const found = REQUEST_SPACE_CHECKS.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no check ${id}`);
  return found;
};

const ROWS: ReadonlyArray<[string, string, unknown, ExchangeSpec, string]> = [
  ['without the key, 401 Error', 'expect.keyFirst', true, { status: 401, body: error(401) }, 'passed'],
  ['without the key, a 400 first', 'expect.keyFirst', true, { status: 400, body: error(400) }, 'failed'],
  ['without the key, a 414 with no Error', 'expect.keyFirst', true, { status: 414, body: '' }, 'failed'],
  ['without the key, 401 not an Error', 'expect.keyFirst', true, { status: 401, body: '<html>' }, 'failed'],
  ['without the key, a 503 asks to wait', 'expect.keyFirst', true, { status: 503, body: '' }, 'not-judged'],
  [
    'without the key, a 406 Error to an Accept it cannot serve',
    'expect.keyFirst',
    { orRefusedWith: 406 },
    { status: 406, body: error(406) },
    'passed',
  ],
  ['without the key, a 406 without an Error', 'expect.keyFirst', { orRefusedWith: 406 }, { status: 406, body: 'no' }, 'failed'],
  [
    'without the key, a 415 where only 406 may come first',
    'expect.keyFirst',
    { orRefusedWith: 406 },
    { status: 415, body: error(415) },
    'failed',
  ],
  [
    'valid spelling refused with an Error',
    'expect.spelledValid',
    { refusable: true, twin: { maxItems: 5 } },
    { status: 400, body: error(400) },
    'passed',
  ],
  [
    'valid spelling refused without an Error',
    'expect.spelledValid',
    { refusable: true, twin: {} },
    { status: 414, body: 'too long' },
    'failed',
  ],
  [
    'the same value refused',
    'expect.spelledValid',
    { refusable: false, twin: { status: 201 } },
    { status: 400, body: error(400) },
    'failed',
  ],
  [
    'valid spelling answered as the twin',
    'expect.spelledValid',
    { refusable: true, twin: { status: 200, maxItems: 5 } },
    { body: pets(5) },
    'passed',
  ],
  [
    'valid spelling answered past the limit',
    'expect.spelledValid',
    { refusable: true, twin: { status: 200, maxItems: 5 } },
    { body: pets(6) },
    'failed',
  ],
  [
    'valid spelling answered with another pet',
    'expect.spelledValid',
    { refusable: true, twin: { status: 200, body: { id: 7 } } },
    { operation: 'getPet', body: '{"id":8,"name":"a","categoryId":1}' },
    'failed',
  ],
  ['valid spelling answered 500', 'expect.spelledValid', { refusable: true, twin: {} }, { status: 500, body: '' }, 'failed'],
  ['invalid spelling refused', 'expect.spelledInvalid', { rules: { maxItems: 100 } }, { status: 404, body: error(404) }, 'passed'],
  ['invalid spelling within the bound', 'expect.spelledInvalid', { rules: { maxItems: 100 } }, { body: pets(20) }, 'passed'],
  ['invalid spelling past the bound', 'expect.spelledInvalid', { rules: { maxItems: 100 } }, { body: pets(101) }, 'failed'],
  ['invalid spelling answered 500', 'expect.spelledInvalid', { rules: {} }, { status: 500, body: error(500) }, 'failed'],
  ['a refused body value accepted', 'expect.spelledInvalid', { refusals: [400], rules: {} }, { status: 201, body: '{}' }, 'failed'],
  ['a refused body value with 422', 'expect.spelledInvalid', { refusals: [400], rules: {} }, { status: 422, body: error(422) }, 'failed'],
  ['a refused body value with 400', 'expect.spelledInvalid', { refusals: [400], rules: {} }, { status: 400, body: error(400) }, 'passed'],
  // A path spelled another way: a redirect to the documented path on the same origin answers it; any other redirect does not.
  ...(['expect.keyFirst', 'expect.spelledValid', 'expect.spelledInvalid'] as const).flatMap(
    (id): Array<[string, string, unknown, ExchangeSpec, string]> => {
      const expected = (to: string) =>
        id === 'expect.keyFirst'
          ? { orRedirectedTo: to }
          : id === 'expect.spelledValid'
            ? { refusable: true, twin: {}, orRedirectedTo: to }
            : { rules: {}, orRedirectedTo: to };
      const redirect = (location: string): ExchangeSpec => ({ status: 308, headers: { location }, body: '<a>', target: '/pets//1' });
      return [
        [`${id}: a redirect to the documented path`, id, expected('/pets/1'), redirect('/v1/pets/1'), 'passed'],
        [`${id}: a relative redirect to it`, id, expected('/pets/1'), redirect('../1'), 'passed'],
        [`${id}: a redirect to a longer path ending as it does`, id, expected('/pets/1'), redirect('/v1/x/pets/1'), 'failed'],
        [`${id}: a redirect to another origin`, id, expected('/pets/1'), redirect('http://elsewhere.test/v1/pets/1'), 'failed'],
        [`${id}: a redirect elsewhere on the origin`, id, expected('/pets/1'), redirect('/login'), 'failed'],
      ];
    },
  ),
  [
    'a redirect where no path was spelled',
    'expect.spelledValid',
    { refusable: true, twin: {} },
    { status: 301, headers: { location: '/v1/pets' } },
    'failed',
  ],
  [
    'without the key, a path of no operation refused with an Error',
    'expect.keyFirst',
    { orNoOperation: true },
    { status: 404, body: error(404) },
    'passed',
  ],
  [
    'without the key, a path of no operation, an HTML 404',
    'expect.keyFirst',
    { orNoOperation: true },
    { status: 404, body: '<html>' },
    'failed',
  ],
  ['without the key, a path of no operation answered 200', 'expect.keyFirst', { orNoOperation: true }, { body: pets(1) }, 'failed'],
  [
    'a chunked body refused with 411 and an Error',
    'expect.spelledValid',
    { refusable: false, twin: { status: 201 }, orRefusedWith: 411 },
    { status: 411, body: error(411) },
    'passed',
  ],
  [
    'a chunked body refused with 400',
    'expect.spelledValid',
    { refusable: false, twin: { status: 201 }, orRefusedWith: 411 },
    { status: 400, body: error(400) },
    'failed',
  ],
];

for (const [words, id, expected, response, outcome] of ROWS)
  t.test(words, async (t) => {
    const judgement = check(id).evaluate({ exchange: exchange(response), contract, expected });
    t.equal(judgement.outcome, outcome, judgement.message);
  });
