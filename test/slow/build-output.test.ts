/**
 * What the build writes and a run loads from dist/: the validators compiled from schemas/ and the YAML files parsed ahead of
 * time. Of the slow tier (npm run test:slow builds dist/ first, tap's `--before test/build-dist.ts`): npm test tests the
 * source and builds nothing.
 */
import t from 'tap';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAjv } from '../../src/loader/ajv.js';
import { ajvFailures } from '../../src/loader/ajv-errors.js';
import { loadContract, loadSchemaDocuments, schemaDigest } from '../../src/loader/contract.js';
import { readInputFile } from '../../src/loader/input-file.js';
import { loadProfile } from '../../src/loader/load-profiles.js';
import { PARSED_YAML_FILE, parseYamlText, readYamlSource, yamlDigest, type ParsedYamlEntry } from '../../src/loader/yaml-file.js';
import type { SchemaName } from '../../src/model/contract-names.js';
import { toValidationView, type JsonValue } from '../../src/model/json.js';
import { root, tempDir } from '../helpers.js';

const schemasDir = path.join(root, 'schemas');

t.test(
  'the validators precompiled at build time serve the schemas they came from, judge as ajv does, and give way to ajv when a schema changed',
  async (t) => {
    const documents = await loadSchemaDocuments(schemasDir);
    // What the build wrote (test:slow builds dist/ first), as a run loads it.
    const precompiled = (await import(pathToFileURL(path.join(root, 'dist', 'src', 'loader', 'precompiled-validators.js')).href)) as {
      digest: string;
      exportsById: Record<string, unknown>;
    };
    t.equal(precompiled.digest, schemaDigest(documents), 'the build compiled these very schemas');
    t.same(Object.keys(precompiled.exportsById).sort(), [...documents.keys()].sort(), 'one validator per schema');
    const ajv = createAjv();
    for (const { schema } of documents.values()) ajv.addSchema(schema);
    const contract = await loadContract(schemasDir);
    const values: Array<[SchemaName, unknown]> = [
      ['Pet', { id: 1, name: 'Rex', categoryId: 2, status: 'sold' }],
      ['Pet', { id: 1, name: 'Rex', categoryId: 2n ** 64n }],
      ['Pet', { name: 5, categoryId: '7', status: 'lost', extra: true }],
      ['NewPet', {}],
      ['NewPet', { name: 'x', categoryId: 1.5 }],
      ['Pets', [{ id: 1, name: 'a', categoryId: 1 }, { id: 'x' }]],
      ['Error', { code: 'E', message: 'm', status: '401' }],
      ['PetStatus', 'available'],
    ];
    for (const [name, value] of values) {
      const id = [...documents].find(([, d]) => d.schema['title'] === name)?.[0] ?? '';
      const reference = ajv.getSchema(id);
      const expected = reference?.(toValidationView(value as JsonValue)) === true ? [] : ajvFailures(reference?.errors);
      t.same(
        contract.validate(name, value as JsonValue),
        expected,
        `${name} ${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`,
      );
    }
    // A changed schema (a copy of schemas/ where a name may be at most 3 characters) is compiled by ajv, not served stale.
    const dir = await mkdtemp(path.join(tmpdir(), 'schemas-'));
    for (const file of await readdir(schemasDir)) await writeFile(path.join(dir, file), await readFile(path.join(schemasDir, file)));
    const newPet = JSON.parse(await readFile(path.join(dir, 'new-pet.schema.json'), 'utf8')) as {
      properties: { name: Record<string, unknown> };
    };
    newPet.properties.name['maxLength'] = 3;
    await writeFile(path.join(dir, 'new-pet.schema.json'), JSON.stringify(newPet));
    const changed = await loadContract(dir);
    t.match(
      changed.validate('NewPet', { name: 'Rexford', categoryId: 1 }),
      [{ message: /must NOT have more than 3 characters/ }],
      'the changed rule applies',
    );
  },
);

t.test(
  'the YAML files the build parsed read as a fresh parse reads them: the same value, every value and key at the same place',
  async (t) => {
    const parsed = JSON.parse(await readFile(path.join(root, 'dist', 'src', 'loader', PARSED_YAML_FILE), 'utf8')) as Record<
      string,
      ParsedYamlEntry
    >;
    const files = ['scenarios/create-pet/create.yaml', 'scenarios/load/smoke.yaml', 'suites/auth.yaml', 'schemas/openapi.yaml'].map((f) =>
      path.join(root, f),
    );
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      const entry = parsed[yamlDigest(text)];
      t.ok(entry, `${path.relative(root, file)} was parsed by the build`);
      const fresh = await parseYamlText(file, text);
      const cached = await readYamlSource(file);
      t.same(cached.source?.value, fresh.value, `${path.relative(root, file)}: the same value`);
      const paths = Object.keys(fresh.locations?.values ?? {}).map((key) => (key === '' ? [] : key.split('\u0001')));
      const located = paths.map((p) => cached.source?.locate([...p, 'no-such-key']));
      const expected = paths.map((p) => {
        const [line, column] = fresh.locations?.values[p.join('\u0001')] ?? [1, 1];
        return { line, column };
      });
      t.same(
        located,
        expected,
        `${path.relative(root, file)}: ${paths.length} paths located as a fresh parse locates them (a missing key at its parent)`,
      );
    }
    // A file of another text is parsed, not served from the build: its own places.
    const dir = await tempDir();
    const changed = path.join(dir, 'smoke.yaml');
    await writeFile(
      changed,
      `# a comment moves everything down one line\n${await readFile(path.join(root, 'scenarios/load/smoke.yaml'), 'utf8')}`,
    );
    const moved = await readYamlSource(changed);
    const original = await readYamlSource(path.join(root, 'scenarios/load/smoke.yaml'));
    t.equal(
      moved.source?.locate(['title']).line,
      (original.source?.locate(['title']).line ?? 0) + 1,
      'the changed file is located by its own text',
    );
  },
);

t.test(
  "the build's parsed YAML: a copy with a byte order mark is the same text; a copy with a bad byte is refused, not looked up",
  async (t) => {
    const dir = await tempDir();
    const validate = (await loadContract(path.join(root, 'schemas'))).fileValidator('load-profile.schema.json');
    const original = await readFile(path.join(root, 'scenarios', 'load', 'smoke.yaml'));
    const parsed = JSON.parse(await readFile(path.join(root, 'dist', 'src', 'loader', PARSED_YAML_FILE), 'utf8')) as Record<
      string,
      unknown
    >;
    await mkdir(path.join(dir, 'load'));
    const bom = path.join(dir, 'load', 'smoke.yaml');
    await writeFile(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), original]));
    t.ok(parsed[yamlDigest(await readInputFile(bom))] !== undefined, 'found by its digest, as the build parsed it');
    const shipped = await loadProfile(path.join(root, 'scenarios', 'load', 'smoke.yaml'), validate, path.join(root, 'scenarios'));
    t.same(await loadProfile(bom, validate, dir), shipped, 'the same profile, at the same places');
    // The Latin-1 é of 'café' in the profile's first comment.
    const bad = path.join(dir, 'bad.yaml');
    const at = original.indexOf('A few');
    await writeFile(bad, Buffer.concat([original.subarray(0, at), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20]), original.subarray(at)]));
    const error = await loadProfile(bad, validate, dir).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    t.equal(error?.message, 'bad.yaml:1:6: not valid UTF-8: byte 0xE9 starts no valid sequence (bytes e9 20 41); save the file as UTF-8');
  },
);
