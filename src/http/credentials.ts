/** How each auth variant turns the API key into an Authorization header, and how that is shown safely. */
import { randomBytes } from 'node:crypto';
import type { AuthVariant } from '../model/contract-names.js';
import { SecretSearch, searchingRedactor } from './secret-search.js';

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
  'uppercase-scheme': [{ scheme: 'BEARER', fromKey: (key) => key }],
  // RFC 9110 §11.4: one or more spaces separate the scheme from its token; two are as valid as one.
  'double-space': [{ scheme: 'Bearer ', fromKey: (key) => key }],
  // Authorization holds one credential (RFC 9110 §11.6.2): a list of two is none.
  'list-form': [{ scheme: 'Bearer', fromKey: (key) => `${key}, x` }],
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
    'uppercase-scheme': 'BEARER <API key>',
    'double-space': 'Bearer  <API key> (two spaces)',
    'list-form': 'Bearer <API key>, x',
    'two-headers': 'Bearer <API key>, and a second Authorization header: Bearer <a wrong token>',
  };
  return descriptions[variant];
}

/** The variants that send the key itself and are meant to be accepted; every other one sends a wrong credential (or none). */
const SENDS_THE_KEY: ReadonlySet<AuthVariant> = new Set<AuthVariant>(['valid', 'lowercase-scheme', 'uppercase-scheme', 'double-space']);

/** A header's value as a server reads it: HTTP drops the spaces and tabs around it, and a scheme's letter case means nothing. */
function asRead(scheme: string, credential: string): string {
  return (scheme === '' ? credential : `${scheme.toLowerCase()} ${credential}`).replace(/^[ \t]+|[ \t]+$/g, '');
}

/**
 * Why `variant` sends no wrong credential with this key, or undefined when it does: every header it sends reads on the
 * wire as the key's own (the swapped case of a key without letters is the key; the key less a trailing space is the key
 * once HTTP drops the space). A server that accepts such a header is right, so the case that sends it is not judged.
 */
export function keyAsWrongCredential(variant: AuthVariant, apiKey: string): string | undefined {
  const headers = SENT[variant];
  if (SENDS_THE_KEY.has(variant) || headers.length === 0) return undefined;
  const key = asRead('Bearer', apiKey);
  const sent = headers.map((header) => ('fromKey' in header ? { scheme: header.scheme, credential: header.fromKey(apiKey) } : undefined));
  if (!sent.every((header) => header !== undefined && asRead(header.scheme, header.credential) === key)) return undefined;
  const exact = sent.every((header) => header?.credential === apiKey);
  const why = exact
    ? variant === 'swapped-case'
      ? ' (the key has no letter whose case can change)'
      : ''
    : ' once HTTP drops the spaces around a header value';
  return (
    `not sent: with this key, the wrong credential '${describeAuthorization(variant) ?? variant}' is the key ` +
    `itself${why}, which a conformant server accepts`
  );
}

/** The variants that send no wrong credential with this key (keyAsWrongCredential), each with why: their cases are not judged. */
export function variantsSendingTheKey(apiKey: string): Map<AuthVariant, string> {
  const found = new Map<AuthVariant, string>();
  for (const variant of Object.keys(SENT) as AuthVariant[]) {
    const reason = apiKey === '' ? undefined : keyAsWrongCredential(variant, apiKey);
    if (reason !== undefined) found.set(variant, reason);
  }
  return found;
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
    'uppercase-scheme': '"Authorization: BEARER $PETSTORE_API_KEY"',
    'double-space': '"Authorization: Bearer  $PETSTORE_API_KEY"',
    'list-form': '"Authorization: Bearer $PETSTORE_API_KEY, x"',
    'two-headers': '"Authorization: Bearer $PETSTORE_API_KEY" -H \'Authorization: Bearer wrong-token\'',
  };
  return forms[variant];
}

/** The shortest secret besides the key that is redacted. */
const MIN_SECRET_LENGTH = 4;

/** The shortest key matched in any letter case. */
const MIN_CASELESS_LENGTH = 8;

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

/**
 * The search for every form of one secret: the secret, less its last character, its base64 forms, and `derived`, the
 * strings the suite itself derives from it and sends (keyDerivedSecrets: for the key only).
 */
function secretSearch(secret: string, derived: readonly string[]): SecretSearch {
  // Letter case is ignored only for a secret long enough that ignoring it cannot match ordinary words.
  const caseless = secret.length >= MIN_CASELESS_LENGTH;
  // The secret less its last character: always when the suite sends it so, else only when long enough not to match ordinary text.
  const shortened = secret.slice(0, -1);
  const withShortened = shortened !== '' && (shortened.length >= MIN_SECRET_LENGTH || derived.includes(shortened));
  // A derived string that holds the secret (a character added) loses it to the secret's own search, which is all that is secret in it.
  const extra = derived.filter((form) => !form.includes(secret));
  const encoded = base64Forms(secret).filter((form) => form.length >= 4);
  return new SecretSearch([secret, ...(withShortened ? [shortened] : []), ...extra, ...encoded], caseless);
}

/**
 * Removes every form of the key (and of the run's other secrets: secret --header values, proxy credentials) from text
 * bound for output: the secret itself in any letter case (a server that compares case-insensitively accepts it so), less
 * its last character, its base64 forms, each written with any of its characters in the encodings output may carry (JSON
 * escapes, percent-encoding, HTML and XML references), and its first part where a text ends or was cut. Every string the
 * suite derives from the key and sends itself (the auth variants: swapped case, split by a space, less its last
 * character, Basic's base64) is removed too, whatever the key's length. Built in time linear in the secrets.
 */
export function makeRedactor(apiKey: string, otherSecrets: readonly string[] = []): (text: string) => string {
  // Another secret of fewer than 4 characters would blank out ordinary letters everywhere: such a one is never echoed, not redacted.
  const secrets = [apiKey, ...otherSecrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH)];
  const searches = [...new Set(secrets)]
    .filter((secret) => secret !== '')
    .map((secret) => secretSearch(secret, secret === apiKey ? keyDerivedSecrets(apiKey) : []));
  return searchingRedactor(searches, REDACTED_MARK);
}
