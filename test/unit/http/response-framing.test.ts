/**
 * The HTTP/1.1 response framing the functional client (under undici) and the load connections share: framing, fed whole
 * and split at every byte; what real servers send (interim responses, obs-fold, both lengths, bare LF) read as RFC 9112
 * allows; and each head's strict form.
 */
import t from 'tap';
import { DEFAULT_MAX_HEAD_BYTES, ProtocolError, parseHead, ResponseParser } from '../../../src/http/response-framing.js';

interface Seen {
  responses: Array<{ status: number; body: string; close: boolean }>;
  error?: string;
}

/** Feeds the bytes in the given pieces, then ends the connection when asked; what the parser reported. */
function parse(pieces: readonly Buffer[], endConnection: boolean): Seen {
  const seen: Seen = { responses: [] };
  let current: { status: number; body: string } | undefined;
  const parser = new ResponseParser({
    onHead: ({ status }) => {
      current = { status, body: '' };
    },
    onBody: (bytes) => {
      if (current) current.body += bytes.toString('latin1');
    },
    onComplete: (close) => {
      if (current) seen.responses.push({ ...current, close });
      current = undefined;
    },
  });
  try {
    for (const piece of pieces) parser.feed(piece);
    if (endConnection) parser.end();
  } catch (error) {
    seen.error = error instanceof ProtocolError ? error.message : `not a ProtocolError: ${String(error)}`;
  }
  return seen;
}

/** Every way to cut the bytes in two, and the bytes one at a time. */
function splits(bytes: Buffer): Buffer[][] {
  const ways: Buffer[][] = [[bytes], [...bytes].map((b) => Buffer.from([b]))];
  for (let at = 1; at < bytes.length; at++) ways.push([bytes.subarray(0, at), bytes.subarray(at)]);
  return ways;
}

const ok = (body: string, extra = ''): string =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

