/** report.har: the report's evidence as HAR 1.2, checked field by field and against the HAR schema of the har-schema package. */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { makeRedactor } from '../../../src/http/credentials.js';
import type { ExchangeEvidence, RunReport } from '../../../src/model/results.js';
import { renderHar } from '../../../src/reporters/har-reporter.js';
import { createReporters } from '../../../src/reporters/reporter-registry.js';
import { harSchemaProblems, harSchemas, tempDir } from '../../helpers.js';
import { hostileReport } from '../../report-fixture.js';

interface Named {
  name: string;
  value: string;
}

/** The parts of an entry these tests read. */
interface Entry {
  pageref: string;
  startedDateTime: string;
  time: number;
  comment?: string;
  request: {
    method: string;
    url: string;
    headers: Named[];
    queryString: Named[];
    postData?: { mimeType: string; text: string };
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    headers: Named[];
    content: { size: number; mimeType: string; text?: string; comment?: string; _truncated?: boolean };
    redirectURL: string;
    bodySize: number;
    _error?: string;
  };
  timings: Record<string, number>;
  _caseId: string;
  _step: number;
  _outcome: string;
  _attempts: number;
}

interface Har {
  log: {
    version: string;
    creator: { name: string; version: string };
    pages: Array<{ id: string; startedDateTime: string; title: string }>;
    entries: Entry[];
  };
}

const POST: ExchangeEvidence = {
  step: 1,
  startedAt: '2026-11-21T22:00:00.500Z',
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:9/v1/pets?dry=1&name=a%20b%26c&name=%C3%A9',
    headers: { 'content-type': 'application/json', authorization: 'Bearer <API key>' },
    body: '{"name":"Ré","categoryId":1}',
  },
  response: {
    status: 201,
    headers: { 'content-type': 'application/json', location: '/v1/pets/7' },
    body: '{"id":7}',
    bytes: 8,
    truncated: false,
  },
  durationMs: 4.5,
  attempts: 3,
};

/** The hostile fixture with times on its exchanges but one (an older report's), and a second step that POSTs with a query. */
function fixture(): RunReport {
  const report = hostileReport();
  const [fails, errors, warns] = report.cases;
  if (fails === undefined || errors === undefined || warns === undefined) throw new Error('the fixture changed');
  fails.exchanges = [{ ...(fails.exchanges[0] as ExchangeEvidence), startedAt: '2026-11-21T22:00:00.400Z' }, POST];
  errors.exchanges = errors.exchanges.map((e) => ({ ...e, startedAt: '2026-11-21T22:00:00.100Z' }));
  return report;
}

const render = (report: RunReport): Har => JSON.parse(renderHar(report)) as Har;
/** The entry of a case's step at `index` (from 0, as a run counts them; the HAR, as report.json, counts from 1). */
const entryOf = (har: Har, caseId: string, index = 0): Entry | undefined =>
  har.log.entries.find((e) => e._caseId === caseId && e._step === index + 1);

t.test(
  'a HAR 1.2 document the HAR schema accepts, made by the tool, with an entry per exchange and a page per case that has one',
  async (t) => {
    const report = fixture();
    const har = render(report);
    t.same(harSchemaProblems(har), [], 'valid against har-schema');
    t.equal(har.log.version, '1.2');
    t.same(har.log.creator, report.meta.tool);
    t.equal(
      har.log.entries.length,
      report.cases.reduce((n, c) => n + c.exchanges.length, 0),
      'every exchange, the transport failure among them',
    );
    t.same(
      har.log.pages.map((p) => p.id).sort(),
      ['contract.errors', 'contract.fails', 'contract.warns'],
      'cases without evidence have no page',
    );
    t.ok(
      har.log.entries.every((e) => har.log.pages.some((p) => p.id === e.pageref && p.id === e._caseId)),
      "each entry's page is its case",
    );
    t.match(
      har.log.pages.find((p) => p.id === 'contract.fails'),
      { title: 'contract.fails (failed): contract.fails title', startedDateTime: '2026-11-21T22:00:00.400Z' },
      "a page starts with its case's first request",
    );
    t.same(
      har.log.entries.map((e) => e.startedDateTime),
      [report.meta.startedAt, '2026-11-21T22:00:00.100Z', '2026-11-21T22:00:00.400Z', '2026-11-21T22:00:00.500Z'],
      'oldest first, not in case order',
    );
  },
);

t.test('each field of an entry says what the evidence says, and no more', async (t) => {
  const har = render(fixture());
  const rows: Array<[string, Entry | undefined, object]> = [
    [
      'a GET with a query',
      entryOf(har, 'contract.fails'),
      {
        request: { method: 'GET', queryString: [{ name: 'limit', value: '5' }], bodySize: 0 },
        response: { status: 500, statusText: 'Internal Server Error' },
        _outcome: 'failed',
        _attempts: 1,
      },
    ],
    [
      'a POST with a body',
      entryOf(har, 'contract.fails', 1),
      {
        request: { method: 'POST', postData: { mimeType: 'application/json', text: POST.request.body }, bodySize: 29 },
        response: {
          status: 201,
          statusText: 'Created',
          redirectURL: '/v1/pets/7',
          bodySize: 8,
          content: { size: 8, mimeType: 'application/json', text: '{"id":7}' },
        },
        _step: 2,
        _attempts: 3,
      },
    ],
    ['a warned case', entryOf(har, 'contract.warns'), { response: { status: 200 }, _outcome: 'warned' }],
    [
      'a transport failure',
      entryOf(har, 'contract.errors'),
      {
        response: {
          status: 0,
          statusText: '',
          headers: [],
          content: { size: 0 },
          bodySize: -1,
          _error: 'ECONNREFUSED: connect ECONNREFUSED',
        },
        _outcome: 'could-not-test',
      },
    ],
  ];
  for (const [name, entry, expected] of rows) t.match(entry, expected, name);
  t.same(
    entryOf(har, 'contract.fails', 1)?.request.queryString,
    [
      { name: 'dry', value: '1' },
      { name: 'name', value: 'a b&c' },
      { name: 'name', value: 'é' },
    ],
    'the query parsed and decoded, repeats kept',
  );
  t.notOk(entryOf(har, 'contract.fails')?.request.postData, 'no postData without a body');
  t.notOk(entryOf(har, 'contract.errors')?.response.content.text, 'no body is invented for a request that got no response');
  t.same(
    entryOf(har, 'contract.fails', 1)?.request.headers,
    [
      { name: 'content-type', value: 'application/json' },
      { name: 'authorization', value: 'Bearer <API key>' },
    ],
    'headers as the engine redacted them',
  );
});

