/**
 * The request space: every slot of every operation, derived from the contract model (the path's structure, each path
 * parameter, each query parameter's value, a parameter's name, the query's structure, Authorization, Content-Type, Accept,
 * the body as a document, its framing and encoding, each body field),
 * spelled in every class its grammar admits (grammar.ts), each sent with and without the credential. Each cell is a
 * one-step case judged by the relation its meaning calls for (checks/request-space-checks.ts). Deterministic: no seed.
 */
import { contractRequests } from './contract-requests.js';
import { generated } from './generated-case.js';
import { type Contract, listLimitOf, type OperationInfo, ROLES, statusValues } from '../model/contract.js';
import type { AuthVariant, KeyElsewhere, OperationName } from '../model/contract-names.js';
import type { JsonValue } from '../model/json.js';
import type { CellCredential } from '../model/request-space.js';
import type { BodyEncoding, CaseSpec, Expectations, RequestSpec, TwinRules } from '../model/scenario.js';
import {
  credentialSpellings,
  documentSpellings,
  framingSpellings,
  integerSpellings,
  mediaTypeSpellings,
  pathStructureSpellings,
  type Place,
  queryNameSpellings,
  queryStructureSpellings,
  type SlotType,
  type Spelling,
  stringSpellings,
} from './grammar.js';

/** A slot of an operation's requests, with the spellings its grammar admits. */
export interface Slot {
  operation: OperationName;
  /** `path.petId`, `query.limit`, `query.limit.name`, `query`, `header.authorization`, `body.categoryId`. */
  id: string;
  type: SlotType;
  place: Place;
  spellings: Spelling[];
  /** A second parameter sent beside every spelling (two slots that interact: a repeated limit with a status filter). */
  alongside?: { name: string; value: string };
}

/** One cell of the request space: a slot spelled in one class, with or without the credential, and the case that sends it. */
export interface Cell {
  operation: OperationName;
  slot: string;
  cls: string;
  credential: CellCredential;
  /** The relation that judges it: which expectation key its step declares. */
  relation: Relation;
  /** The one-step case that sends and judges it alone; absent when the cell is not sent, with `unsent` saying why. */
  spec?: CaseSpec;
  unsent?: string;
  /**
   * A keyless cell sent packed with one class of each other slot of its operation (the answer is 401 whatever else is
   * wrong, so one request judges them all); the same object for every cell of the pack. A broken pack is sent cell by cell.
   */
  packed?: CaseSpec;
  /** Its slot and spelling, for packing. */
  readonly source: { slot: Slot; spelling: Spelling };
}

/** The relations cells are judged by: the expectation keys of checks/request-space-checks.ts. */
export type Relation = 'keyFirst' | 'spelledValid' | 'spelledInvalid';

/** The relation a spelling is judged by, with the key or without. */
function relationOf(slot: Slot, spelling: Spelling, credential: CellCredential): Relation {
  if (credential === 'without' || (slot.type === 'credential' && spelling.meaning === 'invalid')) return 'keyFirst';
  return ['canonical', 'kept', 'valid'].includes(spelling.meaning) ? 'spelledValid' : 'spelledInvalid';
}

/** The class the document and framing slots build their canonical body for: one body, whichever way it is spelled. */
const WHOLE_BODY = 'document';
/** The slots whose spellings are the whole body, or how the whole body goes. */
const WHOLE_BODY_TYPES: ReadonlySet<SlotType> = new Set(['document', 'framing']);

/** The value the listing's integer parameter is spelled around: inside its bounds, below its default, so a cap shows. */
const LIMIT = 5;
/** A second in-range value, for a name repeated with two valid values. */
const SECOND = 7;
/** The place the other channels put the key (none of them is a credential by the contract). */
const ELSEWHERE: Record<string, KeyElsewhere> = {
  query: { in: 'query', name: 'api_key' },
  header: { in: 'header', name: 'X-API-Key' },
  cookie: { in: 'cookie', name: 'api_key' },
};

/** The type of a documented query parameter: an integer, or a value of an enumeration. */
function queryType(schema: Record<string, unknown>): 'integer' | 'enum' {
  return schema['type'] === 'integer' ? 'integer' : 'enum';
}

