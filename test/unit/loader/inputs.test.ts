/**
 * The inputs that decide verdicts before any check runs (the generated cases are test/unit/requests/generated-cases.test.ts):
 * templates, command-line flags, the configuration file and its disable entries, production marks, and how the API key
 * becomes a header and is kept out of every output. No network.
 */
import t from 'tap';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseFlags, parseLoadFlags, splitCommand } from '../../../src/cli/args.js';
import { settle } from '../../../src/cli/settings.js';
import { authorizationHeader, describeAuthorization, keyDerivedSecrets, makeRedactor } from '../../../src/http/credentials.js';
import { productionMark } from '../../../src/loader/config.js';
import { loadContract } from '../../../src/loader/contract.js';
import { RunError } from '../../../src/model/errors.js';
import type { JsonValue } from '../../../src/model/json.js';
import type { AuthVariant } from '../../../src/model/contract-names.js';
import { fillTemplate, fillText } from '../../../src/model/template.js';
import { checkDisabledIds, loadConfig, root, tempDir } from '../../helpers.js';

const contract = await loadContract(path.join(root, 'schemas'));

/** What a call threw, as a RunError (undefined when it did not throw). */
function thrown(call: () => unknown): RunError | undefined {
  try {
    call();
  } catch (error) {
    return error as RunError;
  }
  return undefined;
}

t.test('templates: a whole placeholder keeps its type, text interpolates, unknown names stay', async (t) => {
  const vars = new Map<string, JsonValue>([
    ['id', 9007199254740993n],
    ['n', 7],
    ['name', 'a b/c'],
    ['flag', true],
    ['obj', { k: 1 }],
  ]);
  const rows: Array<[string, JsonValue, JsonValue]> = [
    ['a bigint stays a bigint', '{id}', 9007199254740993n],
    ['a number stays a number', '{n}', 7],
    ['a boolean stays a boolean', '{flag}', true],
    ['an object stays an object', '{obj}', { k: 1 }],
    ['a string stays a string', '{name}', 'a b/c'],
    ['text interpolates, the bigint exactly', 'pet {name} #{n} id {id}', 'pet a b/c #7 id 9007199254740993'],
    ['an unknown whole placeholder stays', '{nope}', '{nope}'],
    ['an unknown placeholder in text stays', 'x {nope} {n}', 'x {nope} 7'],
    ['a name must start with a letter', '{1n}', '{1n}'],
    ['spaces are not a placeholder', '{ n }', '{ n }'],
    ['non-strings pass through', 42, 42],
    [
      'arrays and objects are filled deeply',
      { list: ['{n}', { id: '{id}' }], keep: null },
      { list: [7, { id: 9007199254740993n }], keep: null },
    ],
  ];
  for (const [name, template, expected] of rows) t.strictSame(fillTemplate(template, vars), expected, name);
  t.equal(typeof fillTemplate('{id}', vars), 'bigint', 'not rounded through a number');
  const text: Array<[string, string, ((s: string) => string) | undefined, string]> = [
    ['a path value is URL-encoded', '/pets/{name}', encodeURIComponent, '/pets/a%20b%2Fc'],
    ['only inserted values are encoded', '/a b/{name}', encodeURIComponent, '/a b/a%20b%2Fc'],
    ['a whole placeholder is encoded too', '{name}', encodeURIComponent, 'a%20b%2Fc'],
    ['an int64 id as digits', '/pets/{id}', undefined, '/pets/9007199254740993'],
    ['a number as digits', 'limit={n}', undefined, 'limit=7'],
    ['an unknown name stays, unencoded', '/pets/{nope}', encodeURIComponent, '/pets/{nope}'],
    ['no encoder, no encoding', '/pets/{name}', undefined, '/pets/a b/c'],
  ];
  for (const [name, template, encode, expected] of text) t.equal(fillText(template, vars, encode), expected, name);
});

