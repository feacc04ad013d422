/** What an API key the suite sends must be: its length bounds and its characters, checked once where the key is read. */

/** The fewest characters an API key may have: a shorter one is found inside ordinary words and numbers, and guessed cheaply. */
export const MIN_KEY_CHARACTERS = 8;

/**
 * The most characters an API key may have. Servers' limits on a request's headers are commonly 8 to 16 KiB in all, and the
 * suite sends the key's base64 too (`Basic`, 4/3 its length): 8 KiB keeps that header under Node's default of 16 KiB.
 */
export const MAX_KEY_CHARACTERS = 8192;

/** The key's characters as a header carries them: printable ASCII and the space. */
const PRINTABLE = /^[\x20-\x7e]*$/;

/** What the first character outside printable ASCII is, in words (never the character itself: it is part of a secret). */
function characterKind(code: number): string {
  if (code === 0x0a || code === 0x0d) return 'a line break';
  if (code === 0) return 'a NUL character';
  if (code === 0x09) return 'a tab';
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return 'a control character';
  return 'a character outside ASCII';
}

/**
 * Why `key` (already trimmed) cannot be sent, as the end of a sentence that begins `the API key from WHERE`; undefined
 * when it can. The problem names lengths and positions only, never a character of the key.
 */
export function apiKeyProblem(key: string): string | undefined {
  // The longest first: counting the characters of a megabyte-long key would spread it over an array first.
  if (key.length > MAX_KEY_CHARACTERS)
    return `has ${key.length} characters; the suite sends at most ${MAX_KEY_CHARACTERS} (servers refuse longer headers)`;
  const characters = [...key].length;
  if (characters < MIN_KEY_CHARACTERS)
    return (
      `has ${characters} character${characters === 1 ? '' : 's'}; the suite needs at least ${MIN_KEY_CHARACTERS} ` +
      '(a key that short would be redacted out of ordinary words in every report)'
    );
  // The suite writes the scheme itself (Authorization: Bearer KEY, and Basic for the auth cases): a key given with one is sent twice over.
  const scheme = /^(bearer|basic|token|apikey)\s+\S/i.exec(key)?.[1];
  if (scheme !== undefined)
    return `starts with '${scheme} ': the suite adds the scheme itself (Authorization: Bearer KEY); give the key alone, without '${scheme} '`;
  if (PRINTABLE.test(key)) return undefined;
  const at = key.search(/[^\x20-\x7e]/);
  return (
    `holds ${characterKind(key.charCodeAt(at))} at character ${at + 1}; ` +
    'a key is printable ASCII (spaces allowed inside), which is all a header carries as it is'
  );
}
