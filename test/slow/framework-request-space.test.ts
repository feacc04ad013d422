/**
 * The request space (issue 45) against servers built the way teams build them: each framework's exact set of cells that
 * break their relation, every one a true violation by the contract's reading (framework-corpus.test.ts judges the rest).
 */
import t, { type Test } from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli, tempDir } from '../helpers.js';
import { start as startExpress } from '../fixtures/frameworks/express-store.js';
import { start as startFastify } from '../fixtures/frameworks/fastify-store.js';
import { interpreterWith, type ProcessFramework, start as startProcess } from '../fixtures/frameworks/process-store.js';

const KEY = 'framework-corpus-key';

interface SpaceReport {
  cases: Array<{ id: string; outcome: string }>;
  requestSpace?: { cells: number; sent: number; judged: number; broken: Array<{ cell: string; reason: string }> };
}

/** Runs the request space alone against a base URL: the exit code, the report's count, and the broken cells by name. */
async function space(
  baseUrl: string,
): Promise<{ code: number | null; report: SpaceReport; broken: string[]; reasons: Map<string, string> }> {
  const dir = await tempDir();
  const result = await runCli(['--base-url', baseUrl, '--report-dir', dir, '--reporter', 'json', '--check', 'space.*'], {
    PETSTORE_API_KEY: KEY,
  });
  const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as SpaceReport;
  const cells = report.requestSpace?.broken ?? [];
  return {
    code: result.code,
    report,
    broken: cells.map((c) => c.cell).sort(),
    reasons: new Map(cells.map((c) => [c.cell, c.reason])),
  };
}

/** The cells of one slot, one credential mode, in these classes: `getPet path.petId tab with`. */
function cells(slot: string, credential: 'with' | 'without', classes: readonly string[]): string[] {
  const [operation, id] = slot.split(' ');
  return classes.map((cls) => `${operation} ${id} ${cls} ${credential}`);
}

/** JSON.parse, and the validators over it, take integers beyond int64 (rounded): created, where the contract says 400. */
const BEYOND_INT64 = cells('createPet body.categoryId', 'with', ['digits-100', 'digits-20', 'int64-above', 'int64-below']);
/** Number() and the validators' coercion read 1e0, 0x1, 0o1, 0b1 and a padded 1 as pet 1: a pet for what is not its id. */
const LENIENT_IDS = cells('getPet path.petId', 'with', [
  'exponent',
  'radix-binary',
  'radix-hex',
  'radix-octal',
  'space-leading',
  'space-trailing',
  'tab',
]);

/** A categoryId spelled as no JSON number: the body is no JSON, refused with 400 (before the key, by a parser in front of it). */
const NOT_A_JSON_NUMBER = [
  'digits-arabic-indic',
  'digits-devanagari',
  'digits-full-width',
  'leading-zeros',
  'nul',
  'percent-digit',
  'radix-binary',
  'radix-hex',
  'radix-octal',
  'reserved-encoded',
  'reserved-raw',
  'separator-comma',
  'separator-underscore',
  'sign-plus',
  'zeros-4301',
];
/** A document that is no JSON, refused with 400 (a body parser in front of the key check refuses it before the key). */
const NOT_JSON = ['comment', 'single-quotes', 'trailing-comma', 'trailing-data'];
/** JSON in UTF-16 or UTF-32: no JSON between systems (RFC 8259 §8.1), refused with 400. */
const WIDE = ['utf-16be', 'utf-16le', 'utf-32le'];

/** The spellings of a path's structure besides its canonical one. */
const PATH_SPELLINGS = [
  'dot-dot-segment',
  'dot-segment',
  'empty-segment',
  'encoded-dot-segment',
  'segment-parameter',
  'suffix',
  'trailing-slash',
];
/** Python's int() of a string of more than 4,300 digits raises (its limit on integer string conversion): a 500. */
const PYTHON_INT_LIMIT = ['digits-4301', 'zeros-4301'];

/**
 * A store of the corpus in another language's process, judged by the request space alone: it breaks the contract (exit 1),
 * and `judge` names how; skipped, saying what to install, where this machine lacks the framework.
 */
function processStore(
  framework: ProcessFramework,
  title: string,
  missing: string,
  judge: (t: Test, result: Awaited<ReturnType<typeof space>>) => void,
): void {
  const interpreter = interpreterWith(framework);
  t.test(title, { skip: interpreter === undefined ? missing : false }, async (t) => {
    const server = await startProcess(interpreter as string, framework, KEY);
    t.teardown(server.close);
    const result = await space(server.baseUrl);
    t.equal(result.code, 1, 'the contract is broken');
    judge(t, result);
  });
}

