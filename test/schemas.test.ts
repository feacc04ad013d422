import t from 'tap';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse as parseYaml } from 'yaml';
import { createAjv } from '../dist/loader/ajv.js';
import { loadContract, loadSchemaDocuments } from '../dist/loader/contract.js';
import { root } from './helpers.js';

const schemasDir = path.join(root, 'schemas');

t.test('every schema in schemas/ compiles under ajv strict mode', async (t) => {
  const documents = await loadSchemaDocuments(schemasDir);
  t.ok(documents.size >= 7, 'resource, scenario and suite schemas are all found');
  const ajv = createAjv();
  for (const { schema } of documents.values()) ajv.addSchema(schema);
  for (const [id, { file }] of documents) {
    t.doesNotThrow(() => ajv.getSchema(id), `${path.basename(file)} compiles`);
    t.ok(ajv.getSchema(id), `${path.basename(file)} resolves by its $id`);
  }
});

t.test('each resource of the contract has a schema with an $id', async (t) => {
  const files = await readdir(schemasDir);
  for (const name of ['pet-status', 'new-pet', 'pet', 'pets', 'error']) {
    const schema = JSON.parse(await readFile(path.join(schemasDir, `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
    t.match(schema['$id'], /^https:\/\/.+\.schema\.json$/, `${name} has an $id`);
  }
  t.ok(files.includes('openapi.yaml'));
});

t.test('the OpenAPI document is valid OpenAPI 3.1 with its references resolved', async (t) => {
  const validator = new Validator();
  for (const name of ['pet-status', 'new-pet', 'pet', 'pets', 'error']) {
    await validator.addSpecRef(await readFile(path.join(schemasDir, `${name}.schema.json`), 'utf8'), `./${name}.schema.json`);
  }
  const result = await validator.validate(path.join(schemasDir, 'openapi.yaml'));
  t.same(result.errors ?? [], [], 'no validation errors');
  t.equal(result.valid, true);
  t.equal(validator.version, '3.1');
});

t.test('the contract loads three operations with their documented responses', async (t) => {
  const contract = await loadContract(schemasDir);
  t.same([...contract.operations.keys()].sort(), ['createPet', 'getPet', 'listPets']);
  const getPet = contract.operations.get('getPet');
  t.equal(getPet?.deprecated, true);
  t.equal(getPet?.sunset, '2030-12-05');
  t.same([...(getPet?.responses.entries() ?? [])], [[200, 'Pet'], [401, 'Error'], [404, 'Error']]);
  t.equal(contract.operations.get('createPet')?.responses.get(201), 'Pet');
  t.equal(contract.operations.get('listPets')?.responses.get(200), 'Pets');
});

t.test('schemas enforce the contract, int64 included', async (t) => {
  const contract = await loadContract(schemasDir);
  t.same(contract.validate('Pet', { id: 2n ** 63n - 1n, name: 'a', categoryId: 1 }), [], 'the largest int64 id is valid');
  t.not(contract.validate('Pet', { id: 2n ** 63n, name: 'a', categoryId: 1 }).length, 0, 'an id beyond int64 is not');
  t.not(contract.validate('Pet', { id: 1, categoryId: 1 }).length, 0, 'name is required');
  t.not(contract.validate('Pet', { id: 1.5, name: 'a', categoryId: 1 }).length, 0, 'id must be an integer');
  t.not(contract.validate('NewPet', { name: 'a', categoryId: 1, status: 'lost' }).length, 0, 'status is an enum');
  t.same(contract.validate('Pets', []), []);
  t.not(contract.validate('Error', { code: 'x', message: 'y' }).length, 0, 'Error needs status');
});

/** An operation of openapi.yaml, as far as the lint rules read it. */
interface LintOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  responses: Record<string, { $ref?: string; description?: string }>;
}

t.test("openapi.yaml keeps the rules Redocly's recommended and Spectral's oas sets share (neither linter runs offline here)", async (t) => {
  const text = await readFile(path.join(schemasDir, 'openapi.yaml'), 'utf8');
  const doc = parseYaml(text) as {
    info: { description?: string; contact?: { name?: string; url?: string; email?: string }; license?: { name?: string; url?: string; identifier?: string } };
    servers: Array<{ url: string }>;
    tags?: Array<{ name: string; description?: string }>;
    paths: Record<string, Record<string, LintOperation>>;
    components: { responses: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  };
  t.ok((doc.info.description ?? '').length > 20, 'info-description');
  t.ok(doc.info.contact?.name !== undefined && (doc.info.contact.url ?? doc.info.contact.email) !== undefined, 'info-contact');
  t.ok(doc.info.license?.name !== undefined && doc.info.license.url !== undefined, 'info-license and license-url');
  t.ok(doc.servers.length > 0 && doc.servers.every((s) => !s.url.endsWith('/')), 'servers, without a trailing slash');
  const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
  for (const [name, description] of declared) t.ok((description ?? '').length > 0, `tag-description: ${name}`);
  const ids: string[] = [];
  for (const [route, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${route}`;
      ids.push(operation.operationId ?? '');
      t.ok(operation.operationId, `operation-operationId: ${where}`);
      t.ok(operation.summary && operation.description, `operation-summary and operation-description: ${where}`);
      t.ok((operation.tags ?? []).length > 0 && (operation.tags ?? []).every((tag) => declared.has(tag)), `operation-tags, operation-tag-defined: ${where}`);
      const codes = Object.keys(operation.responses);
      t.ok(codes.some((c) => c.startsWith('2')), `operation-2xx-response: ${where}`);
      t.ok(codes.some((c) => c.startsWith('4')), `operation-4xx-response: ${where}`);
      for (const [code, response] of Object.entries(operation.responses)) t.ok(response.$ref ?? response.description, `response description: ${where} ${code}`);
    }
  }
  t.equal(new Set(ids).size, ids.length, 'operation-operationId-unique');
  for (const name of Object.keys(doc.components.responses)) t.ok(text.includes(`$ref: "#/components/responses/${name}"`), `no-unused-components: response ${name}`);
  for (const name of Object.keys(doc.components.securitySchemes)) t.ok(text.includes(`- ${name}: []`), `no-unused-components, security-defined: ${name}`);
  // Self-contained: every file it names lies in this repository.
  for (const [, file] of text.matchAll(/(?:\$ref: |\()\.?\/?([\w./-]+\.(?:json|md|yaml))/g)) {
    await t.resolves(readFile(path.join(schemasDir, file as string)), `${file} is in schemas/`);
  }
  t.notMatch(text, /shared\/contract/, 'no reference to a file outside the repository');
});
