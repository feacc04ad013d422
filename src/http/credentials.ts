/** How each auth variant turns the API key into an Authorization header, and how that is shown safely. */
import { randomBytes } from 'node:crypto';
import type { AuthVariant } from '../model/scenario.js';

/** The key with the case of every letter flipped: a server that compares case-insensitively accepts it. */
function swapCase(key: string): string {
  return [...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

/** The Authorization header value sent for a variant (two values for two headers), or undefined for none. */
export function authorizationHeader(variant: AuthVariant, apiKey: string): string | string[] | undefined {
  switch (variant) {
    case 'valid':
      return `Bearer ${apiKey}`;
    case 'none':
      return undefined;
    case 'wrong-token':
      return `Bearer wrong-${randomBytes(12).toString('hex')}`;
    case 'empty-bearer':
      return 'Bearer ';
    case 'basic-scheme':
      return `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
    case 'appended-char':
      return `Bearer ${apiKey}x`;
    case 'removed-char':
      return `Bearer ${apiKey.slice(0, -1)}`;
    case 'lowercase-scheme':
      return `bearer ${apiKey}`;
    case 'swapped-case':
      return `Bearer ${swapCase(apiKey)}`;
    case 'basic-raw':
      return `Basic ${apiKey}`;
    case 'token-scheme':
      return `Token ${apiKey}`;
    case 'no-scheme':
      return apiKey;
    case 'prefixed-char':
      return `Bearer x${apiKey}`;
    case 'space-inside':
      return `Bearer ${apiKey.slice(0, Math.ceil(apiKey.length / 2))} ${apiKey.slice(Math.ceil(apiKey.length / 2))}`;
    case 'two-headers':
      return [`Bearer ${apiKey}`, `Bearer wrong-${randomBytes(12).toString('hex')}`];
  }
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
    'space-inside': '"Authorization: Bearer ${PETSTORE_API_KEY:0:(${#PETSTORE_API_KEY}+1)/2} ${PETSTORE_API_KEY:(${#PETSTORE_API_KEY}+1)/2}"',
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

/** Every way one character of a secret may be written in output: itself, JSON `\uXXXX` (any number of backslashes), percent-encoded, an HTML or XML character reference. */
function characterForms(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  const hex = code.toString(16).padStart(4, '0');
  const utf8 = [...Buffer.from(c)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  const forms = [escapeRegExp(c), `\\\\+u${hex}`, utf8, `&#0*${code};`, `&#x0*${code.toString(16)};`];
  if (BACKSLASHED.has(c)) forms.push(`\\\\+${escapeRegExp(c)}`);
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
function base64CharacterForms(c: string): string {
  return /[A-Za-z0-9]/.test(c) ? c : characterForms(c);
}

/** Removes every form of one secret from a text. */
function secretRedactor(secret: string): (text: string) => string {
  // The secret itself is always redacted; the forms derived from it only when long enough not to match ordinary text.
  const shortened = secret.slice(0, -1);
  const encoded = [...new Set(base64Forms(secret))].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
  const forms = [...new Set([secret, ...(shortened.length >= 4 ? [shortened] : []), ...encoded])];
  // Letter case is ignored only for a secret long enough that ignoring it cannot match ordinary words.
  const caseless = secret.length >= MIN_CASELESS_LENGTH;
  // The secret less its last character is the secret with that character optional: one alternative, not two (the pattern's size is its cost).
  const whole = shortened.length >= 4 ? `${[...shortened].map(characterForms).join('')}(?:${characterForms(secret.slice(-1))})?` : [...secret].map(characterForms).join('');
  const pattern = new RegExp([whole, ...encoded.map((form) => [...form].map(base64CharacterForms).join(''))].join('|'), caseless ? 'gi' : 'g');
  // Without a backslash, a percent sign or an ampersand, only a form written literally can be in the text, and a pattern of
  // the literal forms alone (compared as the full pattern compares) rules that out far faster (every response body passes here).
  const literal = new RegExp(forms.map(escapeRegExp).join('|'), caseless ? 'i' : '');
  return (text) => (ESCAPES.test(text) || literal.test(text) ? text.replace(pattern, '[REDACTED]') : text);
}

/**
 * Removes every form of the key (and of the run's other secrets: secret --header values, proxy credentials) from text
 * bound for output: the secret itself in any letter case (a server that compares case-insensitively accepts it so), less
 * its last character, its base64 forms, and each written in any of the encodings output may carry (JSON escapes,
 * percent-encoding, HTML and XML references).
 */
export function makeRedactor(apiKey: string, otherSecrets: readonly string[] = []): (text: string) => string {
  // Another secret of fewer than 4 characters would blank out ordinary letters everywhere: such a one is never echoed, not redacted.
  const secrets = [apiKey, ...otherSecrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH)];
  const redactors = [...new Set(secrets)].filter((secret) => secret !== '').map(secretRedactor);
  if (redactors.length === 0) return (text) => text;
  return (text) => redactors.reduce((redacted, redact) => redact(redacted), text);
}
