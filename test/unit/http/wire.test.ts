/**
 * The HTTP/1.1 real servers speak, as raw bytes from a `net` server on 127.0.0.1, read the same by the run's client and by
 * a load connection: interim 100 and 103 responses, an obs-fold, a 40 KB head, Content-Length beside Transfer-Encoding, a
 * repeated Content-Length and bare LF line ends are answers; a head over --max-header-bytes and bytes that are not HTTP
 * are refused alike, named, and never taken for a server that stopped answering. A createPet is sent once whatever comes
 * before its answer, and a whole run (and its load) against a conformant store that sends 100 Continue first passes.
 */
import t from 'tap';
import { createServer, type Socket } from 'node:net';
import type { Client, HttpClientOptions } from '../../../src/http/client.js';
import { openClient } from '../../../src/http/open-client.js';
import { RequestFraming } from '../../../src/http/framing.js';
import { preflight } from '../../../src/http/preflight.js';
import { proxyEnvironment } from '../../../src/http/proxy.js';
import { type OutgoingRequest, TransportError } from '../../../src/http/sender.js';
import { type FailureCause, type InFlight, LoadConnection, requestBytes } from '../../../src/load/load-connection.js';
import { RunError } from '../../../src/model/errors.js';
import { listenLocally } from '../../helpers.js';

const KEY = 'wire-test-key-5b9e0c';
const list: OutgoingRequest = { method: 'GET', path: '/pets', query: [], headers: {}, auth: 'valid', operation: 'listPets' };
const create: OutgoingRequest = {
  method: 'POST',
  path: '/pets',
  query: [],
  headers: {},
  json: { name: 'once', categoryId: 1 },
  auth: 'valid',
  operation: 'createPet',
};

const answer = (body: string, extra = ''): string =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** What a request came to: `200 <body>`, or the code of why it has no answer. */
type Outcome = string;

/** Bytes a server sends for every request, and what both readers make of them. */
const CASES: Array<{ name: string; bytes: string; expect: Outcome; message?: RegExp; maxHeaderBytes?: number }> = [
  { name: 'an unasked 100 Continue first', bytes: `HTTP/1.1 100 Continue\r\n\r\n${answer('[]')}`, expect: '200 []' },
  {
    name: 'a 103 Early Hints first',
    bytes: `HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n${answer('[]')}`,
    expect: '200 []',
  },
  {
    name: 'a 102 and a 100 first',
    bytes: `HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n${answer('[]')}`,
    expect: '200 []',
  },
  { name: 'an obs-fold', bytes: answer('[]', 'X-Folded: first\r\n second\r\n'), expect: '200 []' },
  { name: 'a 40 KB head', bytes: answer('[]', `X-Pad: ${'p'.repeat(40 * 1024)}\r\n`), expect: '200 []' },
  {
    name: 'Content-Length beside Transfer-Encoding (chunked wins)',
    bytes:
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 9\r\ntransfer-encoding: chunked\r\n\r\n3\r\n[1]\r\n0\r\n\r\n',
    expect: '200 [1]',
  },
  { name: 'a Content-Length given twice', bytes: answer('[]', 'Content-Length: 2\r\n'), expect: '200 []' },
  {
    name: 'a chunk extension and trailers',
    bytes: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2;ext=1\r\n[]\r\n0\r\nx-trailer: 1\r\n\r\n',
    expect: '200 []',
  },
  { name: 'a status line without a reason phrase', bytes: 'HTTP/1.1 200\r\ncontent-length: 2\r\n\r\n[]', expect: '200 []' },
  {
    name: 'a Content-Length that is not digits',
    bytes: 'HTTP/1.1 200 OK\r\ncontent-length: +2\r\n\r\n[]',
    expect: 'ERR_HTTP_PROTOCOL',
    message: /^an invalid HTTP response: an invalid Content-Length: "\+2"$/,
  },
  { name: 'a 304 with the length of what it stands for', bytes: 'HTTP/1.1 304 Not Modified\r\ncontent-length: 10\r\n\r\n', expect: '304 ' },
  { name: 'bare LF line ends', bytes: 'HTTP/1.1 200 OK\ncontent-type: application/json\ncontent-length: 2\n\n[]', expect: '200 []' },
  {
    name: 'a 100 KB head',
    bytes: answer('[]', `X-Pad: ${'p'.repeat(100 * 1024)}\r\n`),
    expect: 'ERR_HEAD_TOO_LARGE',
    message: /^the response head is larger than 65536 bytes, this client's limit \(--max-header-bytes raises it\)$/,
  },
  {
    name: 'a 40 KB head over a --max-header-bytes of 16384',
    bytes: answer('[]', `X-Pad: ${'p'.repeat(40 * 1024)}\r\n`),
    expect: 'ERR_HEAD_TOO_LARGE',
    message: /larger than 16384 bytes.*--max-header-bytes/,
    maxHeaderBytes: 16_384,
  },
  {
    name: 'a status line that is not HTTP',
    bytes: 'HTTP/1.1 two hundred\r\n\r\n',
    expect: 'ERR_HTTP_PROTOCOL',
    message: /^an invalid HTTP response: not an HTTP\/1\.x status line/,
  },
  {
    name: 'a chunk size that is not hex',
    bytes: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
    expect: 'ERR_HTTP_PROTOCOL',
    message: /^an invalid HTTP response: an invalid chunk size/,
  },
];