t.test('flags: bounds, dates, shares, commands; the key is never taken on the command line', async (t) => {
  const ints: Array<[string | undefined, number | undefined]> = [
    [undefined, 4],
    ['1', 1],
    ['64', 64],
    ['8', 8],
    ['08', 8],
    ['0', undefined],
    ['65', undefined],
    ['1.5', undefined],
    ['x', undefined],
    ['-1', undefined],
    ['', undefined],
    ['1e1', undefined],
    [' 8', undefined],
  ];
  // --concurrency=TEXT: any text reaches the option, a leading '-' too; none given, the table's default.
  const concurrency = (value: string | undefined): number =>
    settle('run', value === undefined ? {} : parseFlags('run', [`--concurrency=${value}`]), {}).values.concurrency;
  for (const [value, expected] of ints) {
    if (expected !== undefined) t.equal(concurrency(value), expected, `--concurrency ${JSON.stringify(value)}`);
    else
      t.throws(
        () => concurrency(value),
        { code: 'ERR_USAGE', message: `--concurrency must be a whole number from 1 to 64, got '${value as string}'` },
        `--concurrency ${JSON.stringify(value)} refused`,
      );
  }

  const now = (value: string): Date | undefined => parseFlags('run', [`--now=${value}`]).now;
  t.equal(settle('run', {}, {}).values.now, undefined, 'no --now: no date, so the plan takes the current time');
  t.equal(now('2030-12-06')?.toISOString(), '2030-12-06T12:00:00.000Z', 'a day means its noon, UTC: the same day in every time zone');
  t.equal(now('2030-12-06T23:30:00+02:00')?.toISOString(), '2030-12-06T21:30:00.000Z', 'a timestamp is taken as is');
  for (const bad of ['soon', '2030-13-01', ''])
    t.throws(
      () => now(bad),
      { code: 'ERR_USAGE', message: `--now must be a date such as 2030-12-05 (or an ISO timestamp), got '${bad}'` },
      `--now ${JSON.stringify(bad)} refused`,
    );
  t.equal(thrown(() => now('2030-02-31'))?.code, 'ERR_USAGE', 'a day that does not exist is refused');
  t.equal(thrown(() => now('1'))?.code, 'ERR_USAGE', 'a bare number is not a date');

  const shares: Array<[string, number | undefined]> = [
    ['0.2', 0.2],
    ['0', 0],
    ['10', 10],
    ['lots', undefined],
    ['-0.1', undefined],
    ['.5', undefined],
    ['10.5', undefined],
    ['20%', undefined],
  ];
  const tolerance = (value: string): number | undefined => parseFlags('load', [`--baseline-tolerance=${value}`])['baseline-tolerance'];
  t.equal(settle('load', {}, {}).values['baseline-tolerance'], undefined, "none given: the profile's tolerance applies");
  for (const [value, expected] of shares) {
    if (expected !== undefined) t.equal(tolerance(value), expected, `--baseline-tolerance ${JSON.stringify(value)}`);
    else
      t.throws(
        () => tolerance(value),
        { code: 'ERR_USAGE', message: /^--baseline-tolerance must be a share such as 0\.1/ },
        `--baseline-tolerance ${JSON.stringify(value)} refused`,
      );
  }

  const commands: Array<[string[], { command: string; args: string[] }]> = [
    [[], { command: 'run', args: [] }],
    [['--suite', 'auth'], { command: 'run', args: ['--suite', 'auth'] }],
    [['-q'], { command: 'run', args: ['-q'] }],
    [['run', '-q'], { command: 'run', args: ['-q'] }],
    [['load', 'smoke'], { command: 'load', args: ['smoke'] }],
    [['merge', 'a.json', 'b.json'], { command: 'merge', args: ['a.json', 'b.json'] }],
    [['serve'], { command: 'serve', args: [] }],
    [['catalogue'], { command: 'catalogue', args: [] }],
    [['list', '--json'], { command: 'list', args: ['--json'] }],
    [['explain', 'errors.error-body'], { command: 'explain', args: ['errors.error-body'] }],
    [['--help'], { command: 'help', args: [] }],
    [['-h'], { command: 'help', args: [] }],
    [['--version'], { command: 'version', args: [] }],
    [['-V'], { command: 'version', args: [] }],
  ];
  for (const [argv, expected] of commands) t.strictSame(splitCommand(argv), expected, `argv ${JSON.stringify(argv)}`);
  for (const [unknown, meant] of [
    ['launch', ''],
    ['Run', ' (did you mean run?)'],
    ['runs', ' (did you mean run?)'],
    ['lod', ' (did you mean load?)'],
  ] as const)
    t.throws(
      () => splitCommand([unknown]),
      {
        code: 'ERR_USAGE',
        message: `unknown command '${unknown}'${meant}; the commands are: run, serve, catalogue, list, explain, help, version, load, merge`,
      },
      unknown,
    );

  const secret = 'sk-live-do-not-echo';
  const keyOnCommandLine: string[][] = [
    [`--api-key=${secret}`],
    ['--api-key', secret],
    ['--suite', 'auth', `--api-key=${secret}`],
    ['--api-key'],
  ];
  for (const argv of keyOnCommandLine) {
    const error = thrown(() => parseFlags('run', argv));
    t.match(
      error,
      { code: 'ERR_USAGE', message: /^--api-key is not accepted .*PETSTORE_API_KEY.*--api-key-file/ },
      `${argv.length} arguments refused`,
    );
    t.notOk(`${error?.message ?? ''}${error?.details.join('') ?? ''}`.includes(secret), 'the refused key is not echoed');
  }
  const loadError = thrown(() => parseLoadFlags(['smoke', `--api-key=${secret}`], 'load'));
  t.match(loadError?.message, /^--api-key is not accepted/, 'load refuses it too');
  t.notOk(loadError?.message.includes(secret));
  const misspelt = thrown(() => parseFlags('run', [`--apikey=${secret}`]));
  t.equal(misspelt?.message, "unknown option '--apikey' for 'run' (see --help)", 'a misspelt option is named without its value');
  t.equal(parseFlags('run', ['--api-key-file', 'key.txt'])['api-key-file'], 'key.txt', '--api-key-file is not mistaken for --api-key');
  t.throws(() => parseFlags('run', ['--bogus']), { message: /unknown option '--bogus' for 'run'/ });
  t.throws(() => parseFlags('run', ['--base-url']), { message: '--base-url needs a value (see --help)' });
  t.same(parseLoadFlags(['smoke', '-q'], 'load').positionals, ['smoke']);
});

