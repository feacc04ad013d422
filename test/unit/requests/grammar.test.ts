/**
 * The request space's grammars: every class issue 45 lists is generated for every slot of its type, each sent with and
 * without the key, each valid spelling beside its canonical twin, and the space the same on every call (no seed).
 */
import t from 'tap';
import path from 'node:path';
import { loadContract } from '../../../src/loader/contract.js';
import {
  DIGIT_COUNTS,
  EVERY_PLANE,
  integerSpellings,
  percentEncodeAll,
  type SlotType,
  stringSpellings,
} from '../../../src/requests/grammar.js';
import { packKeyless } from '../../../src/requests/keyless-packs.js';
import { cellName, requestSlots, requestSpace } from '../../../src/requests/request-space.js';
import { root } from '../../helpers.js';

const contract = await loadContract(path.join(root, 'schemas'));
const slots = requestSlots(contract);

/** The classes each type of slot must be spelled in (issue 45, item 1), whatever place it has. */
const CLASSES: ReadonlyArray<[SlotType, readonly string[]]> = [
  [
    'integer',
    [
      'canonical',
      'sign-plus',
      'sign-minus',
      'leading-zeros',
      'fraction-zero',
      'fraction',
      'exponent',
      'radix-hex',
      'radix-octal',
      'radix-binary',
      'separator-underscore',
      'separator-comma',
      'digits-arabic-indic',
      'digits-full-width',
      'digits-devanagari',
      'space-leading',
      'space-trailing',
      'tab',
      ...DIGIT_COUNTS.map((count) => `digits-${count}`),
      'zeros-4301',
      'int64-above',
      'int64-below',
      'percent-digit',
      'reserved-encoded',
      'reserved-raw',
      'not-utf8',
      'nul',
    ],
  ],
  [
    'enum',
    [
      'canonical',
      'word-null',
      'word-none',
      'word-undefined',
      'word-true',
      'word-nan',
      'word-0',
      'empty',
      'whitespace-only',
      'control-soh',
      'control-del',
      'control-nul',
      'plane-0',
      'plane-1',
      'every-plane',
      'case-upper',
      'reserved-encoded',
      'reserved-raw',
      'escaped',
      'not-utf8',
    ],
  ],
  [
    'string',
    [
      'canonical',
      'word-null',
      'word-none',
      'word-undefined',
      'word-true',
      'word-nan',
      'word-0',
      'empty',
      'whitespace-only',
      'every-plane',
      'reserved-encoded',
      'reserved-raw',
      'escaped',
    ],
  ],
  [
    'path-structure',
    [
      'canonical',
      'dot-segment',
      'dot-dot-segment',
      'encoded-dot-segment',
      'empty-segment',
      'trailing-slash',
      'suffix',
      'segment-parameter',
    ],
  ],
  [
    'document',
    [
      'canonical',
      'whitespace',
      'member-order',
      'escaped-name',
      'byte-order-mark',
      'repeated-member',
      'unknown-member',
      'client-id',
      'name-case',
      'missing-member',
      'array',
      'empty',
      'trailing-data',
      'trailing-comma',
      'comment',
      'single-quotes',
    ],
  ],
  ['framing', ['canonical', 'chunked', 'utf-16le', 'utf-16be', 'utf-32le']],
  ['query-name', ['canonical', 'escaped', 'case-upper', 'not-utf8', 'nul']],
  [
    'query-structure',
    [
      'canonical',
      'repeated-same',
      'repeated-first-valid',
      'repeated-last-valid',
      'repeated-every-valid',
      'repeated-every-invalid',
      'array-brackets',
      'array-comma',
      'array-index',
      'name-only',
      'empty-value',
    ],
  ],
  ['content-type', ['canonical', 'parameter', 'quoted-parameter', 'case', 'plus-json', 'other-type', 'absent']],
  ['accept', ['canonical', 'parameter', 'quoted-parameter', 'case', 'plus-json', 'other-type', 'absent', 'wildcard']],
  [
    'credential',
    [
      'canonical',
      'scheme-lower',
      'scheme-upper',
      'extra-spaces',
      'repeated-header',
      'list-form',
      'absent',
      'query-key',
      'header-key',
      'cookie-key',
    ],
  ],
];

t.test('the contract gives every slot the issue names', async (t) => {
  t.same(
    slots.map((slot) => `${slot.operation} ${slot.id}`),
    [
      'listPets path',
      'listPets query.limit',
      'listPets query.status',
      'listPets query.limit.name',
      'listPets query',
      'listPets query.status-pair',
      'listPets header.authorization',
      'listPets header.accept',
      'createPet path',
      'createPet header.authorization',
      'createPet header.content-type',
      'createPet body',
      'createPet body.framing',
      'createPet body.name',
      'createPet body.categoryId',
      'createPet body.status',
      'getPet path',
      'getPet path.petId',
      'getPet header.authorization',
      'getPet header.accept',
    ],
  );
});

