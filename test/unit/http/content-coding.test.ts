/** Content coding: the client asks for the codings it decodes, decodes them within the size bound, and a store that compresses unasked passes. */
import t from 'tap';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { decodeBody } from '../../../src/http/content-coding.js';

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
