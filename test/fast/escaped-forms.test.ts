/**
 * The redactor's screen for texts with an escape character (escaped-forms.ts) never lets a form of the key through:
 * whatever the text, the redactor with its shortcuts writes exactly what its full pattern alone writes.
 */
import fc from 'fast-check';
import t from 'tap';
import { keyDerivedSecrets, makeRedactor } from '../../src/http/credentials.js';
import { mayHoldEscaped, plainForEscapedForms } from '../../src/http/escaped-forms.js';

const hex = (code: number, width: number): string => code.toString(16).padStart(width, '0');

/** Every way the full pattern writes one ASCII character, each in either letter case where it has letters. */
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

// Keys below and above the caseless threshold (8), with base64's characters, quotes, a slash, a space, hex digits, < and >.
const KEYS = ['q7Z', 'Qz7Wk9p', 'sk+live/Qz7Wk9pM2-Hq4', 'ab"c/d e-f0', '41abcdef-9', 'aAbB;#xX', 'k<e>y\'Q"7z'];

t.test('with its shortcuts the redactor writes what its full pattern writes, whatever forms of the key a text holds', async (t) => {
  for (const key of KEYS) {
    const quick = makeRedactor(key);
    const full = makeRedactor(key, [], false);
    const secrets = keyDerivedSecrets(key).concat(Buffer.from(key).toString('base64'), Buffer.from(`:${key}`).toString('base64url'));
    fc.assert(
      fc.property(texts(secrets), (text) => quick(text) === full(text)),
      { seed: 26, numRuns: 400 },
    );
    t.pass(`key '${key}': 400 texts`);
  }
});

t.test('the screen: what it finds, where a match begins inside a form, and the plain strings it may judge', async (t) => {
  const rows: Array<[text: string, plain: string, caseless: boolean, expected: boolean, what: string]> = [
    ['%41bcdef', 'Abcdef', false, true, 'a percent-encoded character'],
    ['%41bcdef', '41bcde', false, true, "a match that begins inside a form's hex digits"],
    ['%41bc%64ef', '1bcdef', false, true, 'that goes on through another form'],
    ['\\\\u0041bc', 'u0041b', false, true, 'inside a backslashed form'],
    ['\\\\u0041bc', 'Abc', false, true, 'after a run of backslashes'],
    ['&#x41;&#66;c', 'ABc', false, true, 'character references'],
    ['&#X0041;&#0066;C', 'abc', true, true, 'references, any case'],
    ['&#X0041;&#0066;C', 'abc', false, false, 'but not ignoring case unless asked'],
    ['\\u00e9abc', 'abc', false, true, 'after a character outside ASCII'],
    ['\\u00e9abc', 'eabc', false, false, 'a character outside ASCII is none of a plain string'],
    ['%zz nothing', 'secret', true, false, 'nothing'],
  ];
  for (const [text, plain, caseless, expected, what] of rows) t.equal(mayHoldEscaped(text, [plain], caseless), expected, what);
  t.ok(plainForEscapedForms(['sk+live/Qz7', 'a b"c']), 'ASCII without \\ % & may be judged');
  t.notOk(plainForEscapedForms(['50%off']), 'a percent sign may not');
  t.notOk(plainForEscapedForms(['clé-secrète']), 'nor a character outside ASCII');
  t.equal(makeRedactor('50%off-key')('a %35%30%25off-key b'), 'a [REDACTED] b', 'such a key goes through the full pattern');
  t.equal(makeRedactor('ab%41cd-xy')('see ab%41cd-xy here'), 'see [REDACTED] here', 'written as it is, where %41 reads as an escape');
});
