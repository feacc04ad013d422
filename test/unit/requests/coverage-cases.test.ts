/** The coverage phase is derived from the schemas: what it sends for each field, and that a schema change changes it. */
import t from 'tap';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { coverageCases } from '../../../src/requests/coverage-cases.js';
import { loadContract } from '../../../src/loader/contract.js';
import { root, tempDir } from '../../helpers.js';

const contract = await loadContract(path.join(root, 'schemas'));
const cases = coverageCases(contract);
const byId = new Map(cases.map((c) => [c.id, c]));

t.test('every NewPet field is swapped to every other JSON type, each refused with 400 and an Error', async (t) => {
  const swaps = cases
    .filter((c) => /^coverage\.createPet\.(name|categoryId|status)\.(number|numeric-string|boolean|array|object)$/.test(c.id))
    .map((c) => c.id.replace('coverage.createPet.', ''));
  t.same(swaps.sort(), [
    'categoryId.array',
    'categoryId.boolean',
    'categoryId.numeric-string',
    'categoryId.object',
    'name.array',
    'name.boolean',
    'name.number',
    'name.object',
    'status.array',
    'status.boolean',
    'status.number',
    'status.object',
  ]);
  t.same(
    byId.get('coverage.createPet.categoryId.numeric-string')?.steps[0]?.request.json,
    { name: '{runId} coverage', categoryId: '7', status: 'available' },
    'a numeric string, the swap a coercing framework lets through',
  );
  t.ok(
    swaps.every(
      (id) => JSON.stringify(byId.get(`coverage.createPet.${id}`)?.steps[0]?.expect) === JSON.stringify({ status: 400, schema: 'Error' }),
    ),
  );
});

t.test(
  'names of every script must round-trip through the create, a read-back and a listing; lengths may be refused with a warning',
  async (t) => {
    const emoji = byId.get('coverage.createPet.name.emoji');
    t.same(
      emoji?.steps.map((s) => `${s.request.method} ${s.request.path}`),
      ['POST /pets', 'GET /pets/{petId}', 'GET /pets'],
      'create, read back, list',
    );
    t.same(emoji?.steps[0]?.expect, { status: 201, body: { name: '{runId} 🐶🦊 🐈‍⬛' } });
    t.equal(emoji?.clock?.before, '2030-12-05', 'it reads back through getPet, so only before its removal');
    const long = byId.get('coverage.createPet.name.length-256');
    t.equal(
      (long?.steps[0]?.request.json as { name: string }).name.replace('{runId}', 'pc-20261122T191118-8de6').length,
      256,
      'exactly 256 characters once the run id is filled',
    );
    t.same(long?.steps[0]?.expect?.undocumented, { refusals: [] }, 'a length refused with any 4xx warns');
  },
);

t.test('categoryId at the int64 boundaries: exact bigints, taken and echoed or refused as an unknown category', async (t) => {
  const max = byId.get('coverage.createPet.categoryId.int64-max')?.steps[0];
  t.equal((max?.request.json as { categoryId: unknown }).categoryId, 2n ** 63n - 1n);
  t.same(max?.expect?.status, [201, 400]);
  t.equal(
    (byId.get('coverage.createPet.categoryId.below-int64')?.steps[0]?.request.json as { categoryId: unknown }).categoryId,
    -(2n ** 63n) - 1n,
  );
});

t.test('enum near misses come from the PetStatus enum', async (t) => {
  const statuses = cases
    .filter((c) => c.id.startsWith('coverage.createPet.status.') && !/\.(number|boolean|array|object)$/.test(c.id))
    .map((c) => (c.steps[0]?.request.json as { status: string }).status);
  t.same(statuses, ['Sold', 'AVAILABLE', ' sold', 'sold ', 'sol']);
});

t.test('a change of the schemas changes the phase: a new NewPet field and a new status value', async (t) => {
  const dir = await tempDir();
  await cp(path.join(root, 'schemas'), dir, { recursive: true });
  const newPet = JSON.parse(await readFile(path.join(dir, 'new-pet.schema.json'), 'utf8')) as { properties: Record<string, unknown> };
  newPet.properties['nickname'] = { type: 'string' };
  await writeFile(path.join(dir, 'new-pet.schema.json'), JSON.stringify(newPet));
  const status = JSON.parse(await readFile(path.join(dir, 'pet-status.schema.json'), 'utf8')) as { enum: string[] };
  status.enum.push('adopted');
  await writeFile(path.join(dir, 'pet-status.schema.json'), JSON.stringify(status));
  const changed = coverageCases(await loadContract(dir)).map((c) => c.id);
  t.ok(changed.includes('coverage.createPet.nickname.object'), 'the new field is swapped too');
  t.ok(changed.includes('coverage.listPets.status-limit.adopted-min'), 'the new status is listed');
  t.ok(changed.length > cases.length);
});
