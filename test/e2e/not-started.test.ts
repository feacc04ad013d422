/**
 * A run that cannot start (nothing listening, a base URL without /v1, a refused key, https on a plain port, a certificate
 * for another name): exit 2, the cause on the first line of output and one line that nothing was judged; not-started.json
 * says why, and the last good reports move to previous/ (no report at the folder's top level is an earlier run's), where
 * they stay however many runs then fail to start. Each fails at the first request: milliseconds.
 */
import t from 'tap';
import { readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import path from 'node:path';
import type { NotStartedReport } from '../../src/model/results.js';
import { createPetStore, startReferenceServer, toNodeHandler } from '../../src/server/reference-server.js';
import { runCli, tempDir } from '../helpers.js';
import { certificate } from '../tls-fixtures.js';

const KEY = 'not-started-key-71c3e0';
const LAST_GOOD = `${JSON.stringify({ verdict: 'passed', note: 'the last good run' })}\n`;

const plain = await startReferenceServer({ apiKey: KEY });
t.teardown(() => plain.close());

/** The reports of an earlier good run in `dir`, an hour old (the helper validates only a report.json a run wrote). */
async function lastGood(dir: string, names: readonly string[] = ['report.json']): Promise<void> {
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const name of names) {
    await writeFile(path.join(dir, name), name === 'report.json' ? LAST_GOOD : '<testsuites name="the last good run"/>');
    await utimes(path.join(dir, name), hourAgo, hourAgo);
  }
}

/** An https pet store whose certificate names another host (trusted with --ca-file: only the name is wrong). */
async function otherNameStore(): Promise<{ base: string; ca: string }> {
  const dir = await tempDir();
  const server = createHttpsServer(
    certificate(dir, 'other-name', 'DNS:elsewhere.test'),
    toNodeHandler(createPetStore({ apiKey: KEY }).handle),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { base: `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, ca: path.join(dir, 'other-name.pem') };
}

t.test('each run that cannot start: exit 2, the cause first in one line, then one line; the last good reports in previous/', async (t) => {
  const tls = await otherNameStore();
  const port = new URL(plain.baseUrl).port;
  const rows: Array<[what: string, args: string[], key: string, code: string, cause: RegExp]> = [
    [
      'nothing listening',
      ['--base-url', 'http://127.0.0.1:9/v1'],
      KEY,
      'ERR_UNREACHABLE',
      /^petstore-conformance: cannot reach http:\/\/127\.0\.0\.1:9\/v1: .*ECONNREFUSED.*--wait-for SECONDS$/,
    ],
    [
      'a base URL that ends in /v1 but is not the store',
      ['--base-url', plain.baseUrl.replace(/\/v1$/, '/api/v1')],
      KEY,
      'ERR_NOT_A_PET_STORE',
      /^petstore-conformance: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/pets answered 404: is http:\/\/127\.0\.0\.1:\d+\/api\/v1 the pet store's base URL\?/,
    ],
    [
      'a wrong key',
      ['--base-url', plain.baseUrl],
      'not-the-right-key',
      'ERR_KEY_REFUSED',
      /^petstore-conformance: http:\/\/127\.0\.0\.1:\d+\/v1 refused the API key \(401 to GET \/pets\)/,
    ],
    [
      'https on a plain port',
      ['--base-url', plain.baseUrl.replace(/^http:/, 'https:')],
      KEY,
      'ERR_TLS',
      new RegExp(
        `^petstore-conformance: cannot reach https:.*: the server on port ${port} does not speak TLS: if it serves plain http, use http://127\\.0\\.0\\.1:${port}/v1$`,
      ),
    ],
    [
      'a certificate for another name',
      ['--base-url', tls.base, '--ca-file', tls.ca],
      KEY,
      'ERR_TLS',
      /^petstore-conformance: cannot reach https:.*TLS certificate rejected \(Hostname\/IP does not match .*\) \(ERR_TLS_CERT_ALTNAME_INVALID\): the certificate is not for 127\.0\.0\.1/,
    ],
  ];
  for (const [what, args, key, code, cause] of rows) {
    const dir = await tempDir();
    await lastGood(dir, ['report.json', 'junit.xml']);
    const run = await runCli(['run', ...args, '--report-dir', dir], { PETSTORE_API_KEY: key });
    t.equal(run.code, 2, `${what}: exit 2`);
    const lines = `${run.stdout}${run.stderr}`.trimEnd().split('\n');
    t.match(lines[0], cause, `${what}: the cause on the first line`);
    t.same(
      lines.slice(1),
      [
        `  nothing was judged (the run did not start); ${path.join(dir, 'not-started.json')} records why; ` +
          `the reports of the last run that started are in ${path.join(dir, 'previous')}`,
      ],
      `${what}: then one line, and nothing else (no counts, verdict, seed or report list)`,
    );
    t.equal(await readFile(path.join(dir, 'previous', 'report.json'), 'utf8'), LAST_GOOD, `${what}: the last good report.json is kept`);
    t.same((await readdir(dir)).sort(), ['not-started.json', 'previous'], `${what}: no earlier report at the top level`);
    t.same((await readdir(path.join(dir, 'previous'))).sort(), ['junit.xml', 'report.json'], `${what}: the last good set, whole`);
    const note = JSON.parse(await readFile(path.join(dir, 'not-started.json'), 'utf8')) as NotStartedReport;
    t.match(note, { reportVersion: 4, status: 'not-started', embeddedServer: false, cause: { code } }, `${what}: not-started.json`);
    t.equal(`petstore-conformance: ${note.cause.message}`, lines[0], `${what}: the note holds the cause as printed`);
    t.same(
      Object.keys(note).sort(),
      ['baseUrl', 'cause', 'embeddedServer', 'finishedAt', 'reportVersion', 'runId', 'startedAt', 'status', 'tool'],
      `${what}: no claims beyond what happened (no counts, cases or verdict)`,
    );
    t.notOk(`${run.stdout}${run.stderr}${JSON.stringify(note)}`.includes(key), `${what}: the key appears nowhere`);
  }
});

