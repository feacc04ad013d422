/**
 * Content coding in a whole run: a store that gzips every body, asked or not, passes, and the evidence names the coding.
 * decodeBody alone is test/unit/http/content-coding.test.ts.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { RunReport } from '../../src/model/results.js';
import { createPetStore } from '../../src/server/reference-server.js';
import { listenLocally, runCli, tempDir } from '../helpers.js';

const KEY = 'content-coding-key';
t.test('a store that gzips every body, asked or not, passes the whole run, and the evidence names the coding', async (t) => {
  const store = createPetStore({ apiKey: KEY });
  let asked = '';
  const server = createServer((req: IncomingMessage, res) => {
    asked = req.headers['accept-encoding'] ?? '';
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      void Promise.resolve(
        store.handle({
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks),
        }),
      ).then((answer) => {
        const body = gzipSync(Buffer.from(answer.body));
        res.writeHead(answer.status, { ...answer.headers, 'content-encoding': 'gzip', 'content-length': body.length }).end(body);
      });
    });
  });
  const base = await listenLocally(server);
  const reports = await tempDir();
  const { code, stdout } = await runCli(['run', '--base-url', base, '--report-dir', reports, '--seed', '1', '--reporter', 'console,json'], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(code, 0, stdout.split('\n').slice(-4).join('\n'));
  t.equal(asked, 'gzip, deflate, br', 'the client says which codings it decodes');
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport;
  t.equal(report.cases.find((c) => c.id === 'listPets.ok')?.exchanges[0]?.response?.coding, 'gzip');
  t.match(report.cases.find((c) => c.id === 'listPets.ok')?.exchanges[0]?.response?.body, /^\[\{/, 'the evidence keeps the decoded body');
});