for (const [type, classes] of CLASSES)
  t.test(`every ${type} slot is spelled in every class of its grammar`, async (t) => {
    const ofType = slots.filter((slot) => slot.type === type);
    t.ok(ofType.length > 0, `the contract has ${type} slots`);
    for (const slot of ofType) {
      const have = new Set(slot.spellings.map((s) => s.cls));
      for (const cls of classes) t.ok(have.has(cls), `${slot.operation} ${slot.id}: ${cls}`);
      t.equal(have.size, slot.spellings.length, `${slot.operation} ${slot.id}: each class once`);
    }
  });

t.test('each class of each slot is a cell with the key and one without; the credential is its own cell', async (t) => {
  const cells = requestSpace(contract, { readOnly: false });
  for (const slot of slots)
    for (const spelling of slot.spellings) {
      const modes = cells
        .filter((c) => c.operation === slot.operation && c.slot === slot.id && c.cls === spelling.cls)
        .map((c) => c.credential);
      t.same(modes, slot.type === 'credential' ? ['spelled'] : ['with', 'without'], `${slot.operation} ${slot.id} ${spelling.cls}`);
    }
  const keyless = cells.filter((c) => c.credential === 'without' && c.spec !== undefined);
  t.ok(keyless.length > 100, `${keyless.length} cells without the key`);
  t.ok(
    keyless.every((c) => c.spec?.steps[0]?.request.auth === 'none' && c.spec.steps[0].expect?.keyFirst !== undefined),
    'without the key: no Authorization, judged by the 401 relation',
  );
  const refusal = (slot: string): unknown => keyless.find((c) => c.slot === slot)?.spec?.steps[0]?.expect?.keyFirst;
  t.same(
    [refusal('header.accept'), refusal('header.content-type'), refusal('query.limit')],
    [{ orRefusedWith: 406 }, { orRefusedWith: 415 }, true],
    'a media type may be refused before the key',
  );
  t.same(cells.filter((c) => c.spec === undefined && c.unsent === undefined).map(cellName), [], 'a cell not sent says why');
});

t.test('every slot spells its canonical twin, and each valid spelling is judged against it', async (t) => {
  for (const slot of slots) t.equal(slot.spellings[0]?.cls, 'canonical', `${slot.operation} ${slot.id}`);
  const cells = requestSpace(contract, { readOnly: false });
  const limitPlus = cells.find((c) => c.slot === 'query.limit' && c.cls === 'sign-plus' && c.credential === 'with');
  t.same(limitPlus?.spec?.steps[0]?.request.rawQuery, 'limit=%2B5', 'a plus sign goes percent-encoded in a query');
  t.same(limitPlus?.spec?.steps[0]?.expect, { spelledValid: { refusable: true, twin: { status: 200, maxItems: 5 } } });
  const id = cells.find((c) => c.slot === 'path.petId' && c.cls === 'leading-zeros' && c.credential === 'with');
  t.same(id?.spec?.steps[0]?.request.path, '/pets/00{petId}');
  t.same(id?.spec?.steps[0]?.expect, { spelledValid: { refusable: true, twin: { status: 200, body: { id: '{petId}' } } } });
  const long = cells.find((c) => c.slot === 'path.petId' && c.cls === 'digits-4301' && c.credential === 'with');
  t.same(long?.spec?.steps[0]?.expect, { spelledInvalid: { rules: {} } }, 'a petId of 4,301 digits names no pet');
  const category = cells.find((c) => c.slot === 'body.categoryId' && c.cls === 'digits-100000' && c.credential === 'with');
  t.same(category?.spec?.steps[0]?.expect, { spelledInvalid: { refusals: [400], rules: {} } }, 'in a body, 400 as the contract says');
  const escaped = cells.find((c) => c.slot === 'body.name' && c.cls === 'escaped' && c.credential === 'with');
  t.match(escaped?.spec?.steps[0]?.request.body, /"name":"\{runId\} \\u0067/, 'the name escaped after the run id');
  t.match(escaped?.spec?.steps[0]?.expect?.spelledValid, { refusable: false, twin: { status: 201, body: { name: '{runId} grammar' } } });
  const repeated = cells.find((c) => c.slot === 'query' && c.cls === 'repeated-every-invalid' && c.credential === 'with');
  t.same(repeated?.spec?.steps[0]?.expect, { spelledInvalid: { rules: { maxItems: 100 } } }, 'never more than 100 items');
});

t.test('the spellings are the standards’ (table)', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['percent-encoding', percentEncodeAll('sold'), '%73%6F%6C%64'],
    ['every plane', String([...EVERY_PLANE].length), '17'],
    ['a path plus is literal', integerSpellings('5', 'path').find((s) => s.cls === 'sign-plus')?.text ?? '', '+5'],
    [
      'a body number with leading zeros is no JSON',
      integerSpellings('5', 'body').find((s) => s.cls === 'leading-zeros')?.meaning ?? '',
      'refused',
    ],
    ['JSON whitespace is no part of a value', integerSpellings('5', 'body').find((s) => s.cls === 'space-leading')?.meaning ?? '', 'kept'],
    [
      '100,000 digits exceed a request-line',
      integerSpellings('5', 'query').find((s) => s.cls === 'digits-100000')?.meaning ?? '',
      'unsent',
    ],
    [
      '100,000 digits in a body',
      integerSpellings('5', 'body')
        .find((s) => s.cls === 'digits-100000')
        ?.text.length.toString() ?? '',
      '100000',
    ],
    ['a word in a query', stringSpellings('sold', 'query', 'enum').find((s) => s.cls === 'word-none')?.text ?? '', 'None'],
    ['JSON null in a body', stringSpellings('sold', 'body', 'enum').find((s) => s.cls === 'literal-null')?.text ?? '', 'null'],
  ];
  for (const [words, got, want] of cases) t.equal(got, want, words);
});

