/**
 * The redactor reads a text's escaped forms as their characters (escaped-forms.ts) and looks for each secret's plain
 * forms there: whatever mix of forms a text writes a secret in, nothing of it is left in any decoding of the output.
 */
import fc from 'fast-check';
import t from 'tap';
import { keyDerivedSecrets, makeRedactor } from '../../../src/http/credentials.js';
import { DecodedView } from '../../../src/http/escaped-forms.js';
import { caselessForm } from '../../../src/http/secret-search.js';

const hex = (code: number, width: number): string => code.toString(16).padStart(width, '0');

/** Every way output may write one ASCII character, each in either letter case where it has letters. */
function encodings(c: string): string[] {
  const code = c.charCodeAt(0);
  const forms = [c, `\\u${hex(code, 4)}`, `\\\\u${hex(code, 4).toUpperCase()}`, `%${hex(code, 2)}`, `%${hex(code, 2).toUpperCase()}`];
  forms.push(`&#${code};`, `&#000${code};`, `&#x${hex(code, 1)};`, `&#X0${hex(code, 1).toUpperCase()};`);
  const named: Record<string, string> = { '&': '&amp;', '<': '&LT;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
  if (named[c] !== undefined) forms.push(named[c]);
  if (c === '"' || c === '/') forms.push(`\\${c}`, `\\\\\\${c}`);
  return forms;
}

/** Each character of `text` in one of its forms, drawn. */
function encodedEach(text: string): fc.Arbitrary<string> {
  return fc.tuple(...[...text].map((c) => fc.constantFrom(...encodings(c)))).map((forms) => forms.join(''));
}

/**
 * A text built from pieces: whole secrets each character in a drawn form (what must be redacted), parts of them so
 * encoded (near misses, and the start of a match inside a form), the secrets as they are, and noise made of form parts.
 */
function texts(secrets: readonly string[]): fc.Arbitrary<string> {
  const whole = fc.constantFrom(...secrets).chain(encodedEach);
  const part = fc.tuple(fc.constantFrom(...secrets), fc.nat(), fc.nat()).chain(([secret, from, to]) => {
    const start = from % secret.length;
    return encodedEach(secret.slice(start, start + 1 + (to % (secret.length - start))));
  });
  const noise = fc.string({ unit: fc.constantFrom(...'\\%&#;xXuU0123456789abcdefABCDEF"\'/ :=+_-k'.split('')), maxLength: 8 });
  return fc.array(fc.oneof(whole, part, noise, fc.constantFrom(...secrets)), { maxLength: 6 }).map((parts) => parts.join(''));
}

/** Decodings written here independently of the redactor's views: what a reader of the output could undo. */
const DECODINGS: ReadonlyArray<(text: string) => string> = [
  (x) => x,
  (x) => x.replace(/\\+u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\+(["/])/g, '$1'),
  (x) => x.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
  (x) =>
    x
      .replace(/&#x0*([0-9a-f]+);/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/&#0*([0-9]+);/g, (_, d: string) => String.fromCharCode(Number(d)))
      .replace(
        /&(amp|lt|gt|quot|apos);/gi,
        (_, n: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[n.toLowerCase()] ?? '',
      ),
];

/** Every decoding at once, one form after another as they stand (a text mixing forms). */
const decodeAll = (x: string): string =>
  x.replace(
    /(?<!\\)\\+u([0-9a-f]{4})|(?<!\\)\\+(["/])|%([0-9a-f]{2})|&#x0*([0-9a-f]+);|&#0*([0-9]+);|&(amp|lt|gt|quot|apos);/gi,
    (_, u?: string, b?: string, p?: string, hx?: string, d?: string, n?: string) => {
      if (b !== undefined) return b;
      if (n !== undefined) return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[n.toLowerCase()] ?? '';
      const code = u ?? p ?? hx;
      return String.fromCharCode(code === undefined ? Number(d) : parseInt(code, 16));
    },
  );

// Keys below and above the caseless threshold (8), with base64's characters, quotes, a slash, a space, hex digits, < and >.
const KEYS = ['q7Z', 'Qz7Wk9p', 'sk+live/Qz7Wk9pM2-Hq4', 'ab"c/d e-f0', '41abcdef-9', 'aAbB;#xX', 'k<e>y\'Q"7z'];

t.test('whatever mix of forms a text writes a secret in, no decoding of the redacted text holds it', async (t) => {
  for (const key of KEYS) {
    const redact = makeRedactor(key);
    const secrets = keyDerivedSecrets(key).concat(Buffer.from(key).toString('base64'), Buffer.from(`:${key}`).toString('base64url'));
    // Compared as the redactor compares: in any letter case for a key of 8 characters or more.
    const same = key.length >= 8 ? caselessForm : (x: string) => x;
    const plain = secrets.filter((s) => !s.includes(key) || s === key).map(same);
    fc.assert(
      fc.property(texts(secrets), (text) => {
        const out = redact(text);
        return [...DECODINGS, decodeAll].every((decode) => !plain.some((secret) => same(decode(out)).includes(secret)));
      }),
      { seed: 26, numRuns: 400 },
    );
    t.pass(`key '${key}': 400 texts`);
  }
});

t.test('a decoded view reads every kind of form, and leads back to the offsets of the text', async (t) => {
  const rows: Array<[text: string, family: 'all' | 'json' | 'percent' | 'html', read: string]> = [
    ['a\\u0041b', 'all', 'aAb'],
    ['a\\\\\\u0041b', 'all', 'aAb'],
    ['x\\/y\\\\\\"z', 'all', 'x/y"z'],
    ['a\\\\b', 'all', 'a\\b'],
    ['a\\\\b', 'json', 'a\\b'],
    ['a\\\\\\"b', 'json', 'a\\"b'],
    ['%41%62%e2%82%acz', 'percent', 'Ab€z'],
    ['%e2%82z', 'all', '\uFFFDz'],
    ['&#x41;&#0066;&AMP;&lt;&#128512;', 'html', 'AB&<😀'],
    ['&#x110000;', 'all', '\uFFFD'],
    ['%41\\u0042&#67;', 'all', 'ABC'],
    ['%41\\u0042&#67;', 'percent', 'A\\u0042&#67;'],
    ['nothing here', 'all', 'nothing here'],
  ];
  for (const [text, family, read] of rows) t.equal(new DecodedView(text, family).text, read, `${family}: ${text}`);
  const view = new DecodedView('ab%43d\\u0045f', 'all');
  t.equal(view.text, 'abCdEf');
  t.same(
    [0, 1, 2, 3, 4, 5].map((at) => [view.startOf(at), view.endOf(at + 1)]),
    [
      [0, 1],
      [1, 2],
      [2, 5],
      [5, 6],
      [6, 12],
      [12, 13],
    ],
    'each character of the view, where it stands in the text',
  );
  t.same(view.form(1), { start: 6, end: 12, viewEnd: 5 });
});

t.test('matches that the views alone would miss, and texts that hold no secret', async (t) => {
  const rows: Array<[key: string, text: string, expected: string, what: string]> = [
    ['41abcdef-9', 'x%41abcdef-9 y', 'x%[REDACTED] y', "a match that begins inside a form's hex digits"],
    ['41abcdef-9', 'x%41abcdef\\u002d9 y', 'x%[REDACTED] y', 'that goes on through another form'],
    ['u0041bcdefg', 'x\\\\u0041bcdefg', 'x\\\\[REDACTED]', 'inside a backslashed form'],
    ['50%off-key', 'a %35%30%25off-key b', 'a [REDACTED] b', 'a key with a percent sign, escaped'],
    ['ab%41cd-xy', 'see ab%41cd-xy here', 'see [REDACTED] here', 'written as it is, where %41 reads as an escape'],
    ['a"b%41c-xyz', 'q a\\"b%41c-xyz q', 'q [REDACTED] q', 'a quote escaped beside a percent sign written as it is'],
    ['a"b%41c-xyz', 'q a&quot;b%41c-xyz q', 'q [REDACTED] q', 'the same in HTML'],
    ['a\\"b-secret', 'q a\\\\\\"b-secret q', 'q [REDACTED] q', 'a backslash and a quote, JSON-escaped once'],
    ['clé-secrète', `x ${encodeURIComponent('clé-secrète')} y`, 'x [REDACTED] y', 'percent-encoded UTF-8'],
    ['clé-secrète', 'x cl\\u00e9-secr\\u00e8te y', 'x [REDACTED] y', 'JSON-escaped outside ASCII'],
    ['sk-live-0123456789', 'a %zz \\q &#; &amp; b', 'a %zz \\q &#; &amp; b', 'forms that are none, or of nothing secret'],
    ['sk-live-0123456789', 'sk-live-01 is not the key', 'sk-live-01 is not the key', 'its beginning, where the text goes on'],
  ];
  for (const [key, text, expected, what] of rows) t.equal(makeRedactor(key)(text), expected, what);
});
