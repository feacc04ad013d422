/**
 * The formats the package's schemas may use: ajv-formats' full set and a bounded int64. One definition for ajv at run time and for the
 * validators precompiled at build time.
 */
import type { Format } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';

/** Every format by name; int64 is bounded (ajv-formats' accepts any integer; the validation view maps values beyond int64 to ±2^64). */
export const schemaFormats: Readonly<Record<string, Format>> = {
  ...fullFormats,
  int64: { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 63 },
};
