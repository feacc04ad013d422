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
  if (Array.isArray(value)) return value.map((item) => walk(item, redact, field));
  if (value === null || typeof value !== 'object') return value;
  // Exact integers (bigint) and the like are values, not records: only plain objects are walked.
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, redact, key)]));
}