/**
 * A `net` server on 127.0.0.1 that answers every request (head and Content-Length body read) with `bytes` (or the bytes for
 * its target); it counts them by method.
 */
async function rawServer(bytes: string | ((target: string) => string)): Promise<{ base: string; requests: Record<string, number> }> {
  const requests: Record<string, number> = {};
  const server = createServer((socket: Socket) => {
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = pending.toString('latin1', 0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        pending = pending.subarray(end + 4 + length);
        const [method = '', target = ''] = head.split(' ');
        requests[method] = (requests[method] ?? 0) + 1;
        socket.write(Buffer.from(typeof bytes === 'string' ? bytes : bytes(target), 'latin1'));
      }
    });
  });
  return { base: await listenLocally(server), requests };
}

/** The run's client with short bounds. */
function client(base: string, more: Partial<HttpClientOptions> = {}): Client {
  return openClient({
    baseUrl: base,
    apiKey: KEY,
    connectTimeoutMs: 1000,
    headersTimeoutMs: 1000,
    requestTimeoutMs: 2000,
    maxResponseBytes: 64 * 1024,
    connections: 2,
    ...more,
  });
}

/** What the run's client makes of one request, and the failure's words when it failed. */
async function viaClient(http: Client, request: OutgoingRequest): Promise<{ outcome: Outcome; message?: string }> {
  try {
    const { response } = await http.send(request);
    return { outcome: `${response.status} ${response.bodyText}` };
  } catch (error) {
    if (error instanceof TransportError) return { outcome: error.code, message: error.message };
    throw error;
  }
}

/** What one load connection makes of one listing, and the cause's words when it failed. */
async function viaLoad(base: string, maxHeaderBytes?: number): Promise<{ outcome: Outcome; message?: string }> {
  const framing = new RequestFraming(base, KEY, {});
  const settings = maxHeaderBytes === undefined ? {} : { maxHeaderBytes };
  return new Promise((resolve) => {
    const connection = new LoadConnection(
      { base: framing.base, proxy: undefined, settings, maxBodyBytes: 64 * 1024 },
      {
        keepsBody: () => true,
        oversize: () => undefined,
        answered: (_c, flight: InFlight) => {
          connection.end();
          resolve({ outcome: `${flight.status} ${Buffer.concat(flight.body ?? []).toString()}` });
        },
        failed: (_c, _flight, cause: FailureCause) => {
          connection.end();
          resolve({ outcome: cause.code, message: cause.message });
        },
        resent: () => undefined,
      },
    );
    const bytes = requestBytes(framing.frame(list), undefined);
    connection.send({ target: '/pets', query: { weight: 1 }, bytes }, performance.now(), performance.now());
  });
}

