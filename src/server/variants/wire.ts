/** The wire format: JSON over HTTP, labelled as JSON, one value per key; extra fields allowed. */
import { isJsonObject, type JsonValue } from '../../model/json.js';
import { after, isList, mapJson, type Variant } from './kit.js';

/** Variants that bend the JSON on the wire: its label, repeated keys, a byte order mark, fields the contract does not name. */
export const WIRE_VARIANTS: readonly Variant[] = [
  {
    name: 'json-as-text-plain',
    verdict: 'broken',
    description: 'JSON bodies are labelled text/plain',
    clause: 'The wire format is JSON over HTTP',
    caughtBy: ['wire.json-content-type'],
    wrap: after((res) => ({ ...res, headers: { ...res.headers, 'content-type': 'text/plain' } })),
  },
  {
    name: 'listing-duplicate-keys',
    verdict: 'broken',
    description: 'every pet of a listing repeats its name key with another value (RFC 8259 §4: parsers disagree on which wins)',
    clause: 'What the service does: the wire format is JSON (a Pet has one name)',
    caughtBy: ['listPets.ok', 'wire.json-body'],
    wrap: after((res, req) =>
      isList(req) && res.status === 200
        ? { ...res, body: res.body.replace(/"name":("(?:[^"\\]|\\.)*")/g, '"name":$1,"name":"another name"') }
        : res,
    ),
  },
  {
    name: 'listing-bom',
    verdict: 'broken',
    description: 'every listing starts with a UTF-8 byte order mark (RFC 8259 §8.1: a sender must not add one)',
    clause: 'What the service does: the wire format is JSON (RFC 8259)',
    caughtBy: ['listPets.ok', 'wire.json-body'],
    wrap: after((res, req) => (isList(req) && res.status === 200 ? { ...res, body: `\uFEFF${res.body}` } : res)),
  },
  {
    name: 'extra-fields',
    verdict: 'conformant',
    description: 'responses carry fields the contract does not name',
    clause: 'Resources (extra fields are not forbidden)',
    caughtBy: [],
    wrap: after((res) =>
      mapJson(res, function extend(b: JsonValue): JsonValue {
        if (Array.isArray(b)) return b.map(extend);
        return isJsonObject(b) ? { ...b, tags: ['friendly'], createdAt: '2026-01-01T00:00:00Z' } : b;
      }),
    ),
  },
];
