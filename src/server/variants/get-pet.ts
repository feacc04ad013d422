/** getPet: an unknown or malformed petId. */
import { errorResponse, jsonResponse } from '../reference-server.js';
import { after, before, isGet, type Variant } from './kit.js';

const FIRST_SEEDED_PET = '{"id":1,"name":"Rex 1","categoryId":1,"status":"available"}';

/** The value of a decimal digit of any script (Arabic-Indic, Devanagari, full width...): its offset from the script's zero. */
function digitOf(digit: string): number {
  const code = digit.codePointAt(0) ?? 0;
  for (let zero = code; zero >= code - 9; zero--) if (!/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) return code - zero;
  return 0;
}

/** Variants that answer an unknown or malformed petId with something other than 404 or 400. */
export const GET_PET_VARIANTS: readonly Variant[] = [
  {
    name: 'get-unknown-200',
    verdict: 'broken',
    description: 'an unknown id returns some other pet',
    clause: 'getPet rule 3: 404',
    caughtBy: ['getPet.unknown-id'],
    wrap: after((res, req) => (isGet(req) && res.status === 404 ? jsonResponse(200, FIRST_SEEDED_PET) : res)),
  },
  {
    name: 'get-unknown-500',
    verdict: 'broken',
    description: 'an unknown id crashes the server',
    clause: 'getPet rule 3: 404',
    caughtBy: ['getPet.unknown-id'],
    wrap: after((res, req) => (isGet(req) && res.status === 404 ? errorResponse(500, 'internal', 'null pointer') : res)),
  },
  {
    name: 'get-malformed-500',
    verdict: 'broken',
    description: 'a non-numeric id crashes the server',
    clause: 'getPet: petId is int64; never a 5xx',
    caughtBy: ['getPet.malformed.not-a-number'],
    wrap: after((res, req) => (isGet(req) && res.status === 400 ? errorResponse(500, 'internal', 'NumberFormatException') : res)),
  },
  {
    name: 'ids-lenient',
    verdict: 'broken',
    description:
      "getPet reads its id leniently: trailing letters dropped, underscores removed, hexadecimal, any script's digits, wrapped to 64 bits",
    clause: 'reading-the-contract: a malformed or out-of-range petId names no animal, so it is never answered 200 with a pet',
    caughtBy: [
      'getPet.malformed.trailing-letters',
      'getPet.malformed.underscore',
      'getPet.malformed.hex',
      'getPet.malformed.arabic-indic',
      'getPet.malformed.full-width',
      'getPet.malformed.wrapped',
      'store.get-requested-pet',
    ],
    wrap: before(isGet, (r) => {
      const raw = decodeURIComponent(r.path.split('/').at(-1) ?? '').replace(/\p{Nd}/gu, (d) => String(digitOf(d)));
      const hex = /^0x([0-9a-f]+)/i.exec(raw);
      const digits = hex === null ? /^-?[\d_]+/.exec(raw)?.[0]?.replaceAll('_', '') : undefined;
      const value =
        hex !== null
          ? BigInt(`0x${hex[1] as string}`)
          : digits !== undefined && digits !== '' && digits !== '-'
            ? BigInt(digits)
            : undefined;
      return value === undefined ? r : { ...r, path: r.path.replace(/[^/]+$/, BigInt.asIntN(64, value).toString()) };
    }),
  },
  {
    name: 'ids-safe-integers',
    verdict: 'broken',
    description: "getPet refuses every id beyond 2^53 with 400 (a validator capped at JavaScript's safe integers, as zod's int() is)",
    clause: 'reading-the-contract: any id above 2^53 is a valid int64: an unknown one is a 404, never a 400',
    caughtBy: ['getPet.unknown-id.above-2-53', 'getPet.unknown-id.int64-max', 'getPet.unknown-id.int64-min'],
    wrap: before(
      (r) => isGet(r) && !Number.isSafeInteger(Number(r.path.split('/').at(-1))),
      () => errorResponse(400, 'invalid_id', 'petId must be a safe integer'),
    ),
  },
  {
    name: 'malformed-id-404',
    verdict: 'conformant',
    description: 'malformed petIds get 404 rather than 400',
    clause: 'getPet (a malformed id is not described)',
    caughtBy: [],
    wrap: after((res, req) => (isGet(req) && res.status === 400 ? errorResponse(404, 'not_found', 'no such pet') : res)),
  },
];