t.test('the configuration file: located problems, paths relative to it, disable entries checked by id', async (t) => {
  const dir = await tempDir();
  const validate = contract.fileValidator('config.schema.json');
  const file = path.join(dir, 'team.yaml');
  await writeFile(
    file,
    'baseUrl: https://staging.example.com/v1\napiKeyFile: ./key\ncaFile: certs/ca.pem\nreportDir: /var/reports\ncategoryId: 9223372036854775807\nconcurrency: 8\nproduction: ["https://api.example.com/v1"]\ndisable:\n  - { id: auth.www-authenticate, reason: "gateway strips it" }\n  - { id: no.such.check, reason: typo }\n',
  );
  const config = await loadConfig(file, validate, dir);
  t.equal(config.file, 'team.yaml', 'shown relative to the display root');
  t.equal(config.values['baseUrl'], 'https://staging.example.com/v1');
  // The option table reads the file's values: paths relative to the file, int64 exact.
  const { values } = settle('run', {}, {}, config);
  t.equal(values['base-url'], 'https://staging.example.com/v1');
  t.equal(values['api-key-file'], path.join(dir, 'key'), 'relative to the file');
  t.equal(values['ca-file'], path.join(dir, 'certs/ca.pem'), 'relative to the file');
  t.equal(values['report-dir'], '/var/reports', 'an absolute path stays');
  t.equal(values['category-id'], 9223372036854775807n, 'int64 kept exactly');
  t.equal(values.concurrency, 8);
  t.same(config.production, ['https://api.example.com/v1']);
  t.strictSame(config.disable, [
    { id: 'auth.www-authenticate', reason: 'gateway strips it', source: { file: 'team.yaml', line: 9, column: 11 } },
    { id: 'no.such.check', reason: 'typo', source: { file: 'team.yaml', line: 10, column: 11 } },
  ]);
  t.doesNotThrow(() => checkDisabledIds(config, new Set(['auth.www-authenticate', 'no.such.check'])), 'every id known: accepted');
  t.throws(() => checkDisabledIds(config, new Set(['auth.www-authenticate'])), {
    code: 'ERR_CONFIG',
    message: /^team\.yaml:10:11: disable: no check or case has the id 'no\.such\.check'/,
  });
  const both = thrown(() => checkDisabledIds(config, new Set()));
  t.same(
    both?.details.map((d) => d.split(': ')[0]),
    ['team.yaml:9:11', 'team.yaml:10:11'],
    'every unknown id, each located',
  );

  const minimal = path.join(dir, 'minimal.yaml');
  await writeFile(minimal, 'categoryId: 7\n');
  t.match(
    await loadConfig(minimal, validate, dir),
    { values: { categoryId: 7 }, production: [], disable: [] },
    'defaults of an almost empty file',
  );

  const problems: Array<[string, string, RegExp]> = [
    ['an unknown key', 'baseUrl: https://x/v1\nconcurency: 4\n', /^bad\.yaml:2:1: unknown key 'concurency'/],
    ['an unknown key in a disable entry', 'disable:\n  - id: x\n    reason: r\n    until: 2030\n', /^bad\.yaml:4:5: unknown key 'until'/],
    ['a wrong type', 'strict: maybe\n', /^bad\.yaml:1:9: .*must be boolean/],
    ['a disable entry without a reason', 'disable: [{ id: x }]\n', /^bad\.yaml:1:\d+: .*reason/],
    [
      'a production entry that is not a URL',
      'production: ["https://bad host/v1"]\n',
      /^bad\.yaml:1:14: production entry 'https:\/\/bad host\/v1' is not a URL/,
    ],
    ['a YAML syntax error', 'baseUrl: [unclosed\n', /^bad\.yaml:\d+:\d+: /],
    ['the key itself', 'apiKey: sk-live\n', /^bad\.yaml:1:1: unknown key 'apiKey'/],
  ];
  const bad = path.join(dir, 'bad.yaml');
  for (const [name, text, message] of problems) {
    await writeFile(bad, text);
    const error = await loadConfig(bad, validate, dir).then(
      () => undefined,
      (e: unknown) => e as RunError,
    );
    t.ok(error instanceof RunError && error.code === 'ERR_CONFIG', `${name}: ERR_CONFIG`);
    t.match(error?.message, message, name);
  }
  await writeFile(bad, 'baseUrl: https://x/v1\nsuites: [auth]\nstrict: maybe\ndisable: [{ id: x }]\n');
  const error = await loadConfig(bad, validate, dir).then(
    () => undefined,
    (e: unknown) => e as RunError,
  );
  t.match(
    error?.details.join('\n'),
    /bad\.yaml:3:9: .*must be boolean[\s\S]*bad\.yaml:4:\d+: .*reason/,
    'every problem, each located, in file order',
  );
  const missing = await loadConfig(path.join(dir, 'nope.yaml'), validate, dir).then(
    () => undefined,
    (e: unknown) => e as RunError,
  );
  t.match(missing, { code: 'ERR_CONFIG', message: /^nope\.yaml:1:1: cannot read the file \(ENOENT\)/ });
});

