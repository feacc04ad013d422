/** `{name}` placeholders in scenario strings: plain substitution, no expressions. */
import { isJsonObject, type JsonValue } from './json.js';

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;
const WHOLE_PLACEHOLDER = /^\{([A-Za-z][A-Za-z0-9]*)\}$/;

/**
 * Variables every check may use, provided by the engine. `spareStatus` is the status a run writes where any status would do:
 * the one the store fill counted most pets of, so that a long-lived store keeps the short pages of the others for later runs.
 */
export const BUILTIN_VARIABLES: readonly string[] = ['runId', 'categoryId', 'unknownPetId', 'spareStatus'];

/** The placeholder of the status to write where any status would do (see BUILTIN_VARIABLES). */
export const SPARE_STATUS = '{spareStatus}';

/**
 * A name this long makes its pet heavy in every page that holds it (a 1 MiB name, a megabyte a page, every night on a
 * long-lived store). Such pets are created without a status: on a store that keeps no default, no filtered page the run
 * (or the next night's run) reads holds them, and their round trip is judged by the create and the read by id.
 */
const HEAVY_NAME_CHARS = 4096;

/** Where a pet of this name lies: the spare status, or none for a heavy name (see HEAVY_NAME_CHARS). */
export function placementOf(name: string): { status?: string } {
  return name.length >= HEAVY_NAME_CHARS ? {} : { status: SPARE_STATUS };
}

/** A pet to create: `fields` with this name, placed by placementOf (whatever status `fields` held). */
export function placedPet(fields: Readonly<Record<string, JsonValue>>, name: string): Record<string, JsonValue> {
  const { status: _given, ...rest } = fields;
  return { ...rest, name, ...placementOf(name) };
}

/** Values of variables by name. */
export type Variables = ReadonlyMap<string, JsonValue>;

/** The names of the placeholders used anywhere in a value. */
export function placeholdersIn(value: unknown): string[] {
  const found: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      for (const match of v.matchAll(PLACEHOLDER)) found.push(match[1] as string);
    } else if (Array.isArray(v)) {
      v.forEach(visit);
    } else if (typeof v === 'object' && v !== null) {
      Object.values(v).forEach(visit);
    }
  };
  visit(value);
  return found;
}

function scalarText(value: JsonValue): string {
  return typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}

/**
 * Fills placeholders. A string that is exactly one placeholder takes the variable's typed value
 * (so `categoryId: "{categoryId}"` stays an integer); placeholders inside text are interpolated.
 * Unknown names are left as they are (the loader rejects them before a run).
 */
export function fillTemplate(value: JsonValue, vars: Variables): JsonValue {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value);
    if (whole) {
      const v = vars.get(whole[1] as string);
      return v === undefined ? value : v;
    }
    return value.replace(PLACEHOLDER, (text, name: string) => {
      const v = vars.get(name);
      return v === undefined ? text : scalarText(v);
    });
  }
  if (Array.isArray(value)) return value.map((item) => fillTemplate(item, vars));
  if (isJsonObject(value)) {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fillTemplate(v, vars);
    return out;
  }
  return value;
}

/** Fills placeholders in a string and returns text; `encode` escapes each inserted value (e.g. for a URL path). */
export function fillText(value: string, vars: Variables, encode: (text: string) => string = (text) => text): string {
  const whole = WHOLE_PLACEHOLDER.exec(value);
  const single = whole ? vars.get(whole[1] as string) : undefined;
  if (single !== undefined) return encode(scalarText(single));
  return value.replace(PLACEHOLDER, (text, name: string) => {
    const v = vars.get(name);
    return v === undefined ? text : encode(scalarText(v));
  });
}
