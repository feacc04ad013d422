/** The cases generated from the contract: the auth matrix, the limit bounds, the status values, and how they follow the contract. No network. */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadContract } from '../../../src/loader/contract.js';
import { generateCases } from '../../../src/requests/generated-cases.js';
import type { Contract, OperationInfo } from '../../../src/model/contract.js';
import type { OperationName } from '../../../src/model/contract-names.js';
import { root } from '../../helpers.js';

const contract = await loadContract(path.join(root, 'schemas'));

t.test('generated cases follow the contract: the auth matrix, the limit bounds, the status values', async (t) => {
  const cases = generateCases(contract);
  const ids = new Set(cases.map((c) => c.id));
  t.equal(ids.size, cases.length, 'ids are unique');
  const refused = [
    'appended-char',
    'basic-scheme',
    'empty-bearer',
    'missing',
    'removed-char',
    'wrong-token',
    'swapped-case',
    'basic-raw',
    'token-scheme',
    'no-scheme',
    'prefixed-char',
    'space-inside',
    'scheme-suffix',
    'trailing-token',
  ];
  const matrix: Array<[OperationName, string[]]> = [
    ['listPets', [...refused, 'lowercase-scheme', 'two-headers']],
    [
      'createPet',
      [
        ...refused,
        'before-validation',
        'before-validation.malformed-json',
        'before-validation.not-json',
        'before-validation.empty',
        'before-validation.trailing-data',
        'before-validation.nan',
        'before-validation.infinity',
        'before-validation.minus-infinity',
        'before-validation.1e400',
        'before-validation.keys-in-capitals',
        'lowercase-scheme',
        'two-headers',
      ],
    ],
    ['getPet', [...refused, 'lowercase-scheme', 'two-headers']],
  ];
  for (const [op, slugs] of matrix) {
    const mine = cases.filter((c) => c.id.startsWith(`auth.${op}.`));
    t.same(mine.map((c) => c.id.slice(`auth.${op}.`.length)).sort(), [...slugs].sort(), `the auth matrix of ${op}`);
    t.ok(
      mine.every((c) => c.suite === 'auth' && c.operation === op),
      `${op}: suite and operation`,
    );
    for (const c of mine.filter((c) => refused.some((s) => c.id.endsWith(`.${s}`))))
      t.same(c.steps[0]?.expect, { status: 401, schema: 'Error' }, `${c.id}: 401 and an Error`);
    t.same(
      mine.find((c) => c.id.endsWith('.two-headers'))?.steps[0]?.expect?.undocumented?.refusals,
      [401, 400],
      `${op}: two Authorization headers are refused, or warned when accepted`,
    );
    const lower = mine.find((c) => c.id.endsWith('.lowercase-scheme'));
    t.equal(lower?.level, 'warn', `${op}: a lower-case scheme only warns`);
    t.notOk((lower?.steps[0]?.expect?.status as number[]).includes(401), `${op}: a lower-case scheme must not be refused`);
  }
  const auth = (id: string): unknown => cases.find((c) => c.id === id)?.steps[0]?.request.auth;
  t.same(
    ['missing', 'basic-scheme', 'wrong-token'].map((s) => auth(`auth.getPet.${s}`)),
    ['none', 'basic-scheme', 'wrong-token'],
    'each slug sends its variant',
  );
  t.equal(cases.find((c) => c.id === 'auth.getPet.missing')?.steps[0]?.request.path, '/pets/{unknownPetId}');

  const limit = (id: string): unknown => cases.find((c) => c.id === id)?.steps[0]?.request.query?.['limit'];
  const bounds: Array<[string, unknown]> = [
    ['min', 1],
    ['min-plus-one', 2],
    ['default-explicit', 20],
    ['max-minus-one', 99],
    ['max', 100],
    ['below-min', 0],
    ['above-max', 101],
    ['negative', -1],
    ['fraction', '1.5'],
    ['not-a-number', 'abc'],
    ['empty', ''],
    ['repeated', [1, 2]],
  ];
  for (const [slug, value] of bounds)
    t.strictSame(limit(`listPets.limit.${slug}`), value, `listPets.limit.${slug} sends limit=${JSON.stringify(value)}`);
  // A store that holds more than the page (what `requires` asks) fills it: a shorter page would lack pets that match.
  t.strictSame(cases.find((c) => c.id === 'listPets.limit.max')?.steps[0]?.expect, { status: 200, maxItems: 100, minItems: 100 });
  t.strictSame(cases.find((c) => c.id === 'listPets.limit.default')?.steps[0]?.expect, { status: 200, maxItems: 20, minItems: 20 });
  t.equal(
    cases.find((c) => c.id === 'listPets.limit.min')?.steps[0]?.readAfterWrite,
    true,
    'pets the fill created have the window to show',
  );
  t.strictSame(
    cases.find((c) => c.id === 'listPets.limit.above-max')?.steps[0]?.expect,
    { undocumented: { refusals: [400] }, when: { '200': { maxItems: 100 } } },
    'out of range: the silence policy (a 400 Error passes, another 4xx warns), and a 200 within bounds',
  );
  t.match(
    cases.find((c) => c.id === 'listPets.limit.max'),
    { requires: { pets: 101, because: 'limit=100 cannot show a cap' } },
    'a cap of N is judged on a store of more than N pets',
  );
  t.match(
    cases.find((c) => c.id === 'listPets.limit.default'),
    { requires: { pets: 21 } },
  );
  t.notOk(cases.find((c) => c.id === 'listPets.limit.above-max')?.requires, 'a refusal needs no pets');

  const statuses = (JSON.parse(await readFile(path.join(root, 'schemas/pet-status.schema.json'), 'utf8')) as { enum: string[] }).enum;
  t.same(statuses, ['available', 'pending', 'sold']);
  for (const status of statuses) {
    t.strictSame(
      cases.find((c) => c.id === `listPets.filter.${status}`)?.steps[0],
      { request: { method: 'GET', path: '/pets', query: { status, limit: 100 } }, expect: { status: 200, everyItem: { status } } },
      `listPets.filter.${status}`,
    );
    t.match(
      cases.find((c) => c.id === `listPets.filter.${status}`)?.requires,
      { pets: 1, status },
      `listPets.filter.${status} is judged on a store holding a ${status} pet`,
    );
    const created = cases.find((c) => c.id === `listPets.filter.${status}.created`);
    t.match(
      created,
      {
        writes: true,
        steps: [
          { request: { method: 'POST', json: { status } }, capture: { petId: '/id' } },
          { readAfterWrite: true, expect: { holdsIfNotFull: { id: '{petId}' } } },
        ],
      },
      `listPets.filter.${status}.created`,
    );
    t.match(
      cases.find((c) => c.id === `createPet.status.${status}`),
      { writes: true, operation: 'createPet', steps: [{ expect: { status: 201, body: { status } } }] },
      `createPet.status.${status}`,
    );
  }
  t.ok(ids.has('listPets.filter.unknown-value'));
  t.match(
    cases.find((c) => c.id === 'listPets.filter.default-page'),
    {
      requires: { pets: 21, status: 'available' },
      steps: [{ request: { query: { status: 'available' } }, expect: { status: 200, maxItems: 20 } }],
    },
    'the default page applies with a filter too',
  );
  t.equal(
    cases.filter((c) => c.id.startsWith('listPets.filter.') && !c.id.endsWith('.created') && !c.id.startsWith('listPets.filter.near.'))
      .length,
    statuses.length + 2,
    'one filter case per status value, the default page filtered, and one unknown value',
  );
  t.same(
    cases.filter((c) => c.id.startsWith('listPets.filter.near.')).map((c) => c.steps[0]?.request.query?.['status']),
    ['avail', 'availablex', 'Available', 'AVAILABLE', ' available', 'available ', '', ['available', 'pending']],
    'status values near the first of the enum: each names no pet',
  );

  const lines = (await readFile(path.join(root, 'schemas/openapi.yaml'), 'utf8')).split('\n');
  const untraced = cases.filter((c) => {
    const line = c.source === undefined ? undefined : lines[c.source.line - 1];
    return (
      c.source?.file !== 'schemas/openapi.yaml' ||
      line === undefined ||
      line.slice(c.source.column - 1).trim() !== `operationId: ${c.operation}`
    );
  });
  t.same(
    untraced.map((c) => c.id),
    [],
    'every case points at the operation it is generated from, in openapi.yaml',
  );
  t.ok(
    cases.filter((c) => c.operation === 'getPet').every((c) => c.clock?.before === '2030-12-05'),
    'getPet cases apply only before its removal',
  );
  // A coverage case that reads its pet back through getPet applies only before the removal as well.
  t.ok(
    cases
      .filter((c) => c.operation !== 'getPet')
      .every((c) => c.clock === undefined || c.steps.some((s) => /\{petId\}/.test(s.request.path))),
    'no other case has a clock, but those that read back through getPet',
  );
  t.same(
    cases.filter((c) => c.writes !== c.steps.some((s) => s.request.method === 'POST')).map((c) => c.id),
    [],
    'a case writes exactly when it POSTs',
  );
});

