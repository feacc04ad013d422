import t from 'tap';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dateFlag, intFlag, parseLoadFlags, parseRunFlags, shareFlag, splitCommand } from '../dist/cli/args.js';
import { authorizationHeader, describeAuthorization, makeRedactor } from '../dist/http/credentials.js';
import { checkDisabledIds, loadConfig, productionMark } from '../dist/loader/config.js';
import { loadContract } from '../dist/loader/contract.js';
import { generateCases } from '../dist/loader/generated-cases.js';
import { RunError } from '../dist/model/errors.js';
import { fillTemplate, fillText } from '../dist/model/template.js';
import type { AuthVariant } from '../dist/model/scenario.js';
import { contract } from './check-fixtures.js';
import { root, tempDir } from './helpers.js';

t.test('generated cases follow the contract: the auth matrix, the limit bounds, the status values', async (t) => {
  const cases = generateCases(contract);
  const ids = new Set(cases.map((c) => c.id));
  for (const op of ['listPets', 'createPet', 'getPet']) {
    for (const slug of ['missing', 'basic-scheme', 'empty-bearer', 'wrong-token', 'appended-char', 'removed-char', 'lowercase-scheme']) t.ok(ids.has(`auth.${op}.${slug}`), `auth.${op}.${slug}`);
  }
  t.ok(ids.has('auth.createPet.before-validation'));
  const limit = (id: string): unknown => cases.find((c) => c.id === id)?.steps[0]?.request.query?.['limit'];
  t.same([limit('listPets.limit.min'), limit('listPets.limit.max'), limit('listPets.limit.below-min'), limit('listPets.limit.above-max'), limit('listPets.limit.default-explicit')], [1, 100, 0, 101, 20], 'bounds read from the contract');
  t.same(cases.find((c) => c.id === 'listPets.limit.default')?.steps[0]?.expect, { status: 200, maxItems: 20 });
  for (const status of ['available', 'pending', 'sold']) t.ok(ids.has(`listPets.filter.${status}`) && ids.has(`listPets.filter.${status}.created`) && ids.has(`createPet.status.${status}`), `the ${status} cases`);
  t.ok(cases.every((c) => c.source?.file === 'schemas/openapi.yaml' && c.source.line > 1), 'each traced to its operation in openapi.yaml');
  t.ok(cases.filter((c) => c.operation === 'getPet').every((c) => c.clock?.before === '2030-12-05'), 'getPet cases apply only before its removal');
  t.same(cases.filter((c) => c.writes).map((c) => c.steps[0]?.request.method).filter((m) => m !== 'POST'), [], 'only POST cases write');
});

t.test('templates: a whole placeholder keeps its type, text interpolates, unknown names stay', async (t) => {
  const vars = new Map<string, never>([['id', 9007199254740993n as never], ['n', 7 as never], ['name', 'a b/c' as never]]);
  t.same(fillTemplate({ id: '{id}', count: '{n}', label: 'pet {name} #{n}', keep: '{nope}' }, vars), { id: 9007199254740993n, count: 7, label: 'pet a b/c #7', keep: '{nope}' });
  t.equal(fillText('/pets/{name}', vars, encodeURIComponent), '/pets/a%20b%2Fc');
  t.equal(fillText('/pets/{id}', vars), '/pets/9007199254740993');
});

t.test('flags: bounds, dates, shares, commands; the key is never taken on the command line', async (t) => {
  t.equal(intFlag('concurrency', undefined, 4, 1, 64), 4);
  t.equal(intFlag('concurrency', '8', 4, 1, 64), 8);
  for (const bad of ['0', '65', '1.5', 'x', '-1']) t.throws(() => intFlag('concurrency', bad, 4, 1, 64), { code: 'ERR_USAGE', message: /--concurrency must be a whole number from 1 to 64/ }, bad);
  t.equal(dateFlag('2030-12-06').toISOString(), '2030-12-06T12:00:00.000Z');
  t.throws(() => dateFlag('soon'), { code: 'ERR_USAGE' });
  t.equal(shareFlag('baseline-tolerance', '0.2', 0.1), 0.2);
  t.throws(() => shareFlag('baseline-tolerance', 'lots', 0.1), { message: /must be a share such as 0\.1/ });
  t.same(splitCommand([]), { command: 'run', args: [] });
  t.same(splitCommand(['--suite', 'auth']), { command: 'run', args: ['--suite', 'auth'] });
  t.same(splitCommand(['load', 'smoke']), { command: 'load', args: ['smoke'] });
  t.throws(() => splitCommand(['launch']), { message: /unknown command 'launch'/ });
  const secret = 'sk-live-do-not-echo';
  let message = '';
  try {
    parseRunFlags([`--api-key=${secret}`]);
  } catch (error) {
    message = (error as RunError).message;
  }
  t.match(message, /--api-key is not accepted/);
  t.notMatch(message, secret, 'the refused key is not echoed');
  t.throws(() => parseRunFlags(['--bogus']), { message: /unknown option '--bogus' for 'run'/ });
  t.same(parseLoadFlags(['smoke', '-q'], 'load').positionals, ['smoke']);
});