const cases: Array<{ name: string; bytes: string; end?: boolean; expect: Seen }> = [
  { name: 'Content-Length', bytes: ok('[1,2]'), expect: { responses: [{ status: 200, body: '[1,2]', close: false }] } },
  {
    name: 'two responses in one read (keep-alive)',
    bytes: ok('[]') + ok('[1]'),
    expect: {
      responses: [
        { status: 200, body: '[]', close: false },
        { status: 200, body: '[1]', close: false },
      ],
    },
  },
  {
    name: 'chunked, with an extension and trailers',
    bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;x=1\r\n[1\r\n1\r\n]\r\n0\r\nX-Trailer: a\r\n\r\n',
    expect: { responses: [{ status: 200, body: '[1]', close: false }] },
  },
  {
    name: 'chunked wins over Content-Length',
    bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n',
    expect: { responses: [{ status: 200, body: '[]', close: false }] },
  },
  {
    name: 'close-delimited HTTP/1.0 (no length): complete at the close',
    bytes: 'HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n[1,2,3]',
    end: true,
    expect: { responses: [{ status: 200, body: '[1,2,3]', close: true }] },
  },
  {
    name: 'HTTP/1.0 with a length closes unless keep-alive',
    bytes: 'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n[]',
    expect: { responses: [{ status: 200, body: '[]', close: true }] },
  },
  {
    name: 'HTTP/1.0 keep-alive',
    bytes: 'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\n[]',
    expect: { responses: [{ status: 200, body: '[]', close: false }] },
  },
  {
    name: 'Connection: close',
    bytes: ok('[]', 'Connection: close\r\n'),
    expect: { responses: [{ status: 200, body: '[]', close: true }] },
  },
  {
    name: 'a 100 Continue before the answer is skipped',
    bytes: `HTTP/1.1 100 Continue\r\n\r\n${ok('[]')}`,
    expect: { responses: [{ status: 200, body: '[]', close: false }] },
  },
  {
    name: '204 and 304 have no body',
    bytes: 'HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n',
    expect: {
      responses: [
        { status: 204, body: '', close: false },
        { status: 304, body: '', close: false },
      ],
    },
  },
  {
    name: 'a 500 with an Error body',
    bytes: 'HTTP/1.1 500 Internal Server Error\r\nContent-Length: 2\r\n\r\n{}',
    expect: { responses: [{ status: 500, body: '{}', close: false }] },
  },
  {
    name: 'a status line without a reason phrase',
    bytes: 'HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n',
    expect: { responses: [{ status: 200, body: '', close: false }] },
  },
  {
    name: 'not HTTP',
    bytes: 'SSH-2.0-OpenSSH\r\n\r\n',
    expect: { responses: [], error: 'not an HTTP/1.x status line: "SSH-2.0-OpenSSH"' },
  },
  {
    name: 'a bad Content-Length',
    bytes: 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
    expect: { responses: [], error: 'an invalid Content-Length: "-1"' },
  },
  {
    name: 'two different Content-Lengths',
    bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
    expect: { responses: [], error: 'an invalid Content-Length: "1, 2"' },
  },
  {
    name: 'a bad chunk size',
    bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    expect: { responses: [], error: 'an invalid chunk size: "zz"' },
  },
  {
    name: 'a chunk without its CRLF',
    bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc',
    expect: { responses: [], error: 'a chunk not followed by CRLF' },
  },
  {
    name: 'a transfer coding other than a final chunked: read until the close (RFC 9112 6.3)',
    bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nabc',
    end: true,
    expect: { responses: [{ status: 200, body: 'abc', close: true }] },
  },
  {
    name: 'a 103 Early Hints, then a 102, then the answer',
    bytes: `HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n${ok('[1]')}`,
    expect: { responses: [{ status: 200, body: '[1]', close: false }] },
  },
  {
    name: 'a 100 Continue before each of two answers',
    bytes: `HTTP/1.1 100 Continue\r\n\r\n${ok('[]')}HTTP/1.1 100 Continue\r\n\r\n${ok('[2]')}`,
    expect: {
      responses: [
        { status: 200, body: '[]', close: false },
        { status: 200, body: '[2]', close: false },
      ],
    },
  },
  {
    name: 'an obs-fold (RFC 9112 5.2)',
    bytes: ok('[]', 'X-Folded: a\r\n  b\r\n\tc\r\n'),
    expect: { responses: [{ status: 200, body: '[]', close: false }] },
  },
  {
    name: 'Content-Length beside Transfer-Encoding: chunked wins, whatever the length says',
    bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n[1]\r\n0\r\n\r\n',
    expect: { responses: [{ status: 200, body: '[1]', close: false }] },
  },
  {
    name: 'a Content-Length repeated, and listed, with one value',
    bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2, 2\r\n\r\n[]',
    expect: { responses: [{ status: 200, body: '[]', close: false }] },
  },
  {
    name: 'bare LF line ends, in the head and the chunks (RFC 9112 2.2)',
    bytes: 'HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\n[]\n0\n\n',
    expect: { responses: [{ status: 200, body: '[]', close: false }] },
  },
  {
    name: 'a 101 no request asked for',
    bytes: 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n',
    expect: { responses: [], error: 'a 101 Switching Protocols no request asked for' },
  },
  {
    name: 'a header name that is not a token',
    bytes: 'HTTP/1.1 200 OK\r\nX@Y: 1\r\nContent-Length: 0\r\n\r\n',
    expect: { responses: [], error: 'a header name that is not a token: "X@Y"' },
  },
  {
    name: 'a body cut short by the close',
    bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n[1,',
    end: true,
    expect: { responses: [], error: 'the connection closed in the middle of a response' },
  },
  {
    name: 'a close between responses is no error',
    bytes: ok('[]'),
    end: true,
    expect: { responses: [{ status: 200, body: '[]', close: false }] },
  },
];

t.test('responses are framed the same however the bytes arrive', async (t) => {
  for (const c of cases) {
    const bytes = Buffer.from(c.bytes, 'latin1');
    t.same(parse([bytes], c.end === true), c.expect, c.name);
    const differ = splits(bytes).filter((pieces) => JSON.stringify(parse(pieces, c.end === true)) !== JSON.stringify(c.expect));
    t.same(
      differ.map((pieces) => pieces.map((p) => p.length)),
      [],
      `${c.name}: the same in every split`,
    );
  }
});

t.test('a head without an end is refused once it passes the cap, however it arrives, naming the option that raises it', async (t) => {
  const head = Buffer.from(`HTTP/1.1 200 OK\r\nX-Pad: ${'a'.repeat(DEFAULT_MAX_HEAD_BYTES)}`);
  const words = /^the response head is larger than 65536 bytes, this client's limit \(--max-header-bytes raises it\)$/;
  t.match(parse([head], false).error, words);
  t.match(parse([head.subarray(0, 100), head.subarray(100)], false).error, words);
  const ended = Buffer.from(`HTTP/1.1 200 OK\r\nX-Pad: ${'a'.repeat(40 * 1024)}\r\nContent-Length: 0\r\n\r\n`);
  t.same(parse([ended], false), { responses: [{ status: 200, body: '', close: false }] }, 'a 40 KB head is read');
  const small = new ResponseParser({ onHead: () => undefined, onBody: () => undefined, onComplete: () => undefined }, 'GET', 1024);
  t.throws(() => small.feed(ended), { code: 'ERR_HEAD_TOO_LARGE', message: /larger than 1024 bytes/ }, 'a bound of its own');
});

t.test('each head in the strict form undici parses: folds joined, one length, none beside a transfer coding', async (t) => {
  const cases: Array<[string, string, string, string]> = [
    [
      'plain',
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2',
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2',
      'length',
    ],
    ['no reason phrase', 'HTTP/1.1 200\r\nContent-Length: 2', 'HTTP/1.1 200 \r\nContent-Length: 2', 'length'],
    ['obs-fold', 'HTTP/1.1 200 OK\r\nX-A: a \r\n\t b\r\nContent-Length: 2', 'HTTP/1.1 200 OK\r\nX-A: a b\r\nContent-Length: 2', 'length'],
    [
      'whitespace before the first field',
      'HTTP/1.1 200 OK\r\n X: 1\r\nContent-Length: 2',
      'HTTP/1.1 200 OK\r\nContent-Length: 2',
      'length',
    ],
    [
      'CL and TE',
      'HTTP/1.1 200 OK\r\nContent-Length: 9\r\nTransfer-Encoding: chunked',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked',
      'chunked',
    ],
    [
      'CL repeated',
      'HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\nX: 1\r\ncontent-length: 2',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX: 1',
      'length',
    ],
    [
      'whitespace before a colon',
      'HTTP/1.1 200 OK\r\nX-A : 1\r\nContent-Length: 2',
      'HTTP/1.1 200 OK\r\nX-A: 1\r\nContent-Length: 2',
      'length',
    ],
    [
      'control characters',
      'HTTP/1.1 200 OK\r\nX-A: 1\x01\r2\r\nContent-Length: 2',
      'HTTP/1.1 200 OK\r\nX-A: 1  2\r\nContent-Length: 2',
      'length',
    ],
    ['bare LF', 'HTTP/1.1 204 No Content\nX: 1', 'HTTP/1.1 204 No Content\r\nX: 1', 'none'],
    ['no length', 'HTTP/1.1 200 OK\r\nX: 1', 'HTTP/1.1 200 OK\r\nX: 1', 'until-close'],
    [
      'a 304 with a length',
      'HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\nETag: "a"',
      'HTTP/1.1 304 Not Modified\r\nETag: "a"',
      'none',
    ],
  ];
  for (const [name, head, canonical, framing] of cases) {
    const read = parseHead(head);
    t.equal(read.canonical, canonical, `${name}: its strict form`);
    t.equal(read.framing, framing, `${name}: its body is framed by ${framing}`);
  }
  t.equal(parseHead('HTTP/1.1 200 OK\r\nContent-Length: 5', 'HEAD').framing, 'none', 'no body answers a HEAD');
  t.throws(() => parseHead('HTTP/1.1 200 OK\r\nContent-Length: 1, 2'), { message: 'an invalid Content-Length: "1, 2"' });
});

t.test('a body is handed on in pieces, never gathered: 8 MiB in 64 KiB reads', async (t) => {
  let pieces = 0;
  let bytes = 0;
  let largest = 0;
  const parser = new ResponseParser({
    onHead: () => undefined,
    onBody: (chunk) => {
      pieces += 1;
      bytes += chunk.length;
      largest = Math.max(largest, chunk.length);
    },
    onComplete: () => undefined,
  });
  const size = 8 * 1024 * 1024;
  parser.feed(Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${size}\r\n\r\n`));
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  for (let sent = 0; sent < size; sent += chunk.length) parser.feed(chunk);
  t.equal(bytes, size);
  t.equal(pieces, size / chunk.length);
  t.equal(largest, chunk.length, 'no piece larger than what the socket gave');
});
