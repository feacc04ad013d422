/** Text bounded for reports: a server may send megabytes, and a message or a detail carries a few KiB of it at most. */

/** The longest message, expected or actual value a check outcome keeps (in characters). */
const MAX_DETAIL_CHARS = 4096;
/** The most failures one check outcome keeps; the rest are counted in a last one. */
export const MAX_FAILURES = 50;

/**
 * A copy of a part of `text` that holds nothing of the whole: V8 keeps a slice as a view of its parent, so a few KiB
 * cut from a 4 MB body kept in a report would keep the 4 MB alive until the run ends. UTF-16 keeps lone surrogates as they are.
 */
function detachedSlice(text: string, start: number, end: number): string {
  return Buffer.from(text.slice(start, end), 'utf16le').toString('utf16le');
}

/**
 * `text` cut at `max` characters, saying how much more there was: `…… 3875001 more bytes`; a copy of its own either way,
 * since a short message may be built of a slice of a body (`not JSON: [99999…`) that would keep the whole body alive.
 */
export function boundedText(text: string, max = MAX_DETAIL_CHARS): string {
  if (text.length <= max) return detachedSlice(text, 0, text.length);
  // Never cut a surrogate pair in two.
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${detachedSlice(text, 0, end)}… ${Buffer.byteLength(text.slice(end))} more bytes`;
}