t.test('production is matched by origin and path prefix', async (t) => {
  const production = ['https://api.example.com/v1'];
  const rows: Array<[string, string[], string | undefined]> = [
    ['https://api.example.com/v1', production, 'https://api.example.com/v1'],
    ['https://api.example.com/v1/', production, 'https://api.example.com/v1'],
    ['https://API.example.com:443/v1', production, 'https://api.example.com/v1'],
    ['https://api.example.com/v1/admin', production, 'https://api.example.com/v1'],
    ['https://api.example.com/v10', production, undefined],
    ['https://api.example.com/', production, undefined],
    ['http://api.example.com/v1', production, undefined],
    ['https://api.example.com:8443/v1', production, undefined],
    ['https://staging.example.com/v1', production, undefined],
    ['https://api.example.com.evil.test/v1', production, undefined],
    ['https://api.example.com/v2', ['https://api.example.com'], 'https://api.example.com'],
    ['https://api.example.com/v2', ['https://api.example.com/'], 'https://api.example.com/'],
    ['https://b.example.com/v1', ['https://a.example.com/v1', 'https://b.example.com/v1/'], 'https://b.example.com/v1/'],
    ['https://api.example.com/v1', [], undefined],
  ];
  for (const [baseUrl, marks, expected] of rows)
    t.equal(productionMark(baseUrl, marks), expected, `${baseUrl} under ${JSON.stringify(marks)}`);
});

