/** Redaction on the way out: the values of a report, never its structure. */
import { REDACTED_MARK as MARK } from '../http/credentials.js';

/**
 * Fields whose values the suite itself writes from closed sets (ids, outcomes, levels, codes, timestamps): they never hold
 * a secret, and redacting them would break what reads the report (its schema, a merge, a pipeline matching ids).
 */
const STRUCTURAL_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'outcome',
  'verdict',
  'status',
  'level',
  'suite',
  'operation',
  'skip',
  'metric',
  'code',
  'runId',
  'reportVersion',
  'format',
  'scope',
  'method',
  'startedAt',
  'finishedAt',
  'at',
  'clock',
  'sunset',
]);

/** Fields that hold a URL: a redacted part is written percent-encoded there, so that the value is still a URL. */
const URL_FIELDS: ReadonlySet<string> = new Set(['url', 'baseUrl']);

/**
 * A copy of `value` with every string value passed through `redact`, but for the structural fields' and the object keys:
 * a key found in what the server sent is removed wherever the report quotes it, and the report keeps its shape whatever
 * the key is (a key that is also a field name, `response`, leaves the field alone).
 */
export function redactValues<T>(value: T, redact: (text: string) => string): T {
  return walk(value, redact, undefined) as T;
}

function walk(value: unknown, redact: (text: string) => string, field: string | undefined): unknown {
  if (typeof value === 'string') {
    if (field !== undefined && STRUCTURAL_FIELDS.has(field)) return value;
    const redacted = redact(value);
    return field !== undefined && URL_FIELDS.has(field) && redacted !== value
      ? redacted.replaceAll(MARK, encodeURIComponent(MARK))
      : redacted;
  }
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) items[i] = walk(value[i], redact, field);
    return items;
  }
  if (value === null || typeof value !== 'object') return value;
  // Exact integers (bigint) and the like are values, not records: only plain objects are walked.
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  // A plain loop, not entries mapped into a new object: a report holds thousands of objects, walked once per file written.
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const item = walk(record[key], redact, key);
    // An own `__proto__` (a key of what a server sent) stays a key: assigned, it would set the copy's prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}
