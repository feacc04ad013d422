/** The contract model: the operations, the page size and the status values are read from one place, the schemas. */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadContract } from '../../../src/loader/contract.js';
import { listLimitOf, STATED_LIST_LIMIT, statusValues } from '../../../src/model/contract.js';
import { OPERATION_NAMES } from '../../../src/model/contract-names.js';
import { root } from '../../helpers.js';

t.test('one list of operations: the OpenAPI document and the scenario schema name the same ones', async (t) => {
  const contract = await loadContract(path.join(root, 'schemas'));
  t.same([...contract.operations.keys()].sort(), [...OPERATION_NAMES].sort(), "the document's operationIds");
  const scenario = JSON.parse(await readFile(path.join(root, 'schemas/scenario.schema.json'), 'utf8')) as {
    $defs: { operation: { enum: string[] } };
  };
  t.same(scenario.$defs.operation.enum, [...OPERATION_NAMES], "the scenario schema's enum");
});

t.test('the page size and the status values', async (t) => {
  const contract = await loadContract(path.join(root, 'schemas'));
  t.same(listLimitOf(contract), { min: 1, max: 100, default: 20 }, "the document's limit parameter");
  t.same(listLimitOf({ listLimit: { min: 5, max: 50, default: 10 } }), { min: 5, max: 50, default: 10 });
  t.equal(listLimitOf({}), STATED_LIST_LIMIT, 'the contract as stated where the document is silent');
  t.same(statusValues(contract), ['available', 'pending', 'sold']);
  t.same(statusValues({ schemaOf: () => ({ enum: ['a', 1, 'b'] }) }), ['a', 'b'], 'only the strings of the enum');
  t.same(statusValues({ schemaOf: () => ({}) }), [], 'no enum, no values');
});
