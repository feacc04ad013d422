/** UTF-8 validation with the offset of the first invalid byte (RFC 3629), as wire.json-body reports it. */
import t from 'tap';
import { invalidUtf8Offset } from '../dist/model/utf8.js';

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