/** The slots of one operation, derived from what the contract model says of it. */
function operationSlots(contract: Contract, op: OperationInfo): Slot[] {
  const slots: Slot[] = [];
  const statuses = statusValues(contract);
  const add = (id: string, type: SlotType, place: Place, spellings: Spelling[], alongside?: Slot['alongside']): void => {
    slots.push({ operation: op.name, id, type, place, spellings, ...(alongside === undefined ? {} : { alongside }) });
  };
  add('path', 'path-structure', 'path', pathStructureSpellings(op.path));
  // The contract's one path parameter is an int64 id (OperationInfo keeps no schema of path parameters).
  for (const [, name] of op.path.matchAll(/\{([^}]+)\}/g)) add(`path.${name}`, 'integer', 'path', integerSpellings(`{${name}}`, 'path'));
  const integers = [...op.queryParameters].filter(([, schema]) => queryType(schema) === 'integer').map(([name]) => name);
  for (const [name, schema] of op.queryParameters) {
    const type = queryType(schema);
    const spellings = type === 'integer' ? integerSpellings(String(LIMIT), 'query') : stringSpellings(statuses[0] ?? 'x', 'query', 'enum');
    add(`query.${name}`, type, 'query', spellings);
  }
  const first = integers[0];
  if (first !== undefined) {
    add(`query.${first}.name`, 'query-name', 'query', queryNameSpellings(first, String(LIMIT)));
    const structure = queryStructureSpellings(first, String(LIMIT), String(SECOND), '500');
    add('query', 'query-structure', 'query', structure);
    // The structure again beside a filter: a server that reads a repeated or bracketed limit may lose the filter with it.
    const filter = [...op.queryParameters].find(([, schema]) => queryType(schema) === 'enum')?.[0];
    const value = statuses[0];
    if (filter !== undefined && value !== undefined) {
      const pair = `${filter}=${encodeURIComponent(value)}`;
      const spellings = structure.map((spelling) => ({ ...spelling, text: `${spelling.text}&${pair}` }));
      add(`query.${filter}-pair`, 'query-structure', 'query', spellings, { name: filter, value });
    }
  }
  if (op.secured) add('header.authorization', 'credential', 'header', credentialSpellings());
  if (op.method === 'POST') {
    add('header.content-type', 'content-type', 'header', mediaTypeSpellings('content-type'));
    const document = canonicalOf(contract, op, 'body', WHOLE_BODY).fields ?? {};
    add('body', 'document', 'body', documentSpellings(Object.entries(document)));
    add('body.framing', 'framing', 'body', framingSpellings());
    const properties = (contract.schemaOf('NewPet')['properties'] ?? {}) as Record<string, Record<string, unknown>>;
    for (const [field, schema] of Object.entries(properties)) {
      if (schema['type'] === 'integer') add(`body.${field}`, 'integer', 'body', integerSpellings(`{${field}}`, 'body'));
      else if (schema['type'] === 'string' && schema['enum'] === undefined)
        add(`body.${field}`, 'string', 'body', stringSpellings('grammar', 'body', 'string', '{runId} '));
      else add(`body.${field}`, 'enum', 'body', stringSpellings(statuses.at(-1) ?? 'x', 'body', 'enum'));
    }
  } else add('header.accept', 'accept', 'header', mediaTypeSpellings('accept'));
  return slots;
}

/** Every slot of every operation the contract documents, in the contract's order. */
export function requestSlots(contract: Contract): Slot[] {
  return [...contract.operations.values()].flatMap((op) => operationSlots(contract, op));
}

/** The canonical request of an operation, and the rules its answer keeps (the twin every spelling is compared with). */
export interface Canonical {
  request: RequestSpec;
  twin: TwinRules;
  /** The canonical body's fields as JSON texts (createPet), for a body slot to replace one of. */
  fields?: Record<string, string>;
}

export function canonicalOf(contract: Contract, op: OperationInfo, slot: string, cls: string): Canonical {
  const { default: fallback } = listLimitOf(contract);
  const { templates } = contractRequests(contract);
  if (op.name === ROLES.list) return { request: templates.listing(), twin: { status: 200, maxItems: fallback } };
  if (op.name === ROLES.get) return { request: templates.get('{petId}'), twin: { status: 200, body: { id: '{petId}' } } };
  const name = `{runId} grammar ${slot} ${cls}`;
  const status = statusValues(contract).at(-1) ?? 'x';
  const fields = { name: JSON.stringify(name), categoryId: '{categoryId}', status: JSON.stringify(status) };
  return {
    // The body goes as the slot spells it (`body`), never as JSON the client writes.
    request: templates.create(undefined, { headers: { 'Content-Type': 'application/json' } }),
    twin: { status: 201, body: { name, categoryId: '{categoryId}', status } },
    fields,
  };
}

