/** Exact JSON: integers beyond 2^53 stay bigint, so int64 values survive a round trip. */
import { isInteger, parse } from 'lossless-json';

/** A JSON value as this suite holds it: unsafe integers are bigint, everything else is plain. */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The longest number literal read: far beyond int64 (19 digits) and double (309), short enough that BigInt stays instant. */
export const MAX_NUMBER_LENGTH = 1000;
/** The deepest nesting read: the suite's bodies are two levels deep; a deeper one is an attack on the parser's stack. */
export const MAX_NESTING_DEPTH = 512;

function parseNumber(text: string): number | bigint {
  // Converting a number of millions of digits costs seconds of CPU: refused by its length before any conversion.
  if (text.length > MAX_NUMBER_LENGTH) throw new SyntaxError(`a number literal of ${text.length} characters (at most ${MAX_NUMBER_LENGTH} are read)`);
  if (isInteger(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  return Number.parseFloat(text);
}

/** How deep arrays and objects nest in JSON text (brackets inside strings do not count), stopping once past `limit`. */
export function nestingDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return deepest;
}

/** Parses JSON text, keeping integers that a double cannot hold as bigint. Throws SyntaxError-like errors, also for bounds passed (nesting, number length). */
export function parseExactJson(text: string): JsonValue {
  if (nestingDepth(text, MAX_NESTING_DEPTH) > MAX_NESTING_DEPTH) throw new SyntaxError(`nesting deeper than ${MAX_NESTING_DEPTH} levels`);
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

/** Renders a JSON value compactly for messages, bigint included. */
export function showJson(value: JsonValue | undefined): string {
  return value === undefined ? 'nothing' : stringifyExactJson(value);
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
