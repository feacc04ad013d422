/** Exact JSON: integers beyond 2^53 stay bigint, so int64 values survive a round trip. */
import { isInteger, parse } from 'lossless-json';

/** A JSON value as this suite holds it: unsafe integers are bigint, everything else is plain. */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The longest number literal read: far beyond int64 (19 digits) and double (309), short enough that BigInt stays instant. */
const MAX_NUMBER_LENGTH = 1000;
/** The deepest nesting read: the suite's bodies are two levels deep; a deeper one is an attack on the parser's stack. */
const MAX_NESTING_DEPTH = 512;

function parseNumber(text: string): number | bigint {
  // Converting a number of millions of digits costs seconds of CPU: refused by its length before any conversion.
  if (text.length > MAX_NUMBER_LENGTH)
    throw new SyntaxError(`a number literal of ${text.length} characters (at most ${MAX_NUMBER_LENGTH} are read)`);
  if (isInteger(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  return Number.parseFloat(text);
}

/** What one pass over JSON text tells before it is parsed. */
interface JsonTextShape {
  /** How deep arrays and objects nest, counted up to `limit` and one past it. */
  depth: number;
  /** Object members as written (a duplicate key counts twice). */
  members: number;
  /**
   * The text holds a number literal that JSON.parse would not read exactly: an integer of 16 or more characters, or one
   * too long to read at all.
   */
  inexact: boolean;
}

/** The index of the quote that closes the string opened at `open`; -1 when it is never closed. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
}

/** One pass over JSON text, strings skipped whole (they are most of a body): nesting, members and number literals. */
function shapeOf(text: string, limit: number): JsonTextShape {
  let depth = 0;
  let deepest = 0;
  let members = 0;
  let inexact = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) break;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) break;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
    else if (c === 0x3a) members += 1;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      let integer = true;
      for (
        let d = text.charCodeAt(i + 1);
        (d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d;
        d = text.charCodeAt(i + 1)
      ) {
        if (d === 0x2e || d === 0x65 || d === 0x45) integer = false;
        i += 1;
      }
      const length = i + 1 - start;
      if ((integer && length >= 16) || length > MAX_NUMBER_LENGTH) inexact = true;
    }
  }
  return { depth: deepest, members, inexact };
}

/** Object members in a parsed value (own keys of every object in it); iterative, so a deep value cannot overflow the stack. */
function memberCount(root: unknown): number {
  let count = 0;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    for (const key in value) {
      count += 1;
      const item = (value as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) pending.push(item);
    }
  }
  return count;
}

/** Values JSON.parse produced: they hold no bigint, so validation can read them as they are. */
const WITHOUT_BIGINT = new WeakSet<object>();

/**
 * Parses JSON text, keeping integers that a double cannot hold as bigint. Throws SyntaxError-like errors, also for bounds
 * passed (nesting, number length) and for a duplicate key.
 *
 * The native JSON.parse reads a text whose every integer is short enough to be exact (a tenth of lossless-json's time on
 * a 4 MB listing); it keeps the last of duplicate keys silently, so a text whose parsed objects hold fewer members than it
 * writes goes to lossless-json, whose refusal of them is part of the verdict. So does every text JSON.parse refuses, for
 * lossless-json's message (with its position), and every text with a long integer.
 */
export function parseExactJson(text: string): JsonValue {
  const shape = shapeOf(text, MAX_NESTING_DEPTH);
  if (shape.depth > MAX_NESTING_DEPTH) throw new SyntaxError(`nesting deeper than ${MAX_NESTING_DEPTH} levels`);
  if (!shape.inexact) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return parseLosslessly(text);
    }
    if (memberCount(value) !== shape.members) return parseLosslessly(text);
    if (typeof value === 'object' && value !== null) WITHOUT_BIGINT.add(value);
    return value as JsonValue;
  }
  return parseLosslessly(text);
}

function parseLosslessly(text: string): JsonValue {
  return parse(text, null, parseNumber) as JsonValue;
}

/** What stands for a bigint in JSON.stringify's output until its digits replace it; the nonce keeps any input from looking like it. */
const BIGINT_NONCE = Math.random().toString(36).slice(2);
const BIGINT_MARK = `\u0000bigint-${BIGINT_NONCE}:`;
const MARKED_BIGINT = new RegExp(`"\\\\u0000bigint-${BIGINT_NONCE}:(-?\\d+)"`, 'g');