/** The JSON text of a body from its fields' texts. */
export function bodyText(fields: Record<string, string>): string {
  return `{${Object.entries(fields)
    .map(([name, text]) => `${JSON.stringify(name)}:${text}`)
    .join(',')}}`;
}

/** The request that spells `spelling` in `slot`, and the twin rules it is judged against. */
function spelledRequest(contract: Contract, op: OperationInfo, slot: Slot, spelling: Spelling): { request: RequestSpec; twin: TwinRules } {
  const whole = WHOLE_BODY_TYPES.has(slot.type);
  const canonical = canonicalOf(contract, op, whole ? 'body' : slot.id, whole ? WHOLE_BODY : spelling.cls);
  const request: RequestSpec = { ...canonical.request };
  let twin = canonical.twin;
  const [place, name] = slot.id.split('.');
  if (slot.type === 'path-structure') {
    request.path = spelling.text;
    request.rawPath = true;
  } else if (place === 'path') request.path = op.path.replace(`{${name}}`, spelling.text);
  else if (slot.type === 'query-name' || slot.type === 'query-structure') {
    request.rawQuery = spelling.text;
    twin = { ...twin, maxItems: LIMIT, ...filtered(slot) };
  } else if (place === 'query') {
    request.rawQuery = `${name}=${spelling.text}`;
    if (slot.type === 'integer') twin = { ...twin, maxItems: LIMIT };
    else twin = { ...twin, everyItem: { [name as string]: decodeURIComponent(slot.spellings[0]?.text ?? '') } };
  } else if (slot.type === 'accept' || slot.type === 'content-type') {
    const header = slot.type === 'accept' ? 'Accept' : 'Content-Type';
    if (spelling.cls === 'absent') request.omitHeaders = [header];
    if (spelling.cls === 'absent' && header === 'Content-Type') request.headers = {};
    else if (spelling.cls !== 'absent') request.headers = { ...request.headers, [header]: spelling.text };
  }
  if (slot.type === 'document') request.body = spelling.text;
  else if (canonical.fields !== undefined) {
    const fields = { ...canonical.fields };
    if (slot.type === 'framing') framed(request, spelling.text);
    else if (place === 'body' && name !== undefined) {
      fields[name] = spelling.text;
      // The twin is the same pet with the field's canonical value (what its spelling means, parsed by JSON).
      const meant: JsonValue = slot.type === 'integer' ? `{${name}}` : spellingValue(spelling.text);
      twin = { ...twin, body: { ...twin.body, [name]: meant } };
    }
    request.body = bodyText(fields);
  }
  return { request, twin };
}

/** Sends a request's body as a framing spelling names it: chunked, or in a charset (`utf-16le+bom`); a Content-Length is the default. */
function framed(request: RequestSpec, text: string): void {
  if (text === 'chunked') request.chunked = true;
  else if (text !== 'content-length') {
    const [charset, bom] = text.split('+');
    request.encoding = { charset: charset as BodyEncoding['charset'], byteOrderMark: bom === 'bom' };
  }
}

