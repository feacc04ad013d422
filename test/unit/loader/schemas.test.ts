import t from 'tap';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createAjv } from '../../../src/loader/ajv.js';
import { loadContract, loadSchemaDocuments } from '../../../src/loader/contract.js';
import { root } from '../../helpers.js';

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
  t.same(
    [...(getPet?.responses.entries() ?? [])],
    [
      [200, 'Pet'],
      [401, 'Error'],
      [404, 'Error'],
    ],
  );
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

const openApiFile = path.join(schemasDir, 'openapi.yaml');

/**
 * A linter's module, loaded by a name the compiler does not follow and typed by what this file uses: Redocly's and
 * Spectral's own declarations (graphql and the TypeScript compiler behind them) were a fifth of what the typecheck parsed.
 */
const linter = (name: string): Promise<unknown> => import(name);

interface Redocly {
  createConfig(options: { extends: string[] }): Promise<unknown>;
  lint(options: {
    ref: string;
    config: unknown;
  }): Promise<Array<{ severity: string; ruleId: string; message: string; location: Array<{ pointer?: string }> }>>;
}

interface SpectralCore {
  Spectral: new () => {
    setRuleset(ruleset: unknown): void;
    run(document: unknown): Promise<Array<{ severity: number; code: string | number; message: string; path: Array<string | number> }>>;
  };
  Document: new (text: string, parser: unknown, source: string) => unknown;
}

/** Redocly's `recommended` rules over a document: each problem as `severity rule: message at pointer`. */
async function redoclyProblems(file: string): Promise<string[]> {
  const { createConfig, lint } = (await linter('@redocly/openapi-core')) as Redocly;
  const problems = await lint({ ref: file, config: await createConfig({ extends: ['recommended'] }) });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
}

/** Spectral's `spectral:oas` rules (the recommended ones) over a document, its file references resolved. */
async function spectralProblems(file: string): Promise<string[]> {
  const { Spectral, Document } = (await linter('@stoplight/spectral-core')) as SpectralCore;
  const { default: parsers } = (await linter('@stoplight/spectral-parsers')) as { default: { Yaml: unknown } };
  const { oas } = (await linter('@stoplight/spectral-rulesets')) as { oas: unknown };
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas, 'recommended']] });
  const results = await spectral.run(new Document(await readFile(file, 'utf8'), parsers.Yaml, file));
  return results.map((r) => `${r.severity} ${String(r.code)}: ${r.message} at ${r.path.join('.')}`);
}

t.test("openapi.yaml is clean under Redocly's recommended rules and Spectral's oas rules, and self-contained", async (t) => {
  t.same(await redoclyProblems(openApiFile), [], 'Redocly recommended: no problem');
  t.same(await spectralProblems(openApiFile), [], 'Spectral oas: no problem');
  // The linters can fail: the same document without its license and an operation's description is flagged by both.
  const dir = await mkdtemp(path.join(tmpdir(), 'openapi-'));
  for (const file of await readdir(schemasDir)) await writeFile(path.join(dir, file), await readFile(path.join(schemasDir, file)));
  const text = await readFile(openApiFile, 'utf8');
  const worse = text.replace(/\n {2}license:\n(?: {4}.*\n)+/, '\n').replace(/\n {6}description: [^\n]*\n/, '\n');
  t.not(worse, text, 'the license and a description were taken out');
  await writeFile(path.join(dir, 'openapi.yaml'), worse);
  t.match(await redoclyProblems(path.join(dir, 'openapi.yaml')), [/info-license/], 'Redocly flags the missing license');
  t.match(
    await spectralProblems(path.join(dir, 'openapi.yaml')),
    [/(info-license|operation-description)/],
    'Spectral flags what is missing',
  );
  // Self-contained: every file it names lies in this repository.
  for (const [, file] of text.matchAll(/(?:\$ref: |\()\.?\/?([\w./-]+\.(?:json|md|yaml))/g)) {
    await t.resolves(readFile(path.join(schemasDir, file as string)), `${file} is in schemas/`);
  }
  t.notMatch(text, /shared\/contract/, 'no reference to a file outside the repository');
});
