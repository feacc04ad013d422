/** Text encoded in UTF-16 or UTF-32 (either byte order, with or without a byte order mark): bodies JSON does not allow. */
import type { BodyEncoding } from './scenario.js';

/** The byte order mark U+FEFF. */
const BOM = 0xfeff;

/** The code units of `text` in UTF-16 (a lone surrogate kept as it is). */
function utf16Units(text: string): number[] {
  const units: number[] = [];
  for (let i = 0; i < text.length; i++) units.push(text.charCodeAt(i));
  return units;
}

/** The code points of `text` (a lone surrogate kept as its own value). */
function codePoints(text: string): number[] {
  const points: number[] = [];
  for (const character of text) points.push(character.codePointAt(0) as number);
  return points;
}

/** `text` as bytes in the charset, the byte order mark first when asked for. */
export function encodeText(text: string, encoding: BodyEncoding): Buffer {
  const wide = encoding.charset.startsWith('utf-32');
  const little = encoding.charset.endsWith('le');
  const values = [...(encoding.byteOrderMark ? [BOM] : []), ...(wide ? codePoints(text) : utf16Units(text))];
  const size = wide ? 4 : 2;
  const bytes = Buffer.alloc(values.length * size);
  values.forEach((value, index) => {
    const at = index * size;
    if (wide && little) bytes.writeUInt32LE(value, at);
    else if (wide) bytes.writeUInt32BE(value, at);
    else if (little) bytes.writeUInt16LE(value, at);
    else bytes.writeUInt16BE(value, at);
  });
  return bytes;
}
