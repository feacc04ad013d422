/**
 * Headers a user adds to every request (--header NAME:VALUE, or `headers:` in the configuration): checked, and shown only
 * when not secret.
 */
import type { ExtraHeader } from '../model/connection.js';
import { RunError } from '../model/errors.js';

/** Headers the suite owns, with why a user cannot set them. */
const OWNED: ReadonlyMap<string, string> = new Map([
  ['authorization', 'the suite sends the API key itself (PETSTORE_API_KEY or --api-key-file) and varies it in the auth cases'],
  ['proxy-authorization', 'proxy credentials belong in the proxy URL (HTTPS_PROXY=http://user:password@proxy:3128)'],
  ['host', 'the base URL decides it'],
  ['content-type', 'each case sets the media type it tests'],
  ['content-length', 'the suite frames every request itself'],
  ['transfer-encoding', 'the suite frames every request itself'],
  ['connection', 'the suite manages its connections'],
  ['keep-alive', 'the suite manages its connections'],
  ['upgrade', 'the suite manages its connections'],
  ['te', 'the suite manages its connections'],
  ['trailer', 'the suite frames every request itself'],
  ['expect', 'the suite frames every request itself'],
]);

/** RFC 9110 field-name: a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Names of headers that usually carry a credential. */
const SECRET_NAME = /auth|token|secret|passw|pwd|key|cookie|session|credential|signature|jwt/i;
/** Values that look like a credential whatever the name: a scheme and a token, or a JWT. */
const SECRET_VALUE = /^(?:bearer|basic|digest|token|negotiate)\s+\S|^eyJ[\w-]+\.[\w-]+\./i;

/** How a secret header's value is shown in reports and curl commands. */
export const SECRET_HEADER_SHOWN = '<secret, given with --header>';

/** Checks one header; `where` names its source for the one-line error (`--header`, or the configuration file). */
export function extraHeader(name: string, value: string, where: string): ExtraHeader {
  if (!TOKEN.test(name))
    throw new RunError('ERR_USAGE', `${where}: '${name}' is not a header name (letters, digits and !#$%&'*+.^_\`|~- only)`);
  const owned = OWNED.get(name.toLowerCase());
  if (owned !== undefined) throw new RunError('ERR_USAGE', `${where}: ${name} cannot be set: ${owned}`);
  // Field values are visible ASCII, spaces, tabs and obs-text (RFC 9110 §5.5): a line break would smuggle a header in.
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value))
    throw new RunError('ERR_USAGE', `${where}: the value of ${name} holds a line break, a control character or a character beyond Latin-1`);
  return { name, value: value.trim(), secret: SECRET_NAME.test(name) || SECRET_VALUE.test(value.trim()) };
}

/** Parses `NAME:VALUE` (or `NAME: VALUE`), as curl's -H takes it. */
export function parseHeaderFlag(text: string): ExtraHeader {
  const colon = text.indexOf(':');
  if (colon <= 0)
    throw new RunError(
      'ERR_USAGE',
      `--header needs NAME:VALUE, e.g. --header 'X-Tenant: acme' (got ${text.length} characters without a name and a colon)`,
    );
  return extraHeader(text.slice(0, colon).trim(), text.slice(colon + 1), '--header');
}

/** The values that must never appear in output. */
export function headerSecrets(headers: readonly ExtraHeader[]): string[] {
  return headers.filter((h) => h.secret && h.value !== '').map((h) => h.value);
}
