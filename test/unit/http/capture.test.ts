/** The capture reads a large body once: the same bytes again share its reading; other bytes, or a small body, are read anew. */
import t from 'tap';
import { createServer } from 'node:http';
import { DEFAULT_HTTP_OPTIONS } from '../../../src/http/client.js';
import { openClient } from '../../../src/http/open-client.js';
import type { OutgoingRequest } from '../../../src/http/sender.js';
import { listenLocally } from '../../helpers.js';

const page = (n: number, pets: number): string =>
  JSON.stringify(Array.from({ length: pets }, (_, i) => ({ id: n * 100_000 + i, name: `pet ${i}`, categoryId: 1, status: 'sold' })));

t.test('the same large body twice is decoded and parsed once; another is read anew', async (t) => {
  // Each request names the body it gets: the query's `n`, and `pets` for its size.
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://h');
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(page(Number(url.searchParams.get('n')), Number(url.searchParams.get('pets'))));
  });
  const client = openClient({ ...DEFAULT_HTTP_OPTIONS, baseUrl: `${await listenLocally(server)}/v1`, apiKey: 'capture-key-1' });
  t.teardown(async () => {
    await client.close();
    server.close();
  });
  const list = (n: number, pets: number): OutgoingRequest => ({
    method: 'GET',
    path: '/pets',
    query: [
      ['n', String(n)],
      ['pets', String(pets)],
    ],
    headers: {},
    auth: 'valid',
    operation: 'listPets',
  });
  const rows: Array<[string, [number, number], [number, number], boolean]> = [
    ['the same large page', [1, 5_000], [1, 5_000], true],
    ['another large page', [1, 5_000], [2, 5_000], false],
    ['the same small page', [3, 10], [3, 10], false],
  ];
  for (const [what, first, second, shared] of rows) {
    const a = await client.send(list(...first));
    const b = await client.send(list(...second));
    t.ok(Array.isArray(a.response.json) && Array.isArray(b.response.json), `${what}: both parsed`);
    t.equal(a.response.json === b.response.json, shared, `${what}: ${shared ? 'one reading' : 'read anew'}`);
    t.equal(b.response.bodyText, page(...second), `${what}: the text is the second body's`);
  }
});