/** Serialises a value that may hold bigint integers to JSON text (JSON.stringify, a few times faster than a JSON library's own). */
export function stringifyExactJson(value: unknown, space?: number): string {
  // Most values hold no bigint, and JSON.stringify without a replacer is several times faster: it throws on the first bigint.
  try {
    return (JSON.stringify(value, null, space) as string | undefined) ?? 'null';
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  let marked = false;
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v !== 'bigint') return v;
      marked = true;
      return `${BIGINT_MARK}${v}`;
    },
    space,
  ) as string | undefined;
  if (text === undefined) return 'null';
  return marked ? text.replace(MARKED_BIGINT, '$1') : text;
}

/** True when the value is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy fit for JSON Schema validation: bigint becomes number. Values outside int64 become ±2^64
 * so that `format: int64` still rejects them after the unavoidable rounding.
 */
export function toValidationView(value: JsonValue): unknown {
  // A value read by JSON.parse holds no bigint: no copy is needed (validation never changes what it reads).
  if (typeof value === 'object' && value !== null && WITHOUT_BIGINT.has(value)) return value;
  if (typeof value === 'bigint') {
    if (value > INT64_MAX) return 2 ** 64;
    if (value < INT64_MIN) return -(2 ** 64);
    return Number(value);
  }
  if (Array.isArray(value)) return value.map(toValidationView);
  if (isJsonObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toValidationView(v);
    return out;
  }
  return value;
}

/** Exact equality of two JSON values; 5 and 5n are equal, key order is ignored. */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    if (Number.isInteger(a) || typeof a === 'bigint') {
      if (Number.isInteger(b) || typeof b === 'bigint') return BigInt(a) === BigInt(b);
      return false;
    }
    return a === b;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isJsonObject(a) || isJsonObject(b)) {
    if (!isJsonObject(a) || !isJsonObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return a === b;
}

/** The most characters of a value a message shows. */
const MAX_SHOWN_JSON_CHARS = 4096;

/**
 * Renders a JSON value compactly for messages, bigint included: exactly as stringifyExactJson writes it when that fits in
 * `max` characters; else its first `max` characters, saying what was left out. A 4 MB listing is never written out whole
 * only for a message to keep its first few KiB.
 */
export function showJson(value: JsonValue | undefined, max = MAX_SHOWN_JSON_CHARS): string {
  if (value === undefined) return 'nothing';
  const parts: string[] = [];
  let length = 0;
  const full = (): boolean => length > max;
  const write = (text: string): void => {
    parts.push(text);
    length += text.length;
  };
  const walk = (item: JsonValue): void => {
    if (full()) return;
    if (typeof item === 'string') write(JSON.stringify(item.length > max ? item.slice(0, max + 1) : item));
    else if (typeof item !== 'object' || item === null) write(stringifyExactJson(item));
    else if (Array.isArray(item)) {
      write('[');
      for (let i = 0; i < item.length && !full(); i++) {
        if (i > 0) write(',');
        walk(item[i] as JsonValue);
      }
      write(']');
    } else {
      write('{');
      let first = true;
      for (const key in item) {
        if (full()) break;
        write(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        walk(item[key] as JsonValue);
      }
      write('}');
    }
  };
  walk(value);
  const text = parts.join('');
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${describeSize(value)})`;
}

/** How big a value is, in words, for a value a message shows only the start of. */
function describeSize(value: JsonValue): string {
  const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
  if (Array.isArray(value)) return `an array of ${count(value.length, 'item')}`;
  if (typeof value === 'string') return `a string of ${count(value.length, 'character')}`;
  if (isJsonObject(value)) return `an object of ${count(Object.keys(value).length, 'member')}`;
  return 'cut';
}

/** The value at a JSON pointer (RFC 6901) in a value; undefined when nothing is there. */
export function resolvePointer(value: JsonValue | undefined, pointer: string): JsonValue | undefined {
  if (pointer === '') return value;
  let current = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isJsonObject(current)) current = Object.hasOwn(current, key) ? current[key] : undefined;
    else return undefined;
  }
  return current;
}