t.test('a body the report cut is flagged as an excerpt, never passed off as the whole', async (t) => {
  const har = render(fixture());
  const cut = entryOf(har, 'contract.fails')?.response.content;
  t.match(cut, {
    size: 10_485_760,
    _truncated: true,
    comment: /^an excerpt: the report keeps the start of the body only \(10485760 bytes were read\)$/,
  });
  t.ok((cut?.text?.length ?? Infinity) < 10_000, 'the text is the excerpt');
  const whole = entryOf(har, 'contract.fails', 1)?.response.content;
  t.notOk(whole?._truncated, 'a whole body is not flagged');
  t.notOk(whole?.comment);
});

t.test('times: time is the sum of the timings that apply, none negative; an exchange of an older report starts with the run', async (t) => {
  const har = render(fixture());
  for (const entry of har.log.entries) {
    const applying = Object.values(entry.timings).filter((v) => v !== -1);
    t.ok(
      applying.every((v) => v >= 0),
      `${entry._caseId} step ${entry._step}: no negative timing`,
    );
    t.equal(
      entry.time,
      applying.reduce((a, b) => a + b, 0),
      `${entry._caseId} step ${entry._step}: time = sum of the timings`,
    );
  }
  t.equal(entryOf(har, 'contract.fails', 1)?.time, 4.5);
  t.match(
    entryOf(har, 'contract.warns'),
    { startedDateTime: '2026-11-21T22:00:00.000Z', comment: /does not say when this request was sent/ },
    'no startedAt: the run start stands in, and says so',
  );
  t.notOk(entryOf(har, 'contract.fails')?.comment, 'an entry with its own time carries no such comment');
});

t.test('fields HAR does not define are custom ones, named with a leading underscore', async (t) => {
  const har = render(fixture()) as unknown as {
    log: Record<string, unknown> & { entries: Array<Record<string, Record<string, unknown>>>; pages: Array<Record<string, unknown>> };
  };
  const schemas = harSchemas();
  const foreign = (value: Record<string, unknown> | undefined, schema: string): string[] =>
    Object.keys(value ?? {})
      .filter((k) => !k.startsWith('_') && !(k in (schemas[schema]?.properties ?? {})))
      .map((k) => `${schema}.${k}`);
  const found = [
    ...foreign(har.log, 'log'),
    ...har.log.pages.flatMap((p) => foreign(p, 'page')),
    ...har.log.entries.flatMap((e) => [
      ...foreign(e, 'entry'),
      ...foreign(e['request'], 'request'),
      ...foreign(e['response'], 'response'),
      ...foreign(e['response']?.['content'] as Record<string, unknown>, 'content'),
      ...foreign(e['timings'], 'timings'),
    ]),
  ];
  t.same(found, []);
  t.ok(
    har.log.entries.every((e) => typeof e['_caseId'] === 'string' && typeof e['_step'] === 'number' && typeof e['_outcome'] === 'string'),
    'every entry names its case, step and outcome',
  );
});

t.test(
  "written through the run's redactor: the key in a URL, its decoded query, headers and bodies is in no form in report.har",
  async (t) => {
    const key = 'sk/live+Har-0123456789';
    const report = fixture();
    const leaked: ExchangeEvidence = {
      ...POST,
      request: { ...POST.request, url: `http://127.0.0.1:9/v1/pets?echo=${encodeURIComponent(key)}` },
      response: {
        status: 400,
        headers: { 'x-echo': key, 'content-type': 'application/json' },
        body: `{"message":"${key.replace(/\//g, '\\/')}"}`,
        bytes: 40,
        truncated: false,
      },
    };
    report.cases[0]?.exchanges.push(leaked);
    t.ok(renderHar(report).includes(key), 'unredacted, the rendering holds the key (the query is decoded)');
    const dir = await tempDir();
    const [reporter] = await createReporters(['har'], dir, { stream: process.stdout, color: false, quiet: false }, makeRedactor(key));
    await reporter?.onRunEnd?.(report);
    t.same(reporter?.files, [path.join(dir, 'report.har')]);
    const text = await readFile(path.join(dir, 'report.har'), 'utf8');
    const forms = [key, encodeURIComponent(key), key.replace(/\//g, '\\/'), Buffer.from(key).toString('base64')].map((f) =>
      f.toLowerCase(),
    );
    t.same(
      forms.filter((f) => text.toLowerCase().includes(f)),
      [],
      'no form of the key',
    );
    t.match(text, /\[REDACTED\]/, 'what was removed is marked');
    // Not validated against the schema: `[REDACTED]` in a URL is no RFC 3986 URI (report.json's url has that limit too).
    t.equal((JSON.parse(text) as Har).log.entries.length, 5, 'still JSON, every entry kept');
  },
);
