/** The one way this project builds ajv: strict, all errors, standard formats, a bounded int64. */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { Failure } from '../model/results.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** A fresh ajv instance in strict mode with the standard formats. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // ajv-formats' int64 accepts any integer; bound it (the validation view maps values beyond int64 to ±2^64).
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 63 });
  return ajv;
}

/** Renders ajv errors as one line each: `/path: message`. */
export function formatAjvErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath === '' ? '(root)' : e.instancePath;
    const extra = e.keyword === 'additionalProperties' ? ` '${String(e.params['additionalProperty'])}'` : '';
    const allowed = e.keyword === 'enum' ? ` (${(e.params['allowedValues'] as unknown[]).map(String).join(', ')})` : '';
    return `${where}: ${e.message ?? e.keyword}${extra}${allowed}`;
  });
}


/** ajv errors as typed failures: the message, the pointer into the value and the schema keyword's path. */
export function ajvFailures(errors: readonly ErrorObject[] | null | undefined): Failure[] {
  const messages = formatAjvErrors(errors);
  const seen = new Set<string>();
  // The same problem at the same place, found through two branches of a schema (a type checked by Pet and by NewPet), is reported once.
  return (errors ?? []).flatMap((e, i) => {
    const failure = { message: messages[i] ?? e.keyword, pointer: e.instancePath, schemaPath: e.schemaPath };
    const key = `${failure.pointer}\u0000${failure.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [failure];
  });
}
