/**
 * The one builder of the contract's requests by operation role: paths and operation names from the contract (its stated
 * paths where the document has none), on the wire and as a case's step templates. No network.
 */
import t from 'tap';
import type { OutgoingRequest } from '../../../src/http/sender.js';
import type { Contract, OperationInfo } from '../../../src/model/contract.js';
import type { RequestSpec } from '../../../src/model/scenario.js';
import { type ContractRequests, type ContractTemplates, contractRequests, listingAt } from '../../../src/requests/contract-requests.js';

const operation = (name: 'listPets' | 'createPet' | 'getPet', method: string, path: string): readonly [string, OperationInfo] =>
  [
    name,
    {
      name,
      method,
      path,
      deprecated: false,
      responses: new Map(),
      queryParameters: new Map(),
      secured: true,
      source: { file: 'x', line: 1, column: 1 },
    },
  ] as const;
const documented = {
  operations: new Map([operation('listPets', 'GET', '/animals'), operation('getPet', 'GET', '/animals/{id}')]),
} as Pick<Contract, 'operations'>;

t.test('the request builder takes paths and operation names from the contract, its stated paths where the document has none', async (t) => {
  const rows: Array<[string, Pick<Contract, 'operations'>, (builder: ContractRequests) => OutgoingRequest, Partial<OutgoingRequest>]> = [
    [
      'a listing with a query',
      documented,
      (b) => b.listing([['status', 'sold']]),
      { method: 'GET', path: '/animals', query: [['status', 'sold']], operation: 'listPets' },
    ],
    [
      'a get, its id encoded into the path',
      documented,
      (b) => b.get('4 2'),
      { method: 'GET', path: '/animals/4%202', operation: 'getPet' },
    ],
    [
      'a create on the stated path',
      documented,
      (b) => b.create({ name: 'x' }),
      { method: 'POST', path: '/pets', json: { name: 'x' }, operation: 'createPet' },
    ],
    ['no document: the stated listing', { operations: new Map() }, (b) => b.listing(), { path: '/pets', query: [], auth: 'valid' }],
    [
      'a label and a credential',
      { operations: new Map() },
      (b) => b.listing([], { auth: 'none', label: 'the store fill' }),
      { auth: 'none', label: 'the store fill' },
    ],
  ];
  for (const [name, contract, build, expected] of rows) t.match(build(contractRequests(contract)), expected, name);
});

t.test('a listing at a path already read from the contract is the listing the builder makes', async (t) => {
  const built = contractRequests(documented).listing([['limit', '5']]);
  t.strictSame(listingAt('/animals', [['limit', '5']]), built, 'the same request, field by field');
  t.strictSame(listingAt('/pets'), contractRequests({ operations: new Map() }).listing(), 'no query: the same as the stated listing');
});

t.test("the step templates: each role's method and path, the segment placed as given, the extras carried", async (t) => {
  const rows: Array<[string, Pick<Contract, 'operations'>, (templates: ContractTemplates) => RequestSpec, RequestSpec]> = [
    ['a listing without a query has none', documented, (b) => b.listing(), { method: 'GET', path: '/animals' }],
    [
      'a listing with a query, a repeated name as a list',
      documented,
      (b) => b.listing({ status: ['sold', 'pending'], limit: 5 }),
      { method: 'GET', path: '/animals', query: { status: ['sold', 'pending'], limit: 5 } },
    ],
    [
      'a listing with the key left out and no Accept',
      documented,
      (b) => b.listing(undefined, { auth: 'none', omitHeaders: ['Accept'] }),
      { method: 'GET', path: '/animals', auth: 'none', omitHeaders: ['Accept'] },
    ],
    [
      'a get, a placeholder placed as given (filled and encoded when sent)',
      documented,
      (b) => b.get('{petId}'),
      { method: 'GET', path: '/animals/{petId}' },
    ],
    [
      'a get, bytes placed as given',
      documented,
      (b) => b.get('%ff', { auth: 'none' }),
      { method: 'GET', path: '/animals/%ff', auth: 'none' },
    ],
    [
      'a create on the stated path, its body as JSON',
      documented,
      (b) => b.create({ name: '{runId} x' }),
      { method: 'POST', path: '/pets', json: { name: '{runId} x' } },
    ],
    [
      'a create of raw bytes, no JSON',
      documented,
      (b) => b.create(undefined, { headers: { 'Content-Type': 'application/json' }, bytes: ['{', { hex: 'ff' }] }),
      { method: 'POST', path: '/pets', headers: { 'Content-Type': 'application/json' }, bytes: ['{', { hex: 'ff' }] },
    ],
    [
      "any operation: its path's parameters an unknown pet's id",
      documented,
      (b) => b.ofOperation(documented.operations.get('getPet') as OperationInfo, 'x', { auth: 'wrong-token' }),
      { method: 'GET', path: '/animals/{unknownPetId}', auth: 'wrong-token' },
    ],
    [
      'any operation: a POST carries a minimal pet',
      documented,
      (b) => b.ofOperation(operation('createPet', 'POST', '/animals')[1], 'probe', { auth: 'none' }),
      { method: 'POST', path: '/animals', auth: 'none', json: { name: '{runId} probe', categoryId: '{categoryId}' } },
    ],
  ];
  for (const [name, contract, build, expected] of rows) t.strictSame(build(contractRequests(contract).templates), expected, name);
});