t.test('Express 5: its JSON parser refuses a body before the key is looked at, and Number() reads ids leniently', async (t) => {
  const server = await startExpress(KEY);
  t.teardown(server.close);
  const { code, report, broken } = await space(server.baseUrl);
  t.equal(code, 1);
  t.match(report.requestSpace, { cells: 567, sent: 557, judged: 557 }, 'the count: every cell sent is judged');
  const beforeKey = cells('createPet body.categoryId', 'without', NOT_A_JSON_NUMBER);
  t.same(
    broken,
    [
      ...BEYOND_INT64,
      ...beforeKey,
      ...LENIENT_IDS,
      ...cells('createPet body', 'without', NOT_JSON),
      ...cells('createPet body.framing', 'without', WIDE),
    ].sort(),
  );
});

t.test('Fastify 5: a petId over 100 characters is a 414 that is no Error, before the key', async (t) => {
  const server = await startFastify(KEY);
  t.teardown(server.close);
  const { code, broken, reasons } = await space(server.baseUrl);
  t.equal(code, 1);
  t.match(reasons.get('getPet path.petId digits-4301 without'), /answered 414 .*FST_ERR_MAX_PARAM_LENGTH.*the key is checked first, 401/);
  t.same(
    broken,
    [
      ...BEYOND_INT64,
      'createPet body.name literal-null with',
      ...LENIENT_IDS,
      ...cells('getPet path.petId', 'with', ['digits-4301', 'not-utf8', 'zeros-4301']),
      ...cells('getPet path.petId', 'without', ['digits-4301', 'not-utf8', 'zeros-4301']),
    ].sort(),
  );
});

processStore(
  'flask',
  "Flask: a petId of 4,301 digits is a 500 (Python's limit on int() of a string), with the key and without",
  'no Python with flask here (Debian: python3-flask; .ci/run installs it)',
  (t, { broken, reasons }) => {
    t.match(reasons.get('getPet path.petId digits-4301 with'), /answered 500/);
    t.match(reasons.get('getPet path.petId digits-4301 without'), /answered 500 .* without the credential/);
    t.same(
      broken,
      [
        ...BEYOND_INT64,
        'createPet body.status literal-null with',
        ...cells('getPet path.petId', 'with', [
          'digits-4301',
          'digits-arabic-indic',
          'digits-devanagari',
          'digits-full-width',
          'zeros-4301',
        ]),
        ...cells('getPet path.petId', 'without', ['digits-4301', 'zeros-4301']),
        ...cells('listPets query.limit', 'with', ['digits-4301', 'zeros-4301']),
        // request.get_json() detects UTF-16 and UTF-32, and creates the pet.
        ...cells('createPet body.framing', 'with', WIDE),
      ].sort(),
    );
  },
);

processStore(
  'aiohttp',
  "aiohttp: a petId and a limit of 4,301 digits are 500s (Python's limit on int()), and json.loads takes a categoryId of any length",
  'no Python with aiohttp here (Debian: python3-aiohttp; .ci/run installs it)',
  (t, { broken, reasons }) => {
    t.match(reasons.get('getPet path.petId digits-4301 with'), /answered 500/);
    t.same(
      broken,
      [
        ...BEYOND_INT64,
        ...cells('createPet body.categoryId', 'with', ['digits-100000', 'digits-4301']),
        'createPet body.status literal-null with',
        ...cells('getPet path.petId', 'with', [...PYTHON_INT_LIMIT, 'digits-arabic-indic', 'digits-devanagari', 'digits-full-width']),
        ...cells('listPets query.limit', 'with', PYTHON_INT_LIMIT),
        // request.json() decodes by the charset, UTF-8 by default: a UTF-16 or UTF-32 text with its byte order mark is a 500.
        ...cells('createPet body.framing', 'with', ['utf-16le', 'utf-32le']),
      ].sort(),
    );
  },
);