t.test('credentials: each variant derived from the key, described without it, and redacted in every form', async (t) => {
  const key = 'sk+live/Abc123';
  const variants: Array<[AuthVariant, string | undefined, string | undefined]> = [
    ['valid', `Bearer ${key}`, 'Bearer <API key>'],
    ['none', undefined, undefined],
    ['empty-bearer', 'Bearer ', 'Bearer '],
    ['basic-scheme', `Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'Basic <base64 of "API key:">'],
    ['appended-char', `Bearer ${key}x`, 'Bearer <API key>x'],
    ['removed-char', `Bearer ${key.slice(0, -1)}`, 'Bearer <API key without its last character>'],
    ['lowercase-scheme', `bearer ${key}`, 'bearer <API key>'],
  ];
  const redact = makeRedactor(key);
  for (const [variant, header, description] of variants) {
    t.equal(authorizationHeader(variant, key), header, `${variant}: header`);
    t.equal(describeAuthorization(variant), description, `${variant}: description`);
    t.notOk((describeAuthorization(variant) ?? '').includes(key.slice(0, 4)), `${variant} is described without the key`);
    if (header !== undefined && header.trim() !== 'Bearer')
      t.notOk(/sk\+live|c2sr/.test(redact(header)), `${variant}: the header redacts away`);
  }
  const wrong = [authorizationHeader('wrong-token', key), authorizationHeader('wrong-token', key)];
  t.match(wrong[0], /^Bearer wrong-[0-9a-f]{24}$/);
  t.not(wrong[0], wrong[1], 'a fresh wrong token each time');
  t.notOk(wrong[0]?.includes(key), 'the wrong token is not derived from the key');
  t.equal(describeAuthorization('wrong-token'), 'Bearer <a wrong token>');

  const forms: Array<[string, string]> = [
    ['the key', key],
    ['its base64', Buffer.from(key).toString('base64')],
    ['the base64 of "key:"', Buffer.from(`${key}:`).toString('base64')],
    ['its URL encoding', encodeURIComponent(key)],
    ['the key less its last character', key.slice(0, -1)],
    ['JSON with escaped slashes (PHP json_encode)', key.replace(/\//g, '\\/')],
    ['JSON with + as \\u002B (.NET)', key.replace(/\+/g, '\\u002B')],
    ['JSON with every character escaped', [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['JSON escaped twice (a JSON string inside a JSON string)', JSON.stringify(key.replace(/\//g, '\\/')).slice(1, -1)],
    ['the key in upper case', key.toUpperCase()],
    ['percent-encoded in upper and lower case', encodeURIComponent(key).toLowerCase()],
    ['HTML character references', [...key].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('')],
    ['base64url', Buffer.from(key).toString('base64url')],
    ['the base64 of ":key"', Buffer.from(`:${key}`).toString('base64')],
  ];
  for (const [name, form] of forms) {
    const out = redact(`before ${form} after`);
    t.equal(out, 'before [REDACTED] after', `${name} is redacted`);
    // A text shorter than every form is returned as is: a form alone is the shortest text that must still be redacted.
    t.equal(redact(form), '[REDACTED]', `${name}, alone, is redacted`);
  }
  for (const prefix of ['u:', 'Bearer ', 'ab']) {
    const out = redact(Buffer.from(`${prefix}${key}`).toString('base64'));
    const kept = out.replace('[REDACTED]', '').length;
    t.ok(
      out.includes('[REDACTED]') && kept <= Math.ceil(prefix.length / 3) * 4 + 4,
      `the base64 of "${prefix}<key>" keeps no more than its prefix and a group: ${out}`,
    );
  }
  t.equal(redact('{"q":"sk+live/Abc123","again":"sk+live/Abc123"}'), '{"q":"[REDACTED]","again":"[REDACTED]"}', 'every occurrence');
  t.equal(redact('nothing secret here'), 'nothing secret here', 'other text is untouched');
  t.equal(makeRedactor('ab')('cab ab'), 'c[REDACTED] [REDACTED]', 'a short key is still redacted');
  t.equal(makeRedactor('abc')('ab'), '[REDACTED]', 'the key less its last character, alone');
  t.equal(
    makeRedactor('abc')('ab abc'),
    '[REDACTED] [REDACTED]',
    'and the key less its last character, however short: the suite sends it (removed-char)',
  );
  t.equal(
    makeRedactor('zzz', ['abcd'])('abc abcd'),
    'abc [REDACTED]',
    'another secret less its last character only from 4 characters on: the suite sends no such form of it',
  );
  t.equal(makeRedactor('')('text'), 'text', 'no key, nothing to redact');
});

t.test('the redactor compares letters as a caseless comparison reads them, and knows each short form the suite sends', async (t) => {
  const rows: Array<[key: string, text: string, expected: string, what: string]> = [
    ['sk-Live-0123456789', 'a sk-live-0123456789 b', 'a [REDACTED] b', 'any letter case'],
    ['sk-Live-0123456789', 'a SK-LIVE-012345678 b', 'a [REDACTED] b', 'less its last character'],
    ['σσσσσσσσσ', 'ςςςςςςςςς', '[REDACTED]', 'the letters a caseless comparison folds together (final sigma)'],
    // STRASSE is what the suite sends in swapped case: toUpperCase makes ß two letters.
    ['straße-secret-1', 'STRASSE-SECRET-1 straße-SECRET-1', '[REDACTED] [REDACTED]', 'a letter whose upper case is two'],
    [
      'sk-Live-0123456789',
      `x ${Buffer.from('u:sk-Live-0123456789').toString('base64')} y`,
      'x dTpz[REDACTED]ODk= y',
      'its base64 inside a value',
    ],
    ['sk-Live-0123456789', 'plain text that holds no secret', 'plain text that holds no secret', 'nothing'],
    ['k7Q', 'a K7q b', 'a [REDACTED] b', 'a short key in swapped case'],
    ['k7Q', 'a k7 Q b', 'a [REDACTED] b', 'a short key split by a space'],
    ['k7Q', 'a k7 b', 'a [REDACTED] b', 'a short key less its last character'],
    ['k7Q', 'a K7Q b', 'a K7Q b', 'but a short key is compared in its own case'],
    ['Q', 'q Q', '[REDACTED] [REDACTED]', 'a one-character key in either case'],
    ['k7Qz9', `a ${Buffer.from('k7Qz9:').toString('base64')} b`, 'a [REDACTED] b', "the base64 of a short key's Basic credentials"],
    ['k7Qz9', 'k7Qz plain text', '[REDACTED] plain text', 'less its last character, 4 characters'],
  ];
  for (const [key, text, expected, what] of rows) t.equal(makeRedactor(key)(text), expected, what);
});

t.test("every header the suite derives from the key is redacted in every output encoding, whatever the key's length", async (t) => {
  // Every variant (the Record makes the compiler name any that is added later).
  const VARIANTS = Object.keys({
    valid: 1,
    none: 1,
    'wrong-token': 1,
    'empty-bearer': 1,
    'basic-scheme': 1,
    'appended-char': 1,
    'removed-char': 1,
    'lowercase-scheme': 1,
    'swapped-case': 1,
    'basic-raw': 1,
    'token-scheme': 1,
    'no-scheme': 1,
    'prefixed-char': 1,
    'space-inside': 1,
    'scheme-suffix': 1,
    'trailing-token': 1,
    'uppercase-scheme': 1,
    'double-space': 1,
    'list-form': 1,
    'two-headers': 1,
  } satisfies Record<AuthVariant, 1>) as AuthVariant[];
  // Keys of the lengths around the redactor's thresholds (4 and 8 characters), none of whose letters is in the words around them.
  const KEYS = ['Q', 'q7Z', 'Qz7Wk', 'Qz7Wk9p', 'Qz7/k9p+', 'sk+live/Qz7Wk9pM2-Hq4'];
  const hex = (c: string): string => (c.codePointAt(0) ?? 0).toString(16);
  const ENCODINGS: Array<[string, (text: string) => string, (text: string) => string]> = [
    ['raw', (x) => x, (x) => x],
    [
      'JSON-escaped (\\uXXXX)',
      (x) => [...x].map((c) => `\\u${hex(c).padStart(4, '0')}`).join(''),
      (x) => x.replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    ],
    ['JSON with escaped slashes', (x) => x.replace(/\//g, '\\/'), (x) => x.replace(/\\\//g, '/')],
    [
      'percent-encoded',
      (x) => [...x].map((c) => `%${hex(c).padStart(2, '0').toUpperCase()}`).join(''),
      (x) => x.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    ],
    [
      'URL-encoded',
      (x) => encodeURIComponent(x),
      (x) => x.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    ],
    [
      'HTML character references',
      (x) => [...x].map((c) => `&#x${hex(c)};`).join(''),
      (x) => x.replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    ],
    [
      'HTML decimal references',
      (x) => [...x].map((c) => `&#${c.codePointAt(0) ?? 0};`).join(''),
      (x) => x.replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d))),
    ],
  ];
  let checked = 0;
  for (const key of KEYS) {
    const redact = makeRedactor(key);
    for (const variant of VARIANTS) {
      const headers = [authorizationHeader(variant, key) ?? []].flat();
      for (const header of headers) {
        // What follows the scheme: the key itself, or what the suite derived from it (or a wrong token, which is no secret).
        const credential = header.replace(/^(?:Bearer|bearer|Basic|Token) /, '');
        const fromKey = !/^wrong-/.test(credential) && credential !== '';
        for (const [encoding, encode, decode] of ENCODINGS) {
          const out = decode(redact(`{"authorization": "${encode(header)}", "after": 1}`));
          const left = fromKey ? [credential, key].filter((secret) => out.includes(secret)) : [];
          t.same(left, [], `key of ${key.length}, ${variant}, ${encoding}: ${out}`);
          checked += 1;
        }
      }
    }
  }
  // 15 headers a key: none sends none, two-headers two.
  t.equal(checked, KEYS.length * VARIANTS.length * ENCODINGS.length, 'every key, header and encoding');
});

