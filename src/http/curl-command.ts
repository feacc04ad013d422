/** A `curl` command that repeats a sent request, reading the key from $PETSTORE_API_KEY (never the key itself). */
import type { SentRequest } from '../model/exchange.js';
import { DECODED_CODINGS } from './content-coding.js';
import { shellAuthorization } from './credentials.js';

// Printable ASCII and any non-ASCII character except C1 controls and the Unicode line/paragraph separators.
const SHELL_SAFE = /^[\u0020-\u007e\u00a0-\u2027\u202a-\uffff]*$/u;

/**
 * Quotes one word for a POSIX shell: single quotes when every character is printable, otherwise
 * bash's $'...' form, so a control character never reaches the terminal raw.
 */
export function shellQuote(word: string): string {
  if (SHELL_SAFE.test(word)) return `'${word.replace(/'/g, `'\\''`)}'`;
  let quoted = '';
  for (const char of word) {
    // \xHH of each UTF-8 byte: bash's \u escapes depend on the locale, bytes do not.
    if (char === '\\' || char === "'") quoted += `\\${char}`;
    else if (SHELL_SAFE.test(char)) quoted += char;
    else quoted += [...Buffer.from(char, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
  }
  return `$'${quoted}'`;
}

/** A body that holds a NUL byte (or bytes that are not UTF-8) cannot be a shell word; printf writes it to curl's standard input instead. */
function printfFormat(body: Buffer): string {
  let format = '';
  for (const byte of body) {
    if (byte === 0x25) format += '%%';
    else if (byte === 0x5c) format += '\\\\';
    else if (byte < 0x20 || byte >= 0x7f) format += `\\${byte.toString(8).padStart(3, '0')}`;
    else format += String.fromCharCode(byte);
  }
  return shellQuote(format);
}

/** Runs of one byte at least this long are written by `head | tr`, not spelled out: a 1 MiB name stays a short command. */
const LONG_RUN = 256;

/** A body shorter than this is spelled out whatever runs it holds: only a long one is worth scanning for runs. */
const LONG_BODY = 4096;

/** The runs of one byte at least LONG_RUN long, in order: [start, end) each. */
function longRuns(body: Buffer): Array<[start: number, end: number]> {
  const runs: Array<[number, number]> = [];
  // Such a run holds two bytes half its length apart with only its byte between them: only bytes at multiples of the half
  // are compared, and the bytes of a run found are walked once (a 1 MiB body without one is 8,000 comparisons, not a million).
  const half = LONG_RUN / 2;
  for (let probe = 0; probe + half < body.length; probe += half) {
    const byte = body[probe];
    if (body[probe + half] !== byte) continue;
    let start = probe;
    while (start > 0 && body[start - 1] === byte) start--;
    let end = probe + 1;
    while (end < body.length && body[end] === byte) end++;
    if (end - start >= LONG_RUN) runs.push([start, end]);
    while (probe + half < end) probe += half;
  }
  return runs;
}

/** Shell commands whose output, in turn, is the body; undefined when it is short or holds no long run of one byte. */
function bodyWriters(body: Buffer): string[] | undefined {
  if (body.length < LONG_BODY) return undefined;
  const runs = longRuns(body);
  if (runs.length === 0) return undefined;
  const writers: string[] = [];
  let start = 0;
  for (const [from, end] of runs) {
    if (start < from) writers.push(`printf ${printfFormat(body.subarray(start, from))}`);
    writers.push(`head -c ${end - from} /dev/zero | tr '\\0' '\\${(body[from] ?? 0).toString(8).padStart(3, '0')}'`);
    start = end;
  }
  if (start < body.length) writers.push(`printf ${printfFormat(body.subarray(start))}`);
  return writers;
}

/** Where reports show the key sent elsewhere (a query parameter, a header, a cookie), as text and as a URL encodes it. */
const KEY_PLACEHOLDER = /<API key>|%3CAPI\+key%3E/g;

/** A word quoted for the shell, the key's placeholder read from $PETSTORE_API_KEY (quoted pieces side by side make one word). */
function withKeyVariable(word: string): string {
  return word
    .split(KEY_PLACEHOLDER)
    .map((piece) => (piece === '' ? '' : shellQuote(piece)))
    .join('"$PETSTORE_API_KEY"');
}

/** A `.` or `..` segment in a path (RFC 3986 §3.3), which a URL resolves away. */
const DOT_SEGMENT = /\/\.\.?(\/|$)/;

/** The one-line command that sends the same request again (`-i` shows the status and headers). */
export function curlCommand(request: SentRequest): string {
  const words = ['curl', '-sS', '-i', '-X', request.method, withKeyVariable(request.url)];
  // curl resolves dot segments as a URL does; a path that tests them goes as spelled.
  if (DOT_SEGMENT.test(request.url.replace(/[?#].*$/, ''))) words.push('--path-as-is');
  for (const [name, value] of Object.entries(request.headers)) {
    // curl asks for the codings it decodes, and decodes them, with --compressed: the answer shows as the suite read it.
    if (name === 'accept-encoding' && value === DECODED_CODINGS) words.push('--compressed');
    else if (name !== 'authorization') words.push('-H', withKeyVariable(`${name}: ${value}`));
  }
  // curl sends `Accept: */*` of its own; an empty header removes it, as the request left Accept out.
  if (request.headers['accept'] === undefined) words.push('-H', shellQuote('Accept:'));
  const authorization = shellAuthorization(request.auth);
  if (authorization !== undefined) words.push('-H', authorization);
  if (request.body === undefined) return words.join(' ');
  const bytes = request.bodyHex === undefined ? Buffer.from(request.body, 'utf8') : Buffer.from(request.bodyHex, 'hex');
  const fromStdin = [...words, '--data-binary', '@-'].join(' ');
  const writers = bodyWriters(bytes);
  if (writers !== undefined) return `{ ${writers.join('; ')}; } | ${fromStdin}`;
  if (request.bodyHex === undefined && !request.body.includes('\u0000'))
    return [...words, '--data-binary', shellQuote(request.body)].join(' ');
  return `printf ${printfFormat(bytes)} | ${fromStdin}`;
}