t.test('json:- prints the note on standard output; the run that then starts removes the note and keeps the good reports', async (t) => {
  const dir = await tempDir();
  await lastGood(dir);
  const refused = await runCli(['run', '--base-url', plain.baseUrl, '--reporter', 'json:-,json', '--report-dir', dir], {
    PETSTORE_API_KEY: 'not-the-right-key',
  });
  t.equal(refused.code, 2);
  t.match(JSON.parse(refused.stdout), { status: 'not-started', cause: { code: 'ERR_KEY_REFUSED' } }, 'standard output parses');
  t.match(refused.stderr, /^petstore-conformance: .*refused the API key/);
  const started = await runCli(['run', '--base-url', plain.baseUrl, '--reporter', 'json', '--suite', 'limits', '--report-dir', dir], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(started.code, 0, started.stderr);
  t.same((await readdir(path.join(dir, 'previous'))).sort(), ['report.json'], 'the last good report kept aside, the note gone');
  t.equal(await readFile(path.join(dir, 'previous', 'report.json'), 'utf8'), LAST_GOOD);
  t.same((await readdir(dir)).sort(), ['previous', 'report.json'], 'the new report alone at the top level');
  t.match(JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')), { verdict: 'passed' });
  const again = await runCli(['run', '--base-url', plain.baseUrl, '--reporter', 'json', '--suite', 'limits', '--report-dir', dir], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(again.code, 0, again.stderr);
  t.notSame(await readFile(path.join(dir, 'previous', 'report.json'), 'utf8'), LAST_GOOD, 'a run that started replaces previous/');
});

t.test(
  'any number of failed starts after a good run: the good reports stay in previous/, no note or temporary file piles up',
  async (t) => {
    const dir = await tempDir();
    await lastGood(dir, ['report.json', 'junit.xml']);
    // What a run killed while it wrote (SIGKILL) leaves: a temporary report, and a lock whose process no longer runs.
    await writeFile(path.join(dir, 'report.json.99999999.1.tmp'), '{');
    await writeFile(
      path.join(dir, '.petstore-conformance.lock'),
      JSON.stringify({ pid: 2 ** 22 + 1, host: hostname(), startedAt: 'then' }),
    );
    for (let i = 0; i < 3; i += 1) {
      const run = await runCli(['run', '--base-url', 'http://127.0.0.1:9/v1', '--report-dir', dir], { PETSTORE_API_KEY: KEY });
      t.equal(run.code, 2, `failed start ${i + 1}: exit 2`);
      t.same((await readdir(dir)).sort(), ['not-started.json', 'previous'], `failed start ${i + 1}: the note alone at the top level`);
      t.same((await readdir(path.join(dir, 'previous'))).sort(), ['junit.xml', 'report.json'], `failed start ${i + 1}: the good set`);
      t.equal(await readFile(path.join(dir, 'previous', 'report.json'), 'utf8'), LAST_GOOD);
    }
  },
);

t.test('load PROFILE that cannot start: the same two lines, no load sent, the last good report in previous/', async (t) => {
  const dir = await tempDir();
  await lastGood(dir);
  const run = await runCli(['load', 'smoke', '--base-url', 'http://127.0.0.1:9/v1', '--report-dir', dir], { PETSTORE_API_KEY: KEY });
  t.equal(run.code, 2);
  const lines = `${run.stdout}${run.stderr}`.trimEnd().split('\n');
  t.match(lines[0], /^petstore-conformance: cannot verify http:\/\/127\.0\.0\.1:9\/v1 before load: .*ECONNREFUSED.*; no load was sent$/);
  t.equal(lines.length, 2, lines.join('\n'));
  t.equal(await readFile(path.join(dir, 'previous', 'report.json'), 'utf8'), LAST_GOOD);
  t.match(JSON.parse(await readFile(path.join(dir, 'not-started.json'), 'utf8')), { cause: { code: 'ERR_UNREACHABLE' } });
});
