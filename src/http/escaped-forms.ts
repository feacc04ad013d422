/**
 * A text as the redactor searches it: with its escaped forms read as the characters they stand for (JSON `\uXXXX` and
 * `\"` `\/` at any depth, percent-encoding with UTF-8, HTML and XML character references), and the way back from a
 * place in that reading to the text's own offsets. One pass of one fixed pattern builds it, whatever the secret: the
 * redactor then looks for each secret's plain forms with indexOf, at a cost linear in the text and the secret.
 */

/**
 * Which escapes a view reads: `all` every kind at once (a string escaped at any depth, mixed forms), the others one kind
 * each, read exactly once (JSON's pairs, so `\\` is one backslash): a secret that holds `\`, `%` or `&` itself is found
 * where its text was escaped by one encoder, whose own escape characters then stand beside the secret's.
 */
export type EscapeFamily = 'all' | 'json' | 'percent' | 'html';

/** Characters every escaped form starts with: a text without them reads as it is. */
export const ESCAPE_STARTS = /[\\%&]/;

/**
 * Each family's forms. In `all`, a run of backslashes is taken from its first one only (tried from each, a run of n
 * costs n² steps), before `u` and four hex digits, a quote or a slash; a run of two or more before anything else is
 * one backslash, as a backslash escaped at some depth reads.
 */
const FORMS: Record<EscapeFamily, RegExp> = {
  all: /(?<!\\)\\+(?:u([0-9a-f]{4})|(["/]))|(?<!\\)\\(\\+)(?![\\"/]|u[0-9a-f]{4})|%([0-9a-f]{2})|&#(?:x0*([0-9a-f]{1,6})|0*([0-9]{1,7}));|&(amp|lt|gt|quot|apos);/gi,
  json: /\\(?:u([0-9a-f]{4})|(["/\\bfnrt]))/gi,
  percent: /%([0-9a-f]{2})/gi,
  html: /&#(?:x0*([0-9a-f]{1,6})|0*([0-9]{1,7}));|&(amp|lt|gt|quot|apos);/gi,
};

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const JSON_SINGLE: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** A code point as a string; one past U+10FFFF reads as U+FFFD, which no secret the redactor knows holds. */
function codePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
}

/** How many bytes a UTF-8 sequence that starts with `lead` has (1 for a byte that starts none). */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1;
}

const CONTINUATION = /^%[89ab][0-9a-f]$/i;

/** A text with some escaped forms read as characters; `at` is a place in the reading, counted in UTF-16 units. */
export class DecodedView {
  /** Where each form stands in the text, where what it reads as stands in the view, and how long that is. */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly ats: number[] = [];
  private readonly widths: number[] = [];
  /** The view: the text with each form replaced by what it reads as. */
  readonly text: string;

  constructor(source: string, family: EscapeFamily) {
    // One pattern per family, read from its start each time (nothing else reads it meanwhile).
    const pattern = FORMS[family];
    pattern.lastIndex = 0;
    const parts: string[] = [];
    let last = 0;
    let at = 0;
    for (let match = pattern.exec(source); match !== null; match = pattern.exec(source)) {
      const start = match.index;
      let end = start + match[0].length;
      let decoded = readForm(family, match);
      if (decoded === undefined) {
        // A percent-encoded byte that leads a UTF-8 sequence: the whole sequence is one character, when its bytes follow.
        const lead = Number.parseInt(match[0].slice(1), 16);
        const length = sequenceLength(lead);
        const bytes = [lead];
        while (bytes.length < length && CONTINUATION.test(source.slice(end, end + 3))) {
          bytes.push(Number.parseInt(source.slice(end + 1, end + 3), 16));
          end += 3;
        }
        const text = bytes.length === length ? Buffer.from(bytes).toString('utf8') : '\uFFFD';
        decoded = text.includes('\uFFFD') ? '\uFFFD' : text;
        pattern.lastIndex = end;
      }
      parts.push(source.slice(last, start), decoded);
      at += start - last;
      this.starts.push(start);
      this.ends.push(end);
      this.ats.push(at);
      this.widths.push(decoded.length);
      at += decoded.length;
      last = end;
    }
    parts.push(source.slice(last));
    this.text = parts.join('');
  }

  /** How many forms the view read. */
  get forms(): number {
    return this.starts.length;
  }

  /** Form `i`: where it starts and ends in the text, and where what it reads as ends in the view. */
  form(i: number): { start: number; end: number; viewEnd: number } {
    return { start: this.starts[i] ?? 0, end: this.ends[i] ?? 0, viewEnd: (this.ats[i] ?? 0) + (this.widths[i] ?? 0) };
  }

  /** The last form whose reading starts at or before `at`, or -1. */
  private formAt(at: number): number {
    let low = 0;
    let high = this.ats.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if ((this.ats[mid] ?? 0) <= at) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    return found;
  }

  /** The text's offset where the view's character at `at` begins (the start of its form, for a form). */
  startOf(at: number): number {
    const i = this.formAt(at);
    if (i < 0) return at;
    const readEnd = (this.ats[i] ?? 0) + (this.widths[i] ?? 0);
    return at < readEnd ? (this.starts[i] ?? 0) : (this.ends[i] ?? 0) + (at - readEnd);
  }

  /** The text's offset where the view's characters before `at` end (the end of its form, for a form). */
  endOf(at: number): number {
    if (at <= 0) return 0;
    const i = this.formAt(at - 1);
    if (i < 0) return at;
    const readEnd = (this.ats[i] ?? 0) + (this.widths[i] ?? 0);
    return at - 1 < readEnd ? (this.ends[i] ?? 0) : (this.ends[i] ?? 0) + (at - readEnd);
  }
}

/** What one form reads as; undefined for a percent-encoded byte that may lead a UTF-8 sequence (the view reads it on). */
function readForm(family: EscapeFamily, match: RegExpExecArray): string | undefined {
  const [whole] = match;
  if (family === 'json') {
    const [, unicode, single] = match;
    if (unicode !== undefined) return String.fromCharCode(Number.parseInt(unicode, 16));
    return JSON_SINGLE[(single ?? '').toLowerCase()] ?? single ?? '';
  }
  if (family === 'percent') return percentByte(whole);
  if (family === 'html') {
    const [, hex, decimal, name] = match;
    return reference(hex, decimal, name);
  }
  const [, unicode, backslashed, run, percent, hex, decimal, name] = match;
  if (unicode !== undefined) return String.fromCharCode(Number.parseInt(unicode, 16));
  if (backslashed !== undefined) return backslashed;
  if (run !== undefined) return '\\';
  if (percent !== undefined) return percentByte(whole);
  return reference(hex, decimal, name);
}

/** A percent-encoded ASCII byte as its character; undefined for one past ASCII (a UTF-8 sequence's first byte, perhaps). */
function percentByte(form: string): string | undefined {
  const byte = Number.parseInt(form.slice(1), 16);
  return byte < 0x80 ? String.fromCharCode(byte) : undefined;
}

function reference(hex: string | undefined, decimal: string | undefined, name: string | undefined): string {
  if (name !== undefined) return NAMED[name.toLowerCase()] ?? '';
  return codePoint(hex === undefined ? Number(decimal) : Number.parseInt(hex, 16));
}
