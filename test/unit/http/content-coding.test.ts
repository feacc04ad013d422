/** Content coding: the client asks for the codings it decodes, decodes them within the size bound, and a store that compresses unasked passes. */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { decodeBody } from '../../../src/http/content-coding.js';
import type { RunReport } from '../../../src/model/results.js';
import { createPetStore } from '../../../src/server/reference-server.js';
import { listenLocally, runCli, tempDir } from '../../helpers.js';

const KEY = 'content-coding-key';
const text = Buffer.from('[{"id":1,"name":"Rex","categoryId":1}]');

t.test('decodeBody: each coding the client asks for, in the order applied, bounded', (t) => {
  const rows: Array<[string, Buffer, string | undefined, { text?: string; coding?: string; truncated?: boolean; error?: RegExp }]> = [
    ['no coding', text, undefined, { text: text.toString() }],
    ['identity', text, 'identity', { text: text.toString() }],
    ['gzip', gzipSync(text), 'gzip', { text: text.toString(), coding: 'gzip' }],
    ['x-gzip, in capitals', gzipSync(text), 'X-GZIP', { text: text.toString(), coding: 'x-gzip' }],
    ['deflate (zlib)', deflateSync(text), 'deflate', { text: text.toString(), coding: 'deflate' }],
    ['deflate sent raw', deflateRawSync(text), 'deflate', { text: text.toString(), coding: 'deflate' }],
    ['br', brotliCompressSync(text), 'br', { text: text.toString(), coding: 'br' }],
    ['gzip then br', brotliCompressSync(gzipSync(text)), 'gzip, br', { text: text.toString(), coding: 'gzip, br' }],
    ['a coding not asked for', text, 'zstd', { coding: 'zstd', error: /not one the client asked for/ }],
    ['corrupt gzip', Buffer.from('not gzip at all'), 'gzip', { coding: 'gzip', error: /the body is not valid gzip/ }],
    ['a bomb', gzipSync(Buffer.alloc(10_000_000)), 'gzip', { coding: 'gzip', truncated: true, error: /decodes to more than 1000 bytes/ }],
  ];
  for (const [name, data, coding, want] of rows) {
    const decoded = decodeBody(data, coding, name === 'a bomb' ? 1000 : 1_000_000);
    if (want.text !== undefined) t.equal(decoded.body.toString(), want.text, `${name}: decoded`);
    t.equal(decoded.coding, want.coding, `${name}: coding`);
    t.equal(decoded.truncated, want.truncated ?? false, `${name}: truncated`);
    if (want.error === undefined) t.equal(decoded.error, undefined, `${name}: no error`);
    else t.match(decoded.error, want.error, `${name}: error`);
  }
  t.ok(decodeBody(gzipSync(Buffer.alloc(10_000_000)), 'gzip', 1000).body.length <= 1000, 'a bomb is never held whole');
  t.end();
});

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