t.test('the space is deterministic: the same cells, in the same order, on every call', async (t) => {
  const names = (): string[] => requestSpace(contract, { readOnly: false }).map(cellName);
  t.same(names(), names());
  const readOnly = requestSpace(contract, { readOnly: true });
  t.ok(
    readOnly.filter((c) => c.operation === 'createPet').every((c) => c.spec === undefined && c.unsent !== undefined),
    'read-only: no create is sent, each says why',
  );
});

t.test('keyless cells are packed by path, query and body slot: each class once, media types alone', async (t) => {
  const cells = requestSpace(contract, { readOnly: false });
  packKeyless(contract, cells);
  const keyless = cells.filter((c) => c.credential === 'without' && c.spec !== undefined);
  const packed = keyless.filter((c) => c.packed !== undefined);
  t.ok(
    keyless.filter((c) => c.source.slot.place === 'header').every((c) => c.packed === undefined),
    'a media type is never packed',
  );
  const packs = new Set(packed.map((c) => c.packed));
  t.ok(packs.size < packed.length / 2, `${packed.length} keyless cells in ${packs.size} requests`);
  for (const pack of packs) {
    const step = pack?.steps[0];
    t.same([step?.request.auth, step?.expect], ['none', { keyFirst: true }], `${pack?.id}: keyless, judged by the 401 relation`);
    const members = packed.filter((c) => c.packed === pack);
    t.equal(new Set(members.map((c) => c.slot)).size, members.length, `${pack?.id}: one class of each slot`);
  }
  const pack = packed.find((c) => c.slot === 'query.limit' && c.cls === 'sign-plus')?.packed;
  t.match(pack?.steps[0]?.request.rawQuery, /^limit=%2B5&status=[^&]+&[^&]+&/, 'a limit, a status, a name and a structure in one query');
});

t.test("a document spelled as JSON's grammar keeps it parses to its canonical members; its framing says how it goes", async (t) => {
  const cells = requestSpace(contract, { readOnly: false });
  const request = (slot: string, cls: string) =>
    cells.find((c) => c.slot === slot && c.cls === cls && c.credential === 'with')?.spec?.steps[0]?.request;
  // The category is filled at run time: any integer makes the template JSON.
  const parsed = (slot: string, cls: string): unknown => JSON.parse((request(slot, cls)?.body ?? '').replaceAll('{categoryId}', '1'));
  const canonical = parsed('body', 'canonical');
  for (const cls of ['whitespace', 'member-order', 'escaped-name', 'repeated-member'])
    t.same(parsed('body', cls), canonical, `${cls}: the same members`);
  for (const cls of ['trailing-data', 'trailing-comma', 'comment', 'single-quotes']) t.throws(() => parsed('body', cls), `${cls}: no JSON`);
  t.equal(request('body.framing', 'chunked')?.chunked, true);
  t.same(request('body.framing', 'utf-16le')?.encoding, { charset: 'utf-16le', byteOrderMark: true });
  t.same(request('body.framing', 'utf-16be')?.encoding, { charset: 'utf-16be', byteOrderMark: false });
  t.same(parsed('body.framing', 'chunked'), canonical, 'the same document, framed another way');
});

t.test('a pair of slots that interact: the query structure beside a status filter, judged by both rules', async (t) => {
  const cells = requestSpace(contract, { readOnly: false });
  const step = (cls: string) =>
    cells.find((c) => c.slot === 'query.status-pair' && c.cls === cls && c.credential === 'with')?.spec?.steps[0];
  t.equal(step('repeated-same')?.request.rawQuery, 'limit=5&limit=5&status=available');
  t.same(step('repeated-same')?.expect?.spelledValid?.twin, { status: 200, maxItems: 5, everyItem: { status: 'available' } });
  t.same(step('repeated-last-valid')?.expect?.spelledInvalid?.rules, { maxItems: 100, everyItem: { status: 'available' } });
  packKeyless(contract, cells);
  t.ok(
    cells.some((c) => c.slot === 'query' && c.packed !== undefined),
    'the structure alone is packed',
  );
  t.notOk(
    cells.some((c) => c.slot === 'query.status-pair' && c.packed !== undefined),
    'the pair never: its filter would be spelled twice',
  );
});