for (const c of CASES) {
  t.test(`${c.name}: the run's client and a load connection read it alike`, async (t) => {
    const { base, requests } = await rawServer(c.bytes);
    const http = client(base, c.maxHeaderBytes === undefined ? {} : { maxHeaderBytes: c.maxHeaderBytes });
    t.teardown(() => http.close());
    const run = [await viaClient(http, list), await viaClient(http, create)];
    t.same(
      run.map((r) => r.outcome),
      [c.expect, c.expect],
      'the run: a listing and a create',
    );
    t.equal(requests['POST'], 1, 'the create was sent once');
    const load = await viaLoad(base, c.maxHeaderBytes);
    t.equal(load.outcome, c.expect, 'the load connection: the same');
    if (c.message === undefined)
      t.equal((await viaClient(http, list)).outcome, c.expect, 'and the next listing on a kept-alive connection');
    else {
      t.match(load.message, c.message, 'the load names it');
      t.match(run[0]?.message, c.message, 'the run names it in the same words');
    }
  });
}

t.test('answers that cannot be read, in a row: the run stops saying the server answers, never that it stopped answering', async (t) => {
  const { base } = await rawServer(answer('[]', `X-Pad: ${'p'.repeat(100 * 1024)}\r\n`));
  const http = client(base, { alive: list });
  t.teardown(() => http.close());
  const outcomes = [];
  for (let i = 0; i < 3; i++) outcomes.push(await http.send(list).catch((error: unknown) => error));
  t.ok(outcomes.slice(0, 2).every((e) => e instanceof TransportError && e.unreadable && e.code === 'ERR_HEAD_TOO_LARGE'));
  const stopped = outcomes[2] as RunError;
  t.ok(stopped instanceof RunError, 'the third, with the plain listing unreadable too, stops the client');
  t.equal(stopped.code, 'ERR_UNREADABLE');
  t.match(stopped.message, /^the server answers, but 3 answers in a row could not be read, the plain listing's too \(last: GET \/pets: /);
  t.match(stopped.message, /--max-header-bytes raises it/);
  t.notMatch(stopped.message, /stopped answering/);
});

t.test('a body that breaks HTTP/1.1 after its head is an answer cut short while the plain listing is answered', async (t) => {
  const broken = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[]\r\nzz\r\n';
  const { base } = await rawServer((target) => (target.endsWith('/pets') ? answer('[]') : broken));
  const http = client(base, { alive: list });
  t.teardown(() => http.close());
  const error = (await http.send({ ...list, path: '/pets/1', operation: 'getPet' }).catch((e: unknown) => e)) as TransportError;
  t.match(
    { code: error.code, unreadable: error.unreadable, beforeResponse: error.beforeResponse, answeredMeanwhile: error.answeredMeanwhile },
    { code: 'ERR_HTTP_PROTOCOL', unreadable: true, beforeResponse: false, answeredMeanwhile: 1 },
    'server.answers judges it as any answer cut short (the listing was answered)',
  );
  t.equal(http.stopped, undefined, 'and the run goes on');
});

t.test('the preflight says an unreadable first answer is an answer, and what it was', async (t) => {
  const { base } = await rawServer('HTTP/1.1 two hundred\r\n\r\n');
  const http = client(base);
  t.teardown(() => http.close());
  const error = (await preflight(http, list, false).catch((e: unknown) => e)) as RunError;
  t.equal(error.code, 'ERR_UNREADABLE');
  t.equal(
    error.message,
    `${base} answered GET /pets, but the answer cannot be read: ` +
      'an invalid HTTP response: not an HTTP/1.x status line: "HTTP/1.1 two hundred" (ERR_HTTP_PROTOCOL)',
  );
});

t.test('a HEAD is answered without a body whatever its head says, and the next request is read as ever', async (t) => {
  const { base } = await rawServer('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5\r\n\r\n');
  const http = client(base);
  t.teardown(() => http.close());
  t.equal((await viaClient(http, { ...list, method: 'HEAD' })).outcome, '200 ', 'no body read for the HEAD');
  t.equal((await viaClient(http, { ...list, method: 'HEAD' })).outcome, '200 ', 'nor for the next');
});

t.test('a proxy that refuses, says nothing or asks for credentials is named, with its variable and what to do', async (t) => {
  const silent = createServer((socket) => socket.on('error', () => undefined));
  const silentUrl = (await listenLocally(silent)).replace(/\/v1$/, '');
  const asking = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () =>
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic\r\ncontent-length: 0\r\n\r\n'),
    );
  });
  const askingUrl = (await listenLocally(asking)).replace(/\/v1$/, '');
  const closed = createServer();
  const closedUrl = (await listenLocally(closed)).replace(/\/v1$/, '');
  await new Promise((resolve) => closed.close(resolve));
  const https = 'https://svc.example:8443/v1';
  const http = 'http://svc.example:8080/v1';
  const todo = ': check that the proxy runs and lets the suite through, or list svc.example in NO_PROXY to go around it';
  // Each message as said, the proxy's port written P (the refusal's own words, the system's, left out).
  const rows: Array<[string, string, Record<string, string>, string]> = [
    [
      'refused, https',
      https,
      { HTTPS_PROXY: closedUrl },
      `cannot reach ${https}: the proxy http://P/ (HTTPS_PROXY) could not be reached (connect ECONNREFUSED …) (ECONNREFUSED)${todo}`,
    ],
    [
      'refused, http',
      http,
      { http_proxy: closedUrl },
      `cannot reach ${http}: the proxy http://P/ (http_proxy) could not be reached (connect ECONNREFUSED …) (ECONNREFUSED)${todo}`,
    ],
    [
      'silent, https',
      https,
      { HTTPS_PROXY: silentUrl },
      `cannot reach ${https}: the proxy http://P/ (HTTPS_PROXY) did not open a tunnel to svc.example:8443 within 300 ms ` +
        `(ERR_PROXY_TIMEOUT)${todo}`,
    ],
    [
      'silent, http',
      http,
      { HTTP_PROXY: silentUrl },
      `cannot reach ${http} through the proxy http://P/ (HTTP_PROXY): no response headers within 300 ms (UND_ERR_HEADERS_TIMEOUT)${todo}`,
    ],
    [
      'asking for credentials, https',
      https,
      { HTTPS_PROXY: askingUrl },
      `cannot reach ${https}: the proxy http://P/ (HTTPS_PROXY) did not open a tunnel to svc.example:8443 ` +
        '(407 Proxy Authentication Required): give its credentials in its URL (http://user:password@host:port) (ERR_PROXY_AUTH)',
    ],
    [
      'asking for credentials, http',
      http,
      { HTTP_PROXY: askingUrl },
      `cannot reach ${http}: the proxy http://P/ (HTTP_PROXY) asked for credentials (407): ` +
        'give them in its URL (http://user:password@host:port) (ERR_PROXY_AUTH)',
    ],
  ];
  for (const [name, base, env, expected] of rows) {
    const proxied = client(base, { proxies: proxyEnvironment(env), connectTimeoutMs: 300, headersTimeoutMs: 300 });
    const started = performance.now();
    const error = (await preflight(proxied, list, false).catch((e: unknown) => e)) as RunError;
    await proxied.close();
    t.equal(error.message.replace(/127\.0\.0\.1:\d+/g, 'P').replace(/ECONNREFUSED P/, 'ECONNREFUSED …'), expected, name);
    t.ok(performance.now() - started < 5000, `${name}: within the bounds`);
  }
});

t.test(
  'a chunked body goes out chunked, with no Content-Length, its first chunk with its head; a server that answers from the head and closes is heard',
  async (t) => {
    const received: string[] = [];
    const server = createServer((socket: Socket) => {
      socket.on('error', () => undefined);
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (!text.includes('\r\n\r\n')) return;
        received.push(text);
        // As Werkzeug answers a keyless create: from the head, then a close without reading the body.
        socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}');
      });
    });
    const base = await listenLocally(server);
    const http = client(base);
    t.teardown(() => http.close());
    const outcomes = [];
    for (let i = 0; i < 10; i++) outcomes.push((await viaClient(http, { ...create, chunked: true, auth: 'none' })).outcome);
    t.same([...new Set(outcomes)], ['401 {}'], 'each of 10 answers read, none lost to the close');
    const first = received[0] ?? '';
    t.match(first, /\r\ntransfer-encoding: chunked\r\n/i, 'chunked on the wire');
    t.notMatch(first, /\r\ncontent-length:/i, 'with no Content-Length');
    t.match(first, /\r\n\r\n[0-9a-f]+\r\n\{"name":"once",/, 'the first chunk in the bytes the head came with');
  },
);
