/**
 * The request space by dimension: each dimension's case ids start with its name, are unique among every generated case,
 * are the same on every call (derived from the contract, nothing drawn), and every value sent without a key expects 401
 * and an Error (auth-first).
 */
import t from 'tap';
import path from 'node:path';
import { loadContract } from '../../../src/loader/contract.js';
import { DIMENSIONS, dimensionCases } from '../../../src/requests/dimensions.js';
import { generateCases } from '../../../src/requests/generated-cases.js';
import { root } from '../../helpers.js';

const contract = await loadContract(path.join(root, 'schemas'));

t.test("each dimension's ids start with its name", async (t) => {
  for (const dimension of DIMENSIONS) {
    const ids = dimension.generate(contract).map((c) => c.id);
    t.ok(ids.length > 0, `${dimension.name}: ${ids.length} cases`);
    t.same(
      ids.filter((id) => !id.startsWith(`${dimension.name}.`)),
      [],
      dimension.name,
    );
  }
});

t.test('deterministic: the same cases on every call', async (t) => {
  t.strictSame(dimensionCases(contract), dimensionCases(contract));
});

t.test('no id taken twice among every generated case', async (t) => {
  const ids = generateCases(contract).map((c) => c.id);
  t.same(
    ids.filter((id, index) => ids.indexOf(id) !== index),
    [],
  );
});

t.test('every request without a credential expects 401 and an Error, and so does every key put elsewhere', async (t) => {
  const keyless = dimensionCases(contract).filter((c) => c.steps.some((s) => s.request.auth === 'none'));
  t.ok(keyless.length > 40, `${keyless.length} keyless cases`);
  // A chunked body may get the 411 HTTP names for a body without a Content-Length first (RFC 9112 §6.3).
  const expected = (id: string) => (id === 'syntax.createPet.chunked.no-key' ? [401, 411] : 401);
  for (const spec of keyless) t.same(spec.steps[0]?.expect, { status: expected(spec.id), schema: 'Error' }, spec.id);
  t.ok(keyless.every((c) => c.id.startsWith('channel.') || c.id.endsWith('.no-key')));
});

t.test('the measured misses are each sent (a deterministic case, not a random draw)', async (t) => {
  const ids = new Set(dimensionCases(contract).map((c) => c.id));
  for (const id of [
    'syntax.getPet.path-not-utf8.no-key',
    'syntax.createPet.nan-unknown',
    'syntax.createPet.utf-16le',
    'syntax.createPet.utf-32be-bom',
    'syntax.createPet.comment-block',
    'edge.getPet.id.zero',
    'syntax.createPet.long-integer-category',
    'syntax.createPet.chunked',
    'channel.listPets.query-api_key',
    'channel.getPet.header-x-api-key',
    'channel.createPet.cookie',
    'representation.listPets.no-accept',
    'representation.listPets.any',
    'edge.createPet.name.nul',
    'edge.createPet.status.empty',
    'edge.createPet.name.html',
    'edge.createPet.name.sql',
  ])
    t.ok(ids.has(id), id);
});

t.test('a body in another charset and a chunked one are declared as data', async (t) => {
  const byId = new Map(dimensionCases(contract).map((c) => [c.id, c]));
  t.same(byId.get('syntax.createPet.utf-16be-bom')?.steps[0]?.request.encoding, { charset: 'utf-16be', byteOrderMark: true });
  t.equal(byId.get('syntax.createPet.chunked')?.steps[0]?.request.chunked, true);
  t.same(byId.get('representation.listPets.no-accept')?.steps[0]?.request.omitHeaders, ['Accept']);
});