t.test('keyDerivedSecrets lists what the variants send, read off the same table', async (t) => {
  const key = 'Qz7Wk';
  t.same(
    keyDerivedSecrets(key).sort(),
    [key, Buffer.from(`${key}:`).toString('base64'), `${key}x`, 'Qz7W', 'qZ7wK', `x${key}`, 'Qz7 Wk', `${key} x`, `${key}, x`].sort(),
  );
  t.same(keyDerivedSecrets(''), [], 'no key, nothing derived (not the x a variant adds)');
  for (const variant of ['valid', 'swapped-case', 'space-inside', 'removed-char', 'basic-scheme', 'appended-char'] as const) {
    const header = authorizationHeader(variant, key) as string;
    t.ok(
      keyDerivedSecrets(key).some((secret) => header.endsWith(` ${secret}`)),
      `${variant}: ${header} ends with a listed string`,
    );
  }
});

t.test('the redactor stays linear on long runs of escapes and keeps any depth of backslashes', async (t) => {
  for (const key of ['Q', 'q7Z', 'sk+live/Qz7Wk9pM2-Hq4']) {
    const redact = makeRedactor(key);
    for (const [name, text] of [
      ['backslashes', '\\'.repeat(1024 * 1024)],
      ['ampersands', '&#'.repeat(512 * 1024)],
      ['percent signs', '%'.repeat(1024 * 1024)],
    ] as const) {
      const started = performance.now();
      redact(text);
      t.ok(performance.now() - started < 1000, `key of ${key.length}, 1 MB of ${name}: ${(performance.now() - started).toFixed(0)} ms`);
    }
    const deep = `${'\\'.repeat(63)}u${(key.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}${key.slice(1)}`;
    t.equal(redact(`a ${deep} b`), 'a [REDACTED] b', `key of ${key.length}: escaped six times deep`);
  }
  const slashKey = 'ab\\';
  // The key as it is, then with its first character escaped: the second starts right after the first one's backslash.
  const twice = `ab\\\\u0061b\\`;
  t.equal(makeRedactor(slashKey)(`${twice} end`), '[REDACTED] end', 'a key ending in a backslash, then the key escaped: both, as one');
});
