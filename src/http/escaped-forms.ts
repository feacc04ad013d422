/**
 * Whether a text may hold a secret in an escaped form, judged without the redactor's full pattern: that pattern (every
 * character of every form of the key, in every encoding) takes tens of milliseconds to compile and run for the first
 * time, per key, and nearly every text with a backslash, a percent sign or an ampersand holds no secret at all.
 */

/**
 * Every escaped form the redactor's full pattern knows for an ASCII character (credentials.ts, characterForms): `\uXXXX`
 * and `\"` `\/` after any number of backslashes, `%XX`, `&#NN;` and `&#xHH;` with any leading zeros, and the named
 * references; in any letter case, as a caseless pattern matches them. Backslashes are taken from the first of a run only:
 * tried from each one, a run of n cost n² steps.
 */
const ESCAPED_FORM =
  /(?<!\\)\\+(?:u([0-9a-f]{4})|(["/]))|%([0-9a-f]{2})|&#(?:x0*([0-9a-f]{1,6})|0*([0-9]{1,7}));|&(amp|lt|gt|quot|apos);/gi;

/** The named references' characters; `&amp;` stands for `&`, which no plain string holds (NONE). */
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', quot: '"', apos: "'" };

/** Stands for a character no plain string holds (`&`), and separates the candidates. */
const NONE = '\0';

/**
 * The character an escaped form writes. One outside ASCII (or a code past U+FFFF, which this writes as another
 * character) is none of a plain string's: at worst the screen says yes where the full pattern then finds nothing.
 */
function decodedCharacter(match: RegExpMatchArray): string {
  const [, unicode, backslashed, percent, hexReference, decimalReference, name] = match;
  if (backslashed !== undefined) return backslashed;
  if (name !== undefined) return NAMED[name.toLowerCase()] ?? NONE;
  const code = unicode ?? percent ?? hexReference;
  return String.fromCharCode(code === undefined ? Number(decimalReference) : Number.parseInt(code, 16));
}

/**
 * Whether `plain` strings may stand in `text` with each of their characters written as it is or in any escaped form
 * above: a test that never says no where such a match exists (it may say yes where none does). It holds for plain
 * strings of ASCII characters without a backslash, a percent sign, an ampersand or NUL (plainForEscapedForms).
 *
 * Such a match never writes `\`, `%` or `&` as themselves, so each escaped form in it starts where the form's own first
 * character is (a backslashed one at the first of its backslashes, none of its forms ending in one): the text with every
 * form replaced by its character holds it, unless the match begins inside a form (its hex digits, `;`), which is why
 * each form as written is tried too, followed by what the text decodes to after it.
 */
export function mayHoldEscaped(text: string, plain: readonly string[], caseless: boolean): boolean {
  const longest = Math.max(0, ...plain.map((p) => p.length));
  const decoded: string[] = [];
  const tails: Array<{ raw: string; at: number }> = [];
  let length = 0;
  let last = 0;
  for (const match of text.matchAll(ESCAPED_FORM)) {
    const index = match.index ?? 0;
    const before = text.slice(last, index);
    decoded.push(before, decodedCharacter(match));
    length += before.length + 1;
    tails.push({ raw: match[0], at: length });
    last = index + match[0].length;
  }
  decoded.push(text.slice(last));
  const whole = decoded.join('');
  const candidates = [whole, ...tails.map(({ raw, at }) => raw + whole.slice(at, at + longest))].join(NONE);
  const searched = caseless ? candidates.toLowerCase() : candidates;
  return plain.some((p) => searched.includes(caseless ? p.toLowerCase() : p));
}

/** Whether mayHoldEscaped may judge these plain strings: ASCII only, none of them holding `\`, `%`, `&` or NUL. */
export function plainForEscapedForms(plain: readonly string[]): boolean {
  return plain.every((p) => /^[\x01-\x7f]*$/.test(p) && !/[\\%&]/.test(p));
}
