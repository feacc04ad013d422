import t from 'tap';
import { request } from 'undici';
import { parseExactJson, type JsonValue } from '../../../src/model/json.js';
import { pathAndQuery, startReferenceServer, type ReferenceServerOptions } from '../../../src/server/reference-server.js';

const KEY = 'test-key-0123456789';

async function withServer(options: Partial<ReferenceServerOptions>, body: (base: string) => Promise<void>): Promise<void> {
  const server = await startReferenceServer({ apiKey: KEY, ...options });
  try {
    await body(server.baseUrl);
  } finally {
    await server.close();
  }
}

async function call(url: string, init: { method?: string; auth?: string | null; body?: string; type?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.auth !== null) headers['authorization'] = init.auth ?? `Bearer ${KEY}`;
  if (init.body !== undefined) headers['content-type'] = init.type ?? 'application/json';
  const res = await request(url, { method: (init.method ?? 'GET') as 'GET', headers, body: init.body ?? null });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text === '' ? undefined : parseExactJson(text) };
}

t.test('listPets honours the default, the bounds and the filter', async (t) => {
  await withServer({}, async (base) => {
    const page = await call(`${base}/pets`);
    t.equal(page.status, 200);
    t.equal((page.json as JsonValue[]).length, 20);
    t.equal(((await call(`${base}/pets?limit=100`)).json as JsonValue[]).length, 100, 'the store is big enough to fill limit 100');
    t.equal((await call(`${base}/pets?limit=101`)).status, 400);
    t.equal((await call(`${base}/pets?limit=0`)).status, 400);
    t.equal((await call(`${base}/pets?limit=1&limit=2`)).status, 400);
    for (const status of ['available', 'pending', 'sold']) {
      const filtered = (await call(`${base}/pets?status=${status}&limit=100`)).json as Array<{ status: string }>;
      t.ok(filtered.length > 0 && filtered.every((p) => p.status === status), `only ${status} pets`);
    }
    t.same((await call(`${base}/pets?status=lost`)).json, {
      code: 'invalid_status',
      message: 'status must be one of available, pending, sold',
      status: 400,
    });
  });
});

t.test('every operation requires the key, with WWW-Authenticate on 401', async (t) => {
  await withServer({}, async (base) => {
    for (const [method, path] of [
      ['GET', '/pets'],
      ['POST', '/pets'],
      ['GET', '/pets/1'],
    ] as const) {
      for (const auth of [null, 'Bearer nope', `Basic ${KEY}`, `Bearer ${KEY}x`, `Bearer ${KEY.slice(0, -1)}`]) {
        const res = await call(`${base}${path}`, { method, auth, ...(method === 'POST' ? { body: '{}' } : {}) });
        t.equal(res.status, 401, `${method} ${path} with ${auth === null ? 'no key' : 'a bad key'}`);
        t.match(res.json, { status: 401, code: String, message: String });
        t.match(res.headers['www-authenticate'], /^Bearer /);
      }
    }
    t.equal((await call(`${base}/pets`, { auth: `bearer ${KEY}` })).status, 200, 'the scheme is case-insensitive');
  });
});

t.test('createPet validates, assigns ids and reads back exactly, beyond 2^53 too', async (t) => {
  await withServer({ firstId: 2n ** 60n }, async (base) => {
    const created = await call(`${base}/pets`, { method: 'POST', body: '{"name":"Rex","categoryId":9223372036854775807,"status":"sold"}' });
    t.equal(created.status, 201);
    const pet = created.json as { id: bigint; categoryId: bigint };
    t.equal(pet.categoryId, 9223372036854775807n);
    t.ok(typeof pet.id === 'bigint' && pet.id > 2n ** 60n, 'ids above 2^53 are handed out exactly');
    const read = await call(`${base}/pets/${pet.id}`);
    t.same(read.json, pet);
    t.equal(read.headers['sunset'], 'Thu, 05 Dec 2030 00:00:00 GMT');
    t.equal(read.headers['deprecation'], '@1735689600');
    for (const bad of [
      '',
      'null',
      '[]',
      '{"categoryId":1}',
      '{"name":"a"}',
      '{"name":1,"categoryId":1}',
      '{"name":"a","categoryId":1.5}',
      '{"name":"a","categoryId":9223372036854775808}',
      '{"name":"a","categoryId":1,"status":"lost"}',
      'nope',
    ]) {
      const res = await call(`${base}/pets`, { method: 'POST', body: bad });
      t.equal(res.status, 400, `400 for ${bad || 'an empty body'}`);
      t.match(res.json, { status: 400 });
    }
    t.equal((await call(`${base}/pets`, { method: 'POST', body: '{"name":"a","categoryId":1}', type: 'text/plain' })).status, 400);
    // Invalid UTF-8 is not JSON: a stray continuation byte, an overlong slash, a truncated sequence, an encoded surrogate.
    for (const bytes of ['80', 'c0af', 'e282', 'eda080']) {
      const body = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from(bytes, 'hex'), Buffer.from('","categoryId":1}')]);
      const res = await request(`${base}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body,
      });
      t.equal(res.statusCode, 400, `invalid UTF-8 (${bytes}) is refused`);
      t.match(parseExactJson(await res.body.text()), { code: 'invalid_json', status: 400 });
    }
    const lone = await call(`${base}/pets`, { method: 'POST', body: '{"name":"Rex \\ud83d","categoryId":1}' });
    t.equal(lone.status, 201, 'a lone surrogate escape is JSON: taken');
    t.equal((lone.json as { name: string }).name, 'Rex \ud83d', 'and given back exactly');
    t.equal((await call(`${base}/pets/123456789`)).status, 404);
    t.equal((await call(`${base}/pets/abc`)).status, 400);
  });
});

t.test('getPet is gone on and after its removal date', async (t) => {
  await withServer({ now: () => new Date('2030-12-05T00:00:00Z') }, async (base) => {
    const res = await call(`${base}/pets/1`);
    t.equal(res.status, 410);
    t.match(res.json, { status: 410 });
  });
});

t.test('a request target is read as URL parsing reads it, with or without the fast path', async (t) => {
  const targets = [
    '/v1/pets',
    '/v1/pets?limit=5&status=sold',
    '/v1/pets?limit=1+2',
    '/v1/pets/',
    '/v1//pets',
    '//v1/pets',
    '/v1/./pets',
    '/v1/a/../pets',
    '/v1/pets?limit=%35',
    '/v1/p%65ts',
    '/v1\\pets',
    '/',
    '/v1/pets?',
    '/v1/pets?a=1&a=2',
    '/v1/pets#x',
    '/v1/pets/9223372036854775807',
  ];
  for (const target of targets) {
    const url = new URL(target, 'http://localhost');
    const { path, query } = pathAndQuery(target);
    t.same([path, [...query]], [url.pathname, [...url.searchParams]], target);
  }
});