t.test('generated cases change with the contract', async (t) => {
  const narrower: Contract = { ...contract, listLimit: { min: 5, max: 50, default: 10 } };
  const limit = (id: string): unknown => generateCases(narrower).find((c) => c.id === id)?.steps[0]?.request.query?.['limit'];
  t.strictSame(
    ['min', 'max', 'below-min', 'above-max', 'default-explicit'].map((s) => limit(`listPets.limit.${s}`)),
    [5, 50, 4, 51, 10],
    'bounds read from the contract',
  );
  t.strictSame(
    generateCases(narrower).find((c) => c.id === 'listPets.filter.sold')?.steps[0]?.request.query,
    { status: 'sold', limit: 50 },
    'filters ask for a full page of the contract',
  );
  const noLimit: Contract = { ...contract };
  delete noLimit.listLimit;
  t.notOk(
    generateCases(noLimit).some((c) => c.id.startsWith('listPets.limit.')),
    'no documented limit, no limit cases',
  );
  const operations = new Map(contract.operations);
  operations.set('listPets', { ...(contract.operations.get('listPets') as OperationInfo), secured: false });
  const open = generateCases({ ...contract, operations });
  t.notOk(
    open.some((c) => c.id.startsWith('auth.listPets.')),
    'an unsecured operation has no auth cases',
  );
  t.ok(
    open.some((c) => c.id.startsWith('auth.createPet.')),
    'the others keep theirs',
  );
  const withoutSunset = new Map(contract.operations);
  const getPet = { ...(contract.operations.get('getPet') as OperationInfo) };
  delete getPet.sunset;
  withoutSunset.set('getPet', getPet);
  t.ok(
    generateCases({ ...contract, operations: withoutSunset }).every((c) => c.clock === undefined),
    'no sunset, no clock',
  );
});
