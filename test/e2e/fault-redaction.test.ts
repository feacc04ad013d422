/**
 * Fault suite, redaction: a server that echoes the key back in every encoding output may carry. Whatever reaches the
 * console or any report file holds no form of the key; a base URL that carries one is refused without echoing it.
 */
import t from 'tap';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { runCli, tempDir } from '../helpers.js';

const KEY = 'sk/live+Abc/123-fault';

/** The forms a leak could take, in lower case (the key in another case leaks it just the same). */
const NEEDLES = [
  KEY,
  KEY.replace(/\//g, '\\/'),
  KEY.replace(/\+/g, '\\u002B'),
  encodeURIComponent(KEY),
  Buffer.from(KEY).toString('base64'),
  Buffer.from(KEY).toString('base64url'),
  Buffer.from(`${KEY}:`).toString('base64').slice(0, 24),
  Buffer.from(`Bearer ${KEY}`).toString('base64').slice(12, 36),
  'live+abc',
  'live\\u002babc',
].map((n) => n.toLowerCase());

/** How the server writes the key back, one after another. */
const ECHOES = [
  (key: string) => key,
  (key: string) => key.replace(/\//g, '\\/'),
  (key: string) => key.replace(/\+/g, '\\u002B'),
  (key: string) => [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  (key: string) => encodeURIComponent(key),
  (key: string) => Buffer.from(key).toString('base64'),
  (key: string) => Buffer.from(`Bearer ${key}`).toString('base64'),
  (key: string) => key.toUpperCase(),
  (key: string) => [...key].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
];

function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return NEEDLES.filter((n) => lower.includes(n));
}

t.test('a server that echoes the key in every encoding: no output holds any form of it', async (t) => {
  let n = 0;
  const server = createServer((req, res) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const echo = (ECHOES[n++ % ECHOES.length] as (key: string) => string)(token || KEY);
    // Raw JSON text: the escapes are the server's own, as PHP's json_encode or .NET would write them.
    const body =
      req.method === 'GET' && /\/pets$/.test(req.url?.split('?')[0] ?? '')
        ? `[{"id":1,"name":"${echo}","categoryId":1,"status":"available"}]`
        : `{"code":"echo","message":"${echo}","status":400}`;
    res.writeHead(req.method === 'GET' && /\/pets$/.test(req.url?.split('?')[0] ?? '') ? 200 : 400, {
      'content-type': 'application/json',
      'x-echo': encodeURIComponent(token),
      location: `https://elsewhere.example/?k=${echo}`,
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const reports = await tempDir();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const { code, stdout, stderr } = await runCli(
    [
      'run',
      '--base-url',
      base,
      '--report-dir',
      reports,
      '--reporter',
      'console,json,junit,html,markdown,har',
      '--suite',
      'contract',
      '--suite',
      'auth',
      '--suite',
      'errors',
    ],
    { PETSTORE_API_KEY: KEY },
  );
  t.equal(code, 1, 'the echoing server fails the contract');
  t.ok(n > 20, `${n} responses echoed the key`);
  t.same(leaks(stdout), [], 'stdout');
  t.same(leaks(stderr), [], 'stderr');
  const files = await readdir(reports);
  t.same(files.sort(), ['junit.xml', 'report.har', 'report.html', 'report.json', 'summary.md'], 'every report was written');
  for (const file of files) t.same(leaks(await readFile(path.join(reports, file), 'utf8')), [], file);
  t.match(await readFile(path.join(reports, 'report.json'), 'utf8'), /\[REDACTED\]/, 'what was removed is marked');
});

t.test('a base URL that carries the key in its query is refused without echoing it', async (t) => {
  for (const url of [
    `https://api.example.com/v1?api_key=${encodeURIComponent(KEY)}`,
    `https://api.example.com/v1#${KEY}`,
    `not a url ${KEY}`,
  ]) {
    const { code, stderr } = await runCli(['run', '--base-url', url], { PETSTORE_API_KEY: 'another-key-entirely' });
    t.equal(code, 2, url);
    t.same(leaks(stderr), [], `nothing of the key in: ${stderr.trim()}`);
  }
});

t.test(
  'the output boundary: every file reporter and the console stream write through the redactor, whatever the report holds',
  async (t) => {
    const { createReporters, REPORTER_NAMES } = await import('../../src/reporters/reporter-registry.js');
    const { redactingStream } = await import('../../src/reporters/redacting-stream.js');
    const { makeRedactor } = await import('../../src/http/credentials.js');
    const { hostileReport } = await import('../report-fixture.js');
    const { PassThrough } = await import('node:stream');
    const redact = makeRedactor(KEY);
    const report = hostileReport();
    // A report that holds the key where no earlier redaction could have caught it (as if a check had built it from parts).
    report.warnings.push({ case: 'c', check: 'x', step: 1, message: `a message built after parsing: ${KEY.replace(/\//g, '\\/')}` });
    const dir = await tempDir();
    let printed = '';
    const sink = new PassThrough();
    sink.on('data', (d: Buffer) => (printed += d.toString()));
    const reporters = await createReporters(
      [...REPORTER_NAMES],
      dir,
      { stream: redactingStream(sink, redact), color: false, quiet: false },
      redact,
    );
    for (const reporter of reporters) await reporter.onRunEnd?.(report);
    t.same(leaks(printed), [], 'the console');
    for (const file of await readdir(dir)) t.same(leaks(await readFile(path.join(dir, file), 'utf8')), [], file);
  },
);

t.test(
  'a server that echoes the Authorization header it gets, with an 8-character key: no variant the suite sent reaches any output',
  async (t) => {
    const key = 'Qz7Wk2pR';
    const half = Math.ceil(key.length / 2);
    // What the auth variants send after their scheme, each derived from the key here, independently of the suite's own table.
    const sent = [
      key,
      key.slice(0, -1),
      [...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''),
      `${key.slice(0, half)} ${key.slice(half)}`,
      Buffer.from(`${key}:`).toString('base64'),
    ];
    const hex = (c: string): string => (c.codePointAt(0) ?? 0).toString(16);
    const echoes = [
      (h: string) => h,
      (h: string) => [...h].map((c) => `\\u${hex(c).padStart(4, '0')}`).join(''),
      (h: string) => encodeURIComponent(h),
      (h: string) => [...h].map((c) => `&#x${hex(c)};`).join(''),
    ];
    // Each output read back through every decoding, so a variant written in any of the echoed encodings is found.
    const decodings = [
      (x: string) => x,
      (x: string) => x.replace(/\\+u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      (x: string) => x.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      (x: string) => x.replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    ];
    const variantsIn = (text: string): string[] => [
      ...new Set(decodings.flatMap((decode) => sent.filter((s) => decode(text).includes(s)))),
    ];
    let n = 0;
    const seen = new Set<string>();
    const server = createServer((req, res) => {
      const authorization = req.headers.authorization ?? '';
      seen.add(authorization);
      // The key itself lists no pets (the preflight passes); to anything else, 400: every auth case (which expects 401) fails and keeps the response as evidence.
      if (authorization === `Bearer ${key}` && req.method === 'GET' && /\/pets(\?|$)/.test(req.url ?? '')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
        return;
      }
      const echo = (echoes[n++ % echoes.length] as (h: string) => string)(authorization);
      res.writeHead(400, { 'content-type': 'application/json', 'x-echo': encodeURIComponent(authorization) });
      res.end(`{"code":"echo","message":"you sent ${echo}","status":400}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise((resolve) => server.close(resolve)));
    const reports = await tempDir();
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const { code, stdout, stderr } = await runCli(
      ['run', '--base-url', base, '--report-dir', reports, '--reporter', 'console,json,junit,html,markdown,har', '--suite', 'auth'],
      { PETSTORE_API_KEY: key },
    );
    t.equal(code, 1, 'the echoing server fails the auth cases');
    t.same(
      sent.filter((s) => ![...seen].some((h) => h.endsWith(` ${s}`) || h === s)),
      [],
      'the suite sent every variant looked for',
    );
    t.ok(n >= 4 * echoes.length, `${n} responses echoed the header`);
    t.same(variantsIn(stdout), [], 'stdout');
    t.same(variantsIn(stderr), [], 'stderr');
    for (const file of await readdir(reports)) t.same(variantsIn(await readFile(path.join(reports, file), 'utf8')), [], file);
    const report = await readFile(path.join(reports, 'report.json'), 'utf8');
    t.match(report, /you sent Bearer \[REDACTED\]/, 'the echoes are in report.json, redacted');
    t.match(report, /you sent Basic \[REDACTED\]/, "Basic's base64 too");
  },
);
