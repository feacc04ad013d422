/** How each auth variant turns the API key into an Authorization header, and how that is shown safely. */
import { randomBytes } from 'node:crypto';
import type { AuthVariant } from '../model/scenario.js';

/** The Authorization header value sent for a variant, or undefined for none. */
export function authorizationHeader(variant: AuthVariant, apiKey: string): string | undefined {
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
  };
  return forms[variant];
}

/** Removes every form of the key (and the variants derived from it) from text bound for output. */
export function makeRedactor(apiKey: string): (text: string) => string {
  // The key itself is always redacted; the forms derived from it only when long enough not to match ordinary text.
  const derived = [apiKey.slice(0, -1), Buffer.from(`${apiKey}:`).toString('base64'), Buffer.from(apiKey).toString('base64'), encodeURIComponent(apiKey)].filter((s) => s.length >= 4);
  const unique = [...new Set([apiKey, ...derived])].filter((s) => s !== '').sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of unique) if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
    return out;
  };
}
