/**
 * ajv's errors in this project's words: one line each, and typed failures. No ajv at run time: precompiled validators report the same
 * errors.
 */
import type { ErrorObject } from 'ajv';
import type { Failure } from '../model/results.js';

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
