/** How each auth variant turns the API key into an Authorization header, and how that is shown safely. */
import { randomBytes } from 'node:crypto';
import type { AuthVariant } from '../model/scenario.js';
import { mayHoldEscaped, plainForEscapedForms } from './escaped-forms.js';

/** The key with the case of every letter flipped: a server that compares case-insensitively accepts it. */
function swapCase(key: string): string {
  return [...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

/** The key in two halves with a space between them (the first half the longer). */
function splitBySpace(key: string): string {
  const half = Math.ceil(key.length / 2);
  return `${key.slice(0, half)} ${key.slice(half)}`;
}

/** What a redacted secret reads as. */
export const REDACTED_MARK = '[REDACTED]';

const wrongToken = (): string => `wrong-${randomBytes(12).toString('hex')}`;

/** One Authorization header a variant sends: its scheme ('' for none) and what follows it, built from the key or not. */
type SentHeader = { scheme: string; fromKey: (key: string) => string } | { scheme: string; unrelated: () => string };

/**
 * The Authorization headers each variant sends (none, one, or two): authorizationHeader builds them from this table, and
 * keyDerivedSecrets reads off it what the redactor must remove, so the two cannot drift apart.
 */
const SENT: Record<AuthVariant, readonly SentHeader[]> = {
  valid: [{ scheme: 'Bearer', fromKey: (key) => key }],
  none: [],
  'wrong-token': [{ scheme: 'Bearer', unrelated: wrongToken }],
  'empty-bearer': [{ scheme: 'Bearer', unrelated: () => '' }],
  'basic-scheme': [{ scheme: 'Basic', fromKey: (key) => Buffer.from(`${key}:`).toString('base64') }],
  'appended-char': [{ scheme: 'Bearer', fromKey: (key) => `${key}x` }],
  'removed-char': [{ scheme: 'Bearer', fromKey: (key) => key.slice(0, -1) }],
  'lowercase-scheme': [{ scheme: 'bearer', fromKey: (key) => key }],
  'swapped-case': [{ scheme: 'Bearer', fromKey: swapCase }],
  'basic-raw': [{ scheme: 'Basic', fromKey: (key) => key }],
  'token-scheme': [{ scheme: 'Token', fromKey: (key) => key }],
  'no-scheme': [{ scheme: '', fromKey: (key) => key }],
  'prefixed-char': [{ scheme: 'Bearer', fromKey: (key) => `x${key}` }],
  'space-inside': [{ scheme: 'Bearer', fromKey: splitBySpace }],
  'scheme-suffix': [{ scheme: 'XBearer', fromKey: (key) => key }],
  'trailing-token': [{ scheme: 'Bearer', fromKey: (key) => `${key} x` }],
  'two-headers': [
    { scheme: 'Bearer', fromKey: (key) => key },
    { scheme: 'Bearer', unrelated: wrongToken },
  ],
};

/** The Authorization header value sent for a variant (two values for two headers), or undefined for none. */
export function authorizationHeader(variant: AuthVariant, apiKey: string): string | string[] | undefined {
  const values = SENT[variant].map((sent) => {
    const credential = 'fromKey' in sent ? sent.fromKey(apiKey) : sent.unrelated();
    return sent.scheme === '' ? credential : `${sent.scheme} ${credential}`;
  });
  return values.length <= 1 ? values[0] : values;
}

/**
 * Every string the suite derives from the key and sends itself after a scheme, the key first: the key less its last
 * character, in swapped case, split by a space, with a character added, the base64 of `key:`. The redactor removes each.
 */
export function keyDerivedSecrets(apiKey: string): string[] {
  if (apiKey === '') return [];
  const derived = Object.values(SENT).flatMap((headers) => headers.flatMap((sent) => ('fromKey' in sent ? [sent.fromKey(apiKey)] : [])));
  return [...new Set([apiKey, ...derived])].filter((secret) => secret !== '');
}

/** The header as reports show it: the key never appears, the variant is named instead. */
export function describeAuthorization(variant: AuthVariant): string | undefined {
  const descriptions: Record<AuthVariant, string | undefined> = {
    valid: 'Bearer <API key>',
    none: undefined,
    'wrong-token': 'Bearer <a wrong token>',
    'empty-bearer': 'Bearer ',
    'basic-scheme': 'Basic <base64 of "API key:">',
    'appended-char': 'Bearer <API key>x',
    'removed-char': 'Bearer <API key without its last character>',
    'lowercase-scheme': 'bearer <API key>',
    'swapped-case': 'Bearer <API key with the case of every letter flipped>',
    'basic-raw': 'Basic <API key>',
    'token-scheme': 'Token <API key>',
    'no-scheme': '<API key>',
    'prefixed-char': 'Bearer x<API key>',
    'space-inside': 'Bearer <API key with a space in the middle>',
    'scheme-suffix': 'XBearer <API key>',
    'trailing-token': 'Bearer <API key> x',
    'two-headers': 'Bearer <API key>, and a second Authorization header: Bearer <a wrong token>',
  };
  return descriptions[variant];
}

/** The header in shell form for a curl reproduction, reading the key from $PETSTORE_API_KEY. */
export function shellAuthorization(variant: AuthVariant): string | undefined {
  const forms: Record<AuthVariant, string | undefined> = {
    valid: '"Authorization: Bearer $PETSTORE_API_KEY"',
    none: undefined,
    'wrong-token': "'Authorization: Bearer wrong-token'",
    'empty-bearer': "'Authorization: Bearer '",
    'basic-scheme': '"Authorization: Basic $(printf \'%s:\' "$PETSTORE_API_KEY" | base64)"',
    'appended-char': '"Authorization: Bearer ${PETSTORE_API_KEY}x"',
    'removed-char': '"Authorization: Bearer ${PETSTORE_API_KEY%?}"',
    'lowercase-scheme': '"Authorization: bearer $PETSTORE_API_KEY"',
    'swapped-case': '"Authorization: Bearer $(printf %s "$PETSTORE_API_KEY" | tr a-zA-Z A-Za-z)"',
    'basic-raw': '"Authorization: Basic $PETSTORE_API_KEY"',
    'token-scheme': '"Authorization: Token $PETSTORE_API_KEY"',
    'no-scheme': '"Authorization: $PETSTORE_API_KEY"',
    'prefixed-char': '"Authorization: Bearer x$PETSTORE_API_KEY"',
    'space-inside':
      '"Authorization: Bearer ${PETSTORE_API_KEY:0:(${#PETSTORE_API_KEY}+1)/2} ${PETSTORE_API_KEY:(${#PETSTORE_API_KEY}+1)/2}"',
    'scheme-suffix': '"Authorization: XBearer $PETSTORE_API_KEY"',
    'trailing-token': '"Authorization: Bearer $PETSTORE_API_KEY x"',
    'two-headers': '"Authorization: Bearer $PETSTORE_API_KEY" -H \'Authorization: Bearer wrong-token\'',
  };
  return forms[variant];
}

/** The shortest secret besides the key that is redacted. */
const MIN_SECRET_LENGTH = 4;

/** The shortest key matched in any letter case. */
const MIN_CASELESS_LENGTH = 8;

/** Characters an encoder may put a backslash before (JSON's `\/`, a string escaped twice). */
const BACKSLASHED = new Set(['"', '\\', '/']);
const ENTITIES: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '(?:apos|#39)' };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Hex digits in either case (encodeURIComponent writes %2F, others %2f; \u002B and \u002b), whatever the pattern's flags. */
function anyCaseHex(hex: string): string {
  return hex.replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`);
}

/**
 * Every way one character of a secret may be written in output: itself, JSON `\uXXXX` (any number of backslashes),
 * percent-encoded, an HTML or XML character reference. `runStart`: a form led by backslashes matches only from the first
 * backslash of a run: the same match as from further inside it, found once instead of from each backslash (a run of n
 * backslashes cost n² steps, seconds for 64 KB). Exact only for a pattern none of whose matches ends in a backslash.
 */
function characterForms(c: string, runStart = false): string {
  const code = c.codePointAt(0) ?? 0;
  const hex = anyCaseHex(code.toString(16).padStart(4, '0'));
  const utf8 = [...Buffer.from(c)].map((b) => `%${anyCaseHex(b.toString(16).padStart(2, '0'))}`).join('');
  const backslashes = runStart ? '(?<!\\\\)\\\\+' : '\\\\+';
  const forms = [escapeRegExp(c), `${backslashes}u${hex}`, utf8, `&#0*${code};`, `&#[xX]0*${anyCaseHex(code.toString(16))};`];
  if (BACKSLASHED.has(c)) forms.push(`${backslashes}${escapeRegExp(c)}`);
  const entity = ENTITIES[c];
  if (entity !== undefined) forms.push(`&${entity};`);
  return `(?:${forms.join('|')})`;
}

/**
 * The base64 of the secret wherever it sits in what was encoded (`Basic base64(key:)`, `base64(user:key)`, a token
 * wrapping it): whole, and the part of its encoding that does not depend on its neighbours, at each of the three
 * byte alignments, in both alphabets.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const forms = [bytes, Buffer.from(`${secret}:`), Buffer.from(`:${secret}`)].map((b) => b.toString('base64'));
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const end = Math.floor((shift + bytes.length) / 3) * 4;
    forms.push(encoded.slice(shift === 0 ? 0 : 4, end));
  }
  return forms.flatMap((f) => [f, f.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')]);
}

/** Characters every escaped form of a character needs (JSON and backslash escapes, percent-encoding, HTML and XML references). */
const ESCAPES = /[\\%&]/;

/** A base64 character as output may write it: letters and digits as they are (no encoder escapes them alone), `+ / = - _` in every form. */
function base64CharacterForms(c: string, runStart = false): string {
  return /[A-Za-z0-9]/.test(c) ? c : characterForms(c, runStart);
}

/** A string as a pattern of its characters, each in every form `forms` gives (the first one's backslashed forms from a run's start when `runStart`). */
function spelled(text: string, forms: (c: string, runStart: boolean) => string, runStart: boolean): string {
  return [...text].map((c, i) => forms(c, runStart && i === 0)).join('');
}

/**
 * Removes every form of one secret from a text: the secret, its base64 forms, and `derived`, the strings the suite itself
 * derives from it and sends (keyDerivedSecrets: for the key only), each in every encoding characterForms knows.
 */
function secretRedactor(secret: string, derived: readonly string[], shortcuts: boolean): (text: string) => string {
  // Letter case is ignored only for a secret long enough that ignoring it cannot match ordinary words.
  const caseless = secret.length >= MIN_CASELESS_LENGTH;
  const flags = caseless ? 'i' : '';
  // The secret less its last character: always when the suite sends it so, else only when long enough not to match ordinary text.
  const shortened = secret.slice(0, -1);
  const withShortened = shortened !== '' && (shortened.length >= MIN_SECRET_LENGTH || derived.includes(shortened));
  // A derived string that holds the secret (a character added) loses it to the secret's own alternative, which is all that is
  // secret in it; the key less its last character is that alternative already. The rest is matched in every encoding, Basic's
  // base64 and the key in swapped case among them (ignoring case matches its letters written as they are, not \u0071 for \u0051).
  const extra = [...new Set(derived)].filter((form) => form !== '' && !form.includes(secret) && !(withShortened && form === shortened));
  const encoded = [...new Set(base64Forms(secret))].filter((form) => form.length >= 4 && !extra.includes(form));
  // No match can end in a backslash unless the secret holds one: only then may a match start right after another's backslash.
  const runStart = !secret.includes('\\');
  // The secret less its last character is the secret with that character optional: one alternative, not two (the pattern's size is its cost).
  const last = secret.slice(-1);
  const whole = withShortened
    ? `${spelled(shortened, characterForms, runStart)}(?:${characterForms(last)})?`
    : spelled(secret, characterForms, runStart);
  // Each alternative in every form, and written literally.
  const alternatives: Array<[length: number, pattern: string, literal: string]> = [
    [secret.length, whole, withShortened ? `${escapeRegExp(shortened)}(?:${escapeRegExp(last)})?` : escapeRegExp(secret)],
    ...extra.map((form): [number, string, string] => [form.length, spelled(form, characterForms, runStart), escapeRegExp(form)]),
    ...encoded.map((form): [number, string, string] => [form.length, spelled(form, base64CharacterForms, runStart), escapeRegExp(form)]),
  ];
  // Longest first: where one alternative is a beginning of another (the key less its last character, and the key split by
  // a space), the longer is tried first and nothing of it is left behind.
  alternatives.sort((a, b) => b[0] - a[0]);
  const pattern = new RegExp(alternatives.map(([, alternative]) => alternative).join('|'), `g${flags}`);
  // Every form but the literal one holds a backslash, a percent sign or an ampersand: in a text without them, the literal
  // alternatives alone (the same, in the same order, compared as the full pattern compares) match what the full pattern
  // matches, far faster (every response body passes here, and a 4 MB one that holds the key took the full pattern seconds).
  const literal = new RegExp(alternatives.map(([, , plain]) => plain).join('|'), `g${flags}`);
  // No form of an alternative is shorter than the alternative written plainly (the secret's last character may be missing):
  // a shorter text holds none, and most values of a report are short.
  const shortest = Math.min(
    withShortened ? shortened.length : secret.length,
    ...extra.map((f) => f.length),
    ...encoded.map((f) => f.length),
  );
  // A text with an escape character goes through the full pattern only where some alternative may stand in it (see
  // escaped-forms.ts): a run's report has such texts (JSON escapes in bodies, percent-encoded paths), rarely a secret in them.
  const plain = [withShortened ? shortened : secret, ...extra, ...encoded];
  const screened = shortcuts && plainForEscapedForms(plain);
  return (text) => {
    if (text.length < shortest) return text;
    if (!ESCAPES.test(text)) return text.replace(shortcuts ? literal : pattern, REDACTED_MARK);
    if (screened && !mayHoldEscaped(text, plain, caseless)) return text;
    return text.replace(pattern, REDACTED_MARK);
  };
}

/**
 * Removes every form of the key (and of the run's other secrets: secret --header values, proxy credentials) from text
 * bound for output: the secret itself in any letter case (a server that compares case-insensitively accepts it so), less
 * its last character, its base64 forms, and each written in any of the encodings output may carry (JSON escapes,
 * percent-encoding, HTML and XML references). Every string the suite derives from the key and sends itself (the auth
 * variants: swapped case, split by a space, less its last character, Basic's base64) is removed too, whatever the key's length.
 * `shortcuts` false sends every text through the full pattern: what the tests compare the shortcuts with.
 */
export function makeRedactor(apiKey: string, otherSecrets: readonly string[] = [], shortcuts = true): (text: string) => string {
  // Another secret of fewer than 4 characters would blank out ordinary letters everywhere: such a one is never echoed, not redacted.
  const secrets = [apiKey, ...otherSecrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH)];
  const redactors = [...new Set(secrets)]
    .filter((secret) => secret !== '')
    .map((secret) => secretRedactor(secret, secret === apiKey ? keyDerivedSecrets(apiKey) : [], shortcuts));
  if (redactors.length === 0) return (text) => text;
  return (text) => redactors.reduce((redacted, redact) => redact(redacted), text);
}