t.test('the configuration file: located problems, paths relative to it, disable entries checked by id', async (t) => {
  const dir = await tempDir();
  const validate = (await loadContract(path.join(root, 'schemas'))).fileValidator('config.schema.json');
  const file = path.join(dir, 'team.yaml');
  await writeFile(file, 'baseUrl: https://staging.example.com/v1\napiKeyFile: ./key\ncategoryId: 9223372036854775807\ndisable:\n  - { id: auth.www-authenticate, reason: "gateway strips it" }\n  - { id: no.such.check, reason: typo }\n');
  const config = await loadConfig(file, validate, dir);
  t.equal(config.apiKeyFile, path.join(dir, 'key'), 'relative to the file');
  t.equal(config.categoryId, '9223372036854775807', 'int64 kept exactly');
  t.same(config.disable.map((d) => d.id), ['auth.www-authenticate', 'no.such.check']);
  t.throws(() => checkDisabledIds(config, new Set(['auth.www-authenticate'])), { code: 'ERR_CONFIG', message: /team\.yaml:6:11: disable: no check or case has the id 'no\.such\.check'/ });
  await writeFile(file, 'baseUrl: https://x/v1\nsuites: [auth]\nstrict: maybe\ndisable: [{ id: x }]\n');
  const error = await loadConfig(file, validate, dir).then(() => undefined, (e: unknown) => e as RunError);
  t.ok(error instanceof RunError);
  t.match(error?.details.join('\n'), /team\.yaml:3:9: .*must be boolean[\s\S]*team\.yaml:4:\d+: .*reason/, 'every problem, each located');
});

t.test('production is matched by origin and path prefix', async (t) => {
  const production = ['https://api.example.com/v1'];
  t.equal(productionMark('https://api.example.com/v1', production), production[0]);
  t.equal(productionMark('https://api.example.com/v1/', production), production[0]);
  t.equal(productionMark('https://api.example.com/v10', production), undefined);
  t.equal(productionMark('http://api.example.com/v1', production), undefined, 'another scheme is another origin');
  t.equal(productionMark('https://staging.example.com/v1', production), undefined);
});

t.test('credentials: each variant derived from the key, described without it, and redacted in every form', async (t) => {
  const key = 'sk+live/Abc123';
  const variants: Array<[AuthVariant, string | undefined]> = [
    ['valid', `Bearer ${key}`],
    ['none', undefined],
    ['empty-bearer', 'Bearer '],
    ['basic-scheme', `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
    ['appended-char', `Bearer ${key}x`],
    ['removed-char', `Bearer ${key.slice(0, -1)}`],
    ['lowercase-scheme', `bearer ${key}`],
  ];
  for (const [variant, header] of variants) {
    t.equal(authorizationHeader(variant, key), header, variant);
    t.notMatch(describeAuthorization(variant) ?? '', key.slice(0, 6), `${variant} is described without the key`);
  }
  t.match(authorizationHeader('wrong-token', key), /^Bearer wrong-[0-9a-f]{24}$/);
  const redact = makeRedactor(key);
  const leaked = `${key} ${Buffer.from(key).toString('base64')} ${encodeURIComponent(key)} ${Buffer.from(`${key}:`).toString('base64')}`;
  t.notMatch(redact(leaked), /sk\+live|c2sr|sk%2Blive/, 'the key, its base64 and its URL encoding are gone');
  t.equal(makeRedactor('ab')('cab ab'), 'c[REDACTED] [REDACTED]', 'a short key is still redacted');
});
