/** UTF-8 validation that says where: JSON exchanged between systems must be UTF-8 (RFC 8259 §8.1). */
import { isUtf8 } from 'node:buffer';

/** The length of the sequence a lead byte starts, or 0 when it cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** The allowed range of the byte after a lead byte (RFC 3629 §4: no overlong forms, no surrogates, nothing above U+10FFFF). */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/**
 * The byte offset of the first byte that is not valid UTF-8, or undefined when all of it is. With `cut`, a sequence
 * left incomplete at the very end is not counted (the bytes were cut there, not sent that way).
 */
export function invalidUtf8Offset(bytes: Uint8Array, cut = false): number | undefined {
  if (isUtf8(bytes)) return undefined;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    const length = sequenceLength(lead);
    if (length === 0) return i;
    if (length > 1) {
      if (i + length > bytes.length) return cut ? undefined : i;
      const [low, high] = secondByteRange(lead);
      const second = bytes[i + 1] as number;
      if (second < low || second > high) return i;
      for (let k = 2; k < length; k++) {
        const next = bytes[i + k] as number;
        if (next < 0x80 || next > 0xbf) return i;
      }
    }
    i += length;
  }
  return undefined;
}

/** Where a text stops being UTF-8: the first invalid byte, its line and column, and the bytes of the sequence it would start. */
export interface Utf8Position {
  /** Byte offset of the first invalid byte. */
  offset: number;
  /** 1-based line: one more than the line feeds before the byte. */
  line: number;
  /**
   * 1-based column: one more than the characters (Unicode code points, so an emoji is one) of the valid text between the
   * line's start and the byte, which is what an editor opening the file as UTF-8 shows before the damage.
   */
  column: number;
  /** The byte and those after it that its sequence would take (one byte when it can start none), cut at the end of the text. */
  bytes: number[];
}

/** The first invalid byte of a text and where it stands, or undefined when all of it is valid UTF-8. */
export function invalidUtf8Position(bytes: Uint8Array): Utf8Position | undefined {
  const offset = invalidUtf8Offset(bytes);
  if (offset === undefined) return undefined;
  // (lastIndexOf from -1 would search from the end.)
  const lineStart = offset === 0 ? 0 : bytes.lastIndexOf(0x0a, offset - 1) + 1;
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < offset; i = bytes.indexOf(0x0a, i + 1)) line++;
  // Everything before the offset is valid UTF-8, so it decodes without a replacement character.
  const column = [...Buffer.from(bytes.buffer, bytes.byteOffset + lineStart, offset - lineStart).toString('utf8')].length + 1;
  const lead = bytes[offset] as number;
  const length = Math.max(1, sequenceLength(lead));
  return { offset, line, column, bytes: [...bytes.subarray(offset, offset + length)] };
}
