/** Bodies in UTF-16 and UTF-32, either byte order, with and without a byte order mark: the bytes each charset defines. */
import t from 'tap';
import { encodeText } from '../../../src/model/text-encodings.js';
import type { BodyEncoding } from '../../../src/model/scenario.js';

const rows: Array<{ encoding: BodyEncoding; text: string; hex: string }> = [
  { encoding: { charset: 'utf-16le', byteOrderMark: false }, text: '{}', hex: '7b007d00' },
  { encoding: { charset: 'utf-16le', byteOrderMark: true }, text: '{}', hex: 'fffe7b007d00' },
  { encoding: { charset: 'utf-16be', byteOrderMark: false }, text: '{}', hex: '007b007d' },
  { encoding: { charset: 'utf-16be', byteOrderMark: true }, text: '{}', hex: 'feff007b007d' },
  { encoding: { charset: 'utf-32le', byteOrderMark: false }, text: '{}', hex: '7b0000007d000000' },
  { encoding: { charset: 'utf-32le', byteOrderMark: true }, text: '{', hex: 'fffe00007b000000' },
  { encoding: { charset: 'utf-32be', byteOrderMark: false }, text: '{}', hex: '0000007b0000007d' },
  { encoding: { charset: 'utf-32be', byteOrderMark: true }, text: '{', hex: '0000feff0000007b' },
  // Outside the BMP: a surrogate pair in UTF-16, one code unit in UTF-32.
  { encoding: { charset: 'utf-16le', byteOrderMark: false }, text: '\u{1f436}', hex: '3dd836dc' },
  { encoding: { charset: 'utf-32be', byteOrderMark: false }, text: '\u{1f436}', hex: '0001f436' },
];

for (const { encoding, text, hex } of rows)
  t.test(`${JSON.stringify(text)} in ${encoding.charset}${encoding.byteOrderMark ? ' with a BOM' : ''}`, async (t) => {
    t.equal(encodeText(text, encoding).toString('hex'), hex);
  });
