/** UTF-8 validation with the offset of the first invalid byte (RFC 3629), as wire.json-body reports it. */
import t from 'tap';
import { invalidUtf8Offset, invalidUtf8Position } from '../../../src/model/utf8.js';

const rows: Array<{ name: string; bytes: number[]; cut?: boolean; offset: number | undefined }> = [
  { name: 'ASCII', bytes: [0x5b, 0x5d], offset: undefined },
  { name: 'é, €, 😀', bytes: [...Buffer.from('é€😀')], offset: undefined },
  { name: 'a Latin-1 é (0xE9) alone', bytes: [0x22, 0xe9, 0x22], offset: 1 },
  { name: 'a stray continuation byte', bytes: [0x61, 0x80], offset: 1 },
  { name: 'an overlong slash (C0 AF)', bytes: [0x61, 0xc0, 0xaf], offset: 1 },
  { name: 'an overlong three-byte form (E0 80 AF)', bytes: [0xe0, 0x80, 0xaf], offset: 0 },
  { name: 'a surrogate (ED A0 80)', bytes: [0x61, 0x62, 0xed, 0xa0, 0x80], offset: 2 },
  { name: 'above U+10FFFF (F4 90 80 80)', bytes: [0xf4, 0x90, 0x80, 0x80], offset: 0 },
  { name: 'F5 never starts a sequence', bytes: [0xf5, 0x80, 0x80, 0x80], offset: 0 },
  { name: 'a sequence cut short by the next character', bytes: [0xe2, 0x82, 0x41], offset: 0 },
  { name: 'a sequence cut at the end of the body', bytes: [0x41, 0xe2, 0x82], offset: 1 },
  { name: 'the same, cut by the size cap, is not counted', bytes: [0x41, 0xe2, 0x82], cut: true, offset: undefined },
];

t.test('the first invalid byte is found, or none', async (t) => {
  for (const row of rows) t.equal(invalidUtf8Offset(Uint8Array.from(row.bytes), row.cut), row.offset, row.name);
});

t.test(
  'the first invalid byte is located at line:col (characters of the valid text before it on its line) with the bytes of its sequence',
  async (t) => {
    const bytes = (...parts: Array<string | number[]>): Uint8Array =>
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
    const rows: Array<{
      name: string;
      bytes: Uint8Array;
      at: { offset: number; line: number; column: number; bytes: number[] } | undefined;
    }> = [
      { name: 'valid text', bytes: bytes('title: café 😀\n'), at: undefined },
      { name: 'the very first byte', bytes: bytes([0xff], 'abc'), at: { offset: 0, line: 1, column: 1, bytes: [0xff] } },
      {
        name: 'a Latin-1 é on line 3',
        bytes: bytes('a: 1\nb: 2\n# caf', [0xe9], ' t'),
        at: { offset: 15, line: 3, column: 6, bytes: [0xe9, 0x20, 0x74] },
      },
      {
        name: 'after multi-byte characters: counted as characters, not bytes',
        bytes: bytes('x\né€😀', [0x80]),
        at: { offset: 11, line: 2, column: 4, bytes: [0x80] },
      },
      { name: 'the first byte of a line', bytes: bytes('one\n', [0xc3, 0x28]), at: { offset: 4, line: 2, column: 1, bytes: [0xc3, 0x28] } },
      {
        name: 'CRLF line ends: the line feed ends the line',
        bytes: bytes('a\r\nbc', [0xe2, 0x82]),
        at: { offset: 5, line: 2, column: 3, bytes: [0xe2, 0x82] },
      },
      {
        name: 'a sequence cut by the end of the text: the bytes there are',
        bytes: bytes('ab', [0xf0, 0x9f]),
        at: { offset: 2, line: 1, column: 3, bytes: [0xf0, 0x9f] },
      },
      { name: 'a surrogate', bytes: bytes('k: ', [0xed, 0xa0, 0x80]), at: { offset: 3, line: 1, column: 4, bytes: [0xed, 0xa0, 0x80] } },
      { name: 'an overlong form', bytes: bytes([0xc0, 0xaf]), at: { offset: 0, line: 1, column: 1, bytes: [0xc0] } },
      {
        name: 'a subarray of a larger buffer',
        bytes: bytes('\n\nzz', [0xfe]).subarray(2),
        at: { offset: 2, line: 1, column: 3, bytes: [0xfe] },
      },
      { name: 'empty', bytes: new Uint8Array(0), at: undefined },
    ];
    for (const row of rows) t.same(invalidUtf8Position(row.bytes), row.at, row.name);
  },
);
