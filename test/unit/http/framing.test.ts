/**
 * The framing of a request: the key put elsewhere goes on the wire where the case says (a query parameter, a header, a
 * cookie) and never into what reports show; a default header left out is absent from both.
 */
import t from 'tap';
import { RequestFraming } from '../../../src/http/framing.js';
import type { OutgoingRequest } from '../../../src/http/sender.js';
import type { KeyElsewhere } from '../../../src/model/contract-names.js';

const KEY = 'framing-test-key-7c1d';
const framing = new RequestFraming('http://127.0.0.1:9/v1', KEY, {});
const list: OutgoingRequest = { method: 'GET', path: '/pets', query: [['limit', '5']], headers: {}, auth: 'none', operation: 'listPets' };

const rows: Array<{ place: KeyElsewhere; wire: (framed: ReturnType<RequestFraming['frame']>) => string | undefined }> = [
  { place: { in: 'query', name: 'api_key' }, wire: (f) => f.url.searchParams.get('api_key') ?? undefined },
  { place: { in: 'header', name: 'X-API-Key' }, wire: (f) => f.headers['x-api-key'] as string | undefined },
  { place: { in: 'cookie', name: 'api_key' }, wire: (f) => f.headers['cookie'] as string | undefined },
];

for (const { place, wire } of rows)
  t.test(`the key in the ${place.in} ${place.name}: sent there, shown as a placeholder`, async (t) => {
    const framed = framing.frame({ ...list, keyElsewhere: place });
    t.match(wire(framed), KEY, 'on the wire');
    t.notOk(JSON.stringify(framed.sent).includes(KEY), 'never in what reports show');
    t.match(JSON.stringify(framed.sent), /<API key>|%3CAPI\+key%3E/, 'the place named instead');
    t.equal(framed.headers['authorization'], undefined, 'no Authorization');
    t.equal(framed.url.searchParams.get('limit'), '5', "the request's own query kept");
  });

t.test('a default header left out is absent on the wire and in the report', async (t) => {
  const framed = framing.frame({ ...list, omitHeaders: ['Accept'] });
  t.equal(framed.headers['accept'], undefined);
  t.equal(framed.sent.headers['accept'], undefined);
  t.equal(framing.frame(list).headers['accept'], 'application/json', 'sent by default');
});

t.test('a chunked body is shown with the Transfer-Encoding undici sends for it; a body sent whole is not', async (t) => {
  const create: OutgoingRequest = { ...list, method: 'POST', query: [], json: { name: 'x', categoryId: 1 }, operation: 'createPet' };
  t.equal(framing.frame({ ...create, chunked: true }).sent.headers['transfer-encoding'], 'chunked');
  t.equal(framing.frame(create).sent.headers['transfer-encoding'], undefined);
  t.equal(framing.frame({ ...list, chunked: true }).sent.headers['transfer-encoding'], undefined, 'no body, nothing chunked');
});

t.test('a raw path goes as spelled, dot and empty segments kept; any other path is resolved as a URL resolves it', async (t) => {
  for (const path of ['/./pets', '/x/../pets', '/%2E/pets', '//pets', '/pets/']) {
    const framed = framing.frame({ ...list, path, rawPath: true });
    t.equal(framed.target, `/v1${path}?limit=5`, `${path}: on the wire`);
    t.equal(framed.sent.url, `http://127.0.0.1:9/v1${path}?limit=5`, `${path}: as reports show it`);
  }
  const resolved = framing.frame({ ...list, path: '/./pets' });
  t.equal(resolved.target, undefined, 'no target of its own');
  t.equal(resolved.url.pathname, '/v1/pets');
});