processStore(
  'sinatra',
  'Sinatra on WEBrick: ?limit=%ff and the array syntaxes are 500s, ?%ff=1 a plain-text 400 before the key, a long URI an HTML 414',
  'no Ruby with sinatra and webrick here (Debian: ruby-sinatra ruby-webrick)',
  (t, { broken, reasons }) => {
    t.match(reasons.get('listPets query.limit not-utf8 with'), /answered 500/);
    t.match(reasons.get('listPets query.limit.name not-utf8 without'), /answered 400 .* without the credential/);
    const longUri = ['digits-4301', 'zeros-4301'];
    t.same(
      broken,
      [
        ...BEYOND_INT64,
        ...cells('createPet body.categoryId', 'with', ['digits-100000', 'digits-4301']),
        'createPet body.status literal-null with',
        ...cells('getPet path.petId', 'with', [...longUri, 'not-utf8']),
        ...cells('getPet path.petId', 'without', longUri),
        ...cells('listPets query.limit', 'with', [...longUri, 'not-utf8']),
        ...cells('listPets query.limit', 'without', longUri),
        ...cells('listPets query.limit.name', 'with', ['not-utf8']),
        ...cells('listPets query.limit.name', 'without', ['not-utf8']),
        ...cells('listPets query', 'with', ['array-brackets', 'array-index', 'name-only']),
        ...cells('listPets query.status-pair', 'with', ['array-brackets', 'array-index', 'name-only']),
        // A path of no route is Sinatra's HTML 404 (after the key: its before filter answers 401 first).
        ...['listPets path', 'createPet path'].flatMap((slot) => cells(slot, 'with', ['segment-parameter', 'suffix', 'trailing-slash'])),
        ...cells('getPet path', 'with', ['trailing-slash']),
        'getPet path.petId reserved-encoded with',
        // Ruby's JSON.parse takes comments: created, where the contract says 400.
        'createPet body comment with',
      ].sort(),
    );
  },
);

processStore(
  'drf',
  "Django REST framework: a petId its <int:> pattern does not match is Django's HTML 404, before the key",
  'no Python with django and rest_framework here (Debian: python3-djangorestframework)',
  (t, { broken }) => {
    const unmatched = [
      ...PYTHON_INT_LIMIT,
      'digits-arabic-indic',
      'digits-devanagari',
      'digits-full-width',
      'exponent',
      'fraction',
      'fraction-zero',
      'int64-below',
      'not-utf8',
      'nul',
      'radix-binary',
      'radix-hex',
      'radix-octal',
      'reserved-encoded',
      'reserved-raw',
      'separator-comma',
      'separator-underscore',
      'sign-minus',
      'sign-plus',
      'space-leading',
      'space-trailing',
      'tab',
    ];
    t.same(
      broken,
      [
        // CharField refuses NUL: a name the contract allows, refused.
        'createPet body.name control-nul with',
        ...cells('getPet path.petId', 'with', unmatched),
        ...cells('getPet path.petId', 'without', unmatched),
        // Every path its patterns do not match, a documented one spelled another way included, is its HTML 404.
        ...['listPets path', 'createPet path', 'getPet path'].flatMap((slot) =>
          (['with', 'without'] as const).flatMap((credential) => cells(slot, credential, PATH_SPELLINGS)),
        ),
        ...cells('listPets query.limit', 'with', PYTHON_INT_LIMIT),
        // Django's server reads a body by its Content-Length: a chunked one is empty, and a valid create is refused with 400.
        'createPet body.framing chunked with',
      ].sort(),
    );
  },
);

processStore(
  'fastapi',
  'FastAPI: a body that does not parse is refused before the key, and pydantic reads lenient ids',
  'no Python with fastapi and uvicorn here (Debian: python3-fastapi python3-uvicorn)',
  (t, { broken }) => {
    t.same(
      broken,
      [
        ...BEYOND_INT64,
        'createPet body.categoryId fraction with',
        // Python's json module takes any number of digits, and raises past 4,300 of them.
        ...cells('createPet body.categoryId', 'without', [...NOT_A_JSON_NUMBER, 'digits-100000', 'digits-4301']),
        'createPet body.status literal-null with',
        // Starlette decodes %2F before it routes: a petId holding one is a path of no route, its 404 before the key.
        'getPet path.petId reserved-encoded without',
        ...cells('createPet body', 'without', NOT_JSON),
        // json.loads detects UTF-16 and UTF-32, and pydantic creates the pet.
        ...cells('createPet body.framing', 'with', WIDE),
        ...cells('getPet path.petId', 'with', [
          'digits-arabic-indic',
          'digits-devanagari',
          'digits-full-width',
          'separator-underscore',
          'space-leading',
          'space-trailing',
          'tab',
        ]),
      ].sort(),
    );
  },
);