/** What a body spelling's JSON text means (a string), or the text itself where it is no JSON string. */
function spellingValue(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** The rules a 2xx to a spelling that names no valid value must still keep: the stated bounds of its operation. */
function statedRules(contract: Contract, op: OperationInfo, slot: Slot): TwinRules {
  const { max, default: fallback } = listLimitOf(contract);
  if (op.name !== ROLES.list) return {};
  const bounded = slot.type === 'integer' || slot.type === 'query-structure';
  return { maxItems: bounded ? max : fallback, ...filtered(slot) };
}

/** The filter a slot's second parameter asks for, which every pet of a 2xx keeps: never another status. */
function filtered(slot: Slot): Pick<TwinRules, 'everyItem'> {
  return slot.alongside === undefined ? {} : { everyItem: { [slot.alongside.name]: slot.alongside.value } };
}

/** How a spelling with the credential is judged, by what it means. */
function relation(contract: Contract, op: OperationInfo, slot: Slot, spelling: Spelling, twin: TwinRules): Expectations {
  const redirect = redirectOf(op, slot);
  switch (spelling.meaning) {
    case 'canonical':
    case 'kept':
      return { spelledValid: { refusable: false, twin, ...redirect, ...lengthRequired(slot, spelling) } };
    case 'valid':
      return { spelledValid: { refusable: true, twin, ...redirect } };
    case 'refused':
      return { spelledInvalid: { refusals: [400], rules: {} } };
    default:
      return { spelledInvalid: { rules: statedRules(contract, op, slot), ...redirect } };
  }
}

/** A chunked body may be refused with 411 by a server that takes no body without a Content-Length (RFC 9112 §6.3). */
function lengthRequired(slot: Slot, spelling: Spelling): { orRefusedWith?: number } {
  return slot.type === 'framing' && spelling.text === 'chunked' ? { orRefusedWith: 411 } : {};
}

/**
 * A path spelled another way may be answered with a redirect to the documented path (a server that normalises paths,
 * as Go's ServeMux does): that answers it as the documented path would be. Other slots have no such answer.
 */
function redirectOf(op: OperationInfo, slot: Slot): { orRedirectedTo?: string } {
  return slot.type === 'path-structure' ? { orRedirectedTo: op.path } : {};
}

/** The credential slot's request: the auth variant the class names, or the key put elsewhere with no Authorization. */
function credentialRequest(request: RequestSpec, spelling: Spelling): RequestSpec {
  const elsewhere = ELSEWHERE[spelling.text];
  if (elsewhere !== undefined) return { ...request, auth: 'none', keyElsewhere: elsewhere };
  return { ...request, auth: spelling.text as AuthVariant };
}

/** The cells of one slot: each class with and without the credential (the credential's own slot, once, spelled). */
function slotCells(contract: Contract, op: OperationInfo, slot: Slot, readOnly: boolean): Cell[] {
  const cells: Cell[] = [];
  for (const spelling of slot.spellings) {
    const modes: CellCredential[] = slot.type === 'credential' ? ['spelled'] : ['with', 'without'];
    for (const credential of modes) {
      const cell: Cell = {
        operation: op.name,
        slot: slot.id,
        cls: spelling.cls,
        credential,
        relation: relationOf(slot, spelling, credential),
        source: { slot, spelling },
      };
      const unsent =
        spelling.meaning === 'unsent'
          ? (spelling.reason ?? 'not sent')
          : readOnly && op.method === 'POST'
            ? 'read-only: it writes'
            : undefined;
      if (unsent !== undefined) {
        cells.push({ ...cell, unsent });
        continue;
      }
      const spelled = spelledRequest(contract, op, slot, spelling);
      let request = spelled.request;
      let expect: Expectations;
      if (slot.type === 'credential') {
        request = credentialRequest(request, spelling);
        expect = spelling.meaning === 'invalid' ? { keyFirst: true } : relation(contract, op, slot, spelling, spelled.twin);
      } else if (credential === 'without') {
        request = { ...request, auth: 'none' };
        const mediaRefusal = slot.type === 'accept' ? 406 : slot.type === 'content-type' ? 415 : undefined;
        const first = {
          ...(mediaRefusal === undefined ? {} : { orRefusedWith: mediaRefusal }),
          ...lengthRequired(slot, spelling),
          ...redirectOf(op, slot),
          ...(slot.type === 'path-structure' ? { orNoOperation: true } : {}),
        };
        expect = { keyFirst: Object.keys(first).length === 0 ? true : first };
      } else expect = relation(contract, op, slot, spelling, spelled.twin);
      const id = `space.${op.name}.${slot.id}.${spelling.cls}.${credential}`;
      const key = credential === 'without' ? ' without the key' : '';
      cells.push({
        ...cell,
        spec: generated(op, {
          id,
          title: `${op.name} with ${slot.id} spelled as ${spelling.words}${key}`,
          clause: 'reading-the-contract: the request space, judged by the relation its spelling calls for',
          suite: 'request-space',
          steps: [{ request, expect }],
        }),
      });
    }
  }
  return cells;
}

/** Every cell of the request space, in a stable order: by operation, slot, class, then with and without the key (packKeyless packs the keyless ones). */
export function requestSpace(contract: Contract, options: { readOnly: boolean }): Cell[] {
  return requestSlots(contract).flatMap((slot) => {
    const op = contract.operations.get(slot.operation);
    return op === undefined ? [] : slotCells(contract, op, slot, options.readOnly);
  });
}

/** A cell's name in reports: `getPet path.petId digits-100000 with`. */
export function cellName(cell: Pick<Cell, 'operation' | 'slot' | 'cls' | 'credential'>): string {
  return `${cell.operation} ${cell.slot} ${cell.cls} ${cell.credential}`;
}
