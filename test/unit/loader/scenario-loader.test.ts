import t from 'tap';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadContract } from '../../../src/loader/contract.js';
import { loadCases } from '../../../src/loader/cases.js';
import { RunError } from '../../../src/model/errors.js';
import { root, tempDir } from '../../helpers.js';

const schemasDir = path.join(root, 'schemas');
const suites = new Set(['contract', 'auth']);
const validate = (await loadContract(schemasDir)).fileValidator('scenario.schema.json');

async function folderWith(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

async function problemsOf(dir: string): Promise<string[]> {
  try {
    await loadCases([dir], validate, { suites, displayRoot: dir, reservedIds: new Set(['expect.status']) });
  } catch (error) {
    if (error instanceof RunError) return error.details.length > 0 ? [...error.details] : [error.message];
    throw error;
  }
  return [];
}

const valid = `operation: listPets
suite: contract
cases:
  - id: listPets.example
    title: example
    clause: a clause
    request: { method: GET, path: /pets, query: { limit: 5 } }
    expect: { status: 200, maxItems: 5 }
`;

t.test('the shipped scenarios load', async (t) => {
  const checks = await loadCases([path.join(root, 'scenarios')], validate, {
    suites: new Set(['contract', 'auth', 'limits', 'filters', 'lifecycle', 'errors', 'deprecation', 'versioning']),
    displayRoot: root,
    reservedIds: new Set(),
  });
  t.ok(checks.length > 0);
  for (const op of ['listPets', 'createPet', 'getPet'])
    t.ok(
      checks.some((c) => c.operation === op),
      `${op} is covered`,
    );
  t.ok(
    checks.every((c) => /^scenarios\//.test(c.source?.file ?? '') && (c.source?.line ?? 0) > 0),
    'every case knows its file and line',
  );
});

t.test('a valid file loads into checks with defaults from the file', async (t) => {
  const dir = await folderWith({ 'a.yaml': valid });
  const [check] = await loadCases([dir], validate, { suites, displayRoot: dir, reservedIds: new Set(['expect.status']) });
  t.equal(check?.operation, 'listPets');
  t.equal(check?.suite, 'contract');
  t.equal(check?.writes, false);
  t.same(check?.source, { file: 'a.yaml', line: 4, column: 5 });
  t.same(
    check?.steps[0]?.sources?.['expect.status'],
    { file: 'a.yaml', line: 8, column: 15 },
    'each expectation knows its own line, so a failure points at it',
  );
});

t.test('every problem of every file is reported at once with file:line:col', async (t) => {
  const dir = await folderWith({
    'a-bad-key.yaml': valid.replace('expect:', 'expekt:'),
    'b-syntax.yaml': 'checks:\n  - id: [unclosed\n',
    'c-bad-status.yaml': valid.replace('status: 200', 'status: 1000'),
    'd-unknown-var.yaml': valid.replace('path: /pets', 'path: "/pets/{nope}"'),
    'e-unknown-suite.yaml': valid.replace('suite: contract', 'suite: nonsense').replace('listPets.example', 'listPets.other'),
    'f-method.yaml': valid.replace('method: GET', 'method: FETCH').replace('listPets.example', 'listPets.third'),
  });
  const problems = await problemsOf(dir);
  t.equal(problems.length, 6, problems.join('\n'));
  t.match(problems[0], /^a-bad-key\.yaml:8:5: unknown key 'expekt'/);
  t.match(problems[1], /^b-syntax\.yaml:\d+:\d+: /);
  t.match(problems[2], /^c-bad-status\.yaml:8:23: .*must be <= 599/);
  t.match(problems[3], /^d-unknown-var\.yaml:7:\d+: unknown variable \{nope\}/);
  t.match(problems[4], /^e-unknown-suite\.yaml:\d+:\d+: unknown suite 'nonsense'/);
  t.match(problems[5], /^f-method\.yaml:7:\d+: .*must be equal to one of the allowed values/);
});

t.test('duplicate case ids are refused, naming the first; so is the id of a registered check', async (t) => {
  const dir = await folderWith({ 'a.yaml': valid, 'b.yaml': valid });
  const problems = await problemsOf(dir);
  t.equal(problems.length, 1);
  t.match(problems[0], /^b\.yaml:4:5: duplicate case id 'listPets\.example' \(first declared at a\.yaml:4\)/);
  const taken = await problemsOf(await folderWith({ 'a.yaml': valid.replace('listPets.example', 'expect.status') }));
  t.equal(taken.length, 1);
  t.match(taken[0], /^a\.yaml:4:9: 'expect\.status' is already the id of a registered check/);
});

t.test('an Authorization header in a scenario is refused: credentials come from auth variants', async (t) => {
  const dir = await folderWith({ 'a.yaml': valid.replace('query: { limit: 5 }', 'headers: { Authorization: "Bearer x" }') });
  const problems = await problemsOf(dir);
  t.equal(problems.length, 1);
  t.match(problems[0], /^a\.yaml:7:/);
});

t.test('variables captured in an earlier step may be used later, not before', async (t) => {
  const steps = `operation: getPet
suite: contract
cases:
  - id: getPet.example
    title: example
    clause: c
    steps:
      - request: { method: GET, path: "/pets/{petId}" }
      - request: { method: POST, path: /pets, json: { name: "{runId}", categoryId: "{categoryId}" } }
        capture: { petId: /id }
      - request: { method: GET, path: "/pets/{petId}" }
`;
  const problems = await problemsOf(await folderWith({ 'a.yaml': steps }));
  t.equal(problems.length, 1, problems.join('\n'));
  t.match(problems[0], /^a\.yaml:8:\d+: unknown variable \{petId\}/);
});

t.test('the former key `checks` still loads; a file with neither key says which it needs', async (t) => {
  const dir = await folderWith({ 'a.yaml': valid.replace('cases:', 'checks:') });
  const [loaded] = await loadCases([dir], validate, { suites, displayRoot: dir, reservedIds: new Set() });
  t.equal(loaded?.id, 'listPets.example');
  t.same(loaded?.steps[0]?.sources?.['expect.status'], { file: 'a.yaml', line: 8, column: 15 }, 'located under either key');
  const problems = await problemsOf(await folderWith({ 'b.yaml': 'operation: listPets\nsuite: contract\n' }));
  t.same(problems, ["b.yaml:1:1: (root): must have one of the properties 'cases' or 'checks'"]);
});

t.test('load profiles under scenarios/load are not scenario files', async (t) => {
  const dir = await folderWith({ 'a.yaml': valid, 'load/smoke.yaml': 'not: a scenario\n' });
  t.same(await problemsOf(dir), []);
});
