/**
 * The grammar of each kind of slot a request has: the spelling classes the standards that define the slot admit (RFC 3986
 * for URIs and their percent-encoding, RFC 8259 for JSON numbers and strings, RFC 9110 for media types and credentials), each
 * with what it means for the value the slot carries. Pure and deterministic: the same slot always gets the same spellings.
 */

/** The kinds of slot: what grammar a slot's text follows. */
export type SlotType =
  | 'integer'
  | 'enum'
  | 'string'
  | 'path-structure'
  | 'document'
  | 'framing'
  | 'query-name'
  | 'query-structure'
  | 'content-type'
  | 'accept'
  | 'credential';

/** Where a slot's text goes: a path segment, the query string, a header, or the JSON body. */
export type Place = 'path' | 'query' | 'header' | 'body';

/**
 * What a spelling means for the slot's value, which decides the relation that judges it:
 * - `canonical`: the canonical spelling itself (the twin): answered as the contract says;
 * - `kept`: the same value by the slot's own grammar (a JSON escape, JSON whitespace): answered as the twin is, never refused;
 * - `valid`: a spelling of the canonical value: refused with a 4xx Error, or answered as the twin is;
 * - `invalid`: names no valid value: a 4xx Error, or a 2xx that keeps every stated rule;
 * - `refused`: a value the contract names the refusal of (a body value that is not one: 400 with an Error);
 * - `unsent`: the class exists but is not sent here, with the reason.
 */
export type Meaning = 'canonical' | 'kept' | 'valid' | 'invalid' | 'refused' | 'unsent';

/** One spelling class of a slot: its stable name, its text as it goes on the wire (templates allowed), and what it means. */
export interface Spelling {
  /** Stable, kebab-case: `leading-zeros`, `plane-1`. */
  cls: string;
  words: string;
  /** The wire text: percent-encoded where the slot is in the URI, a JSON value's text where it is in the body. */
  text: string;
  meaning: Meaning;
  /** Why a class is not sent (`unsent`), in words. */
  reason?: string;
}

/** The digit counts every number slot is spelled with: a 64-bit integer's 20, then 100, Python's 4,300 limit plus one, 100,000. */
export const DIGIT_COUNTS = [20, 100, 4301, 100_000] as const;

/** The longest request-line RFC 9112 §3 asks every server to take (8,000 octets): a longer target may be refused at the HTTP layer. */
const URI_OCTETS = 8000;

/** Why a body's byte that is not UTF-8 is not sent here: a JSON text holds characters, and the coverage phase sends such bodies. */
const NOT_UTF8_BODY = 'a body that is not UTF-8 is sent by the coverage phase (its invalid-UTF-8 cases)';

/** RFC 3986's reserved characters: the gen-delims a component may only hold percent-encoded (§2.2). */
const GEN_DELIMS = '/?#[]@';
/** The reserved characters a path segment and a query value may hold as they are (sub-delims and : @), less the query's own & = +. */
const RAW_RESERVED = ":@!$'()*,;";

/** The words data layers and languages read specially. */
export const SPECIAL_WORDS = ['null', 'None', 'undefined', 'true', 'NaN', '0'] as const;

/** A code point of every Unicode plane (0 to 16): the planes beyond the first are where UTF-16 needs surrogate pairs. */
export const EVERY_PLANE = Array.from({ length: 17 }, (_, plane) =>
  String.fromCodePoint(plane === 0 ? 0xe9 : plane * 0x10000 + 0x100),
).join('');

/** Each UTF-8 byte of a text percent-encoded (RFC 3986 §2.1), letters and digits included. */
export function percentEncodeAll(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** A text as it goes in a URI component: encoded where RFC 3986 needs it (encodeURIComponent keeps the unreserved set). */
function inUri(text: string): string {
  return encodeURIComponent(text);
}

/** A string as a JSON text (RFC 8259 §7), with the canonical escapes. */
function jsonString(text: string): string {
  return JSON.stringify(text);
}

/**
 * The spellings of an integer slot whose canonical value is `value` (digits, or a template that fills to digits). In a URI
 * every number class is text; in the body, JSON's number grammar decides which are numbers at all (the rest are refused).
 */
export function integerSpellings(value: string, place: Place): Spelling[] {
  const uri = place !== 'body';
  // In a query, a raw `+` is form-encoding's space: the sign goes percent-encoded there, as any client must send it.
  const plus = place === 'query' ? '%2B' : '+';
  const notJson: Meaning = 'refused';
  const inText = (text: string): string => (uri ? inUri(text) : text);
  const digits = (count: number): Spelling => {
    const text = '9'.repeat(count);
    const tooLong = uri && count > URI_OCTETS;
    return {
      cls: `digits-${count}`,
      words: `${count.toLocaleString('en')} digits`,
      text,
      meaning: tooLong ? 'unsent' : uri ? 'invalid' : 'refused',
      ...(tooLong ? { reason: `a target over the ${URI_OCTETS.toLocaleString('en')} octets RFC 9112 §3 asks servers to take` } : {}),
    };
  };
  return [
    { cls: 'canonical', words: 'the canonical decimal', text: value, meaning: 'canonical' },
    { cls: 'sign-plus', words: 'a plus sign', text: `${uri ? plus : '+'}${value}`, meaning: uri ? 'valid' : notJson },
    { cls: 'sign-minus', words: 'a minus sign', text: `-${value}`, meaning: 'invalid' },
    { cls: 'leading-zeros', words: 'leading zeros', text: `00${value}`, meaning: uri ? 'valid' : notJson },
    { cls: 'fraction-zero', words: 'a zero fraction', text: `${value}.0`, meaning: 'valid' },
    { cls: 'fraction', words: 'a fraction', text: `${value}.5`, meaning: uri ? 'invalid' : 'refused' },
    { cls: 'exponent', words: 'an exponent', text: `${value}e0`, meaning: uri ? 'invalid' : 'valid' },
    { cls: 'radix-hex', words: 'hexadecimal', text: '0x1', meaning: uri ? 'invalid' : notJson },
    { cls: 'radix-octal', words: 'octal', text: '0o1', meaning: uri ? 'invalid' : notJson },
    { cls: 'radix-binary', words: 'binary', text: '0b1', meaning: uri ? 'invalid' : notJson },
    { cls: 'separator-underscore', words: 'a digit separator _', text: '1_0', meaning: uri ? 'invalid' : notJson },
    { cls: 'separator-comma', words: 'a digit separator ,', text: inText('1,0'), meaning: uri ? 'invalid' : notJson },
    { cls: 'digits-arabic-indic', words: 'an Arabic-Indic digit', text: inText('\u0661'), meaning: uri ? 'invalid' : notJson },
    { cls: 'digits-full-width', words: 'a full-width digit', text: inText('\uff11'), meaning: uri ? 'invalid' : notJson },
    { cls: 'digits-devanagari', words: 'a Devanagari digit', text: inText('\u0967'), meaning: uri ? 'invalid' : notJson },
    // JSON's whitespace around a value is no part of it (RFC 8259 §2); in a URI a space is part of the text.
    { cls: 'space-leading', words: 'a leading space', text: `${inText(' ')}${value}`, meaning: uri ? 'invalid' : 'kept' },
    { cls: 'space-trailing', words: 'a trailing space', text: `${value}${inText(' ')}`, meaning: uri ? 'invalid' : 'kept' },
    { cls: 'tab', words: 'a leading tab', text: `${inText('\t')}${value}`, meaning: uri ? 'invalid' : 'kept' },
    ...DIGIT_COUNTS.map(digits),
    {
      cls: 'zeros-4301',
      words: 'the value after 4,300 zeros',
      text: `${'0'.repeat(4300)}${value}`,
      meaning: uri ? 'valid' : notJson,
    },
    { cls: 'int64-above', words: '2^63', text: '9223372036854775808', meaning: uri ? 'invalid' : 'refused' },
    { cls: 'int64-below', words: '-2^63 - 1', text: '-9223372036854775809', meaning: uri ? 'invalid' : 'refused' },
    { cls: 'percent-digit', words: 'a percent-encoded digit', text: `%30${value}`, meaning: uri ? 'valid' : notJson },
    {
      cls: 'reserved-encoded',
      words: 'reserved characters percent-encoded after it',
      text: `${value}${uri ? percentEncodeAll(GEN_DELIMS) : GEN_DELIMS}`,
      meaning: uri ? 'invalid' : notJson,
    },
    {
      cls: 'reserved-raw',
      words: 'reserved characters as they are after it',
      text: `${value}${RAW_RESERVED}`,
      meaning: uri ? 'invalid' : notJson,
    },
    {
      cls: 'not-utf8',
      words: 'the byte FF (not UTF-8)',
      text: uri ? `${value}%FF` : value,
      meaning: uri ? 'invalid' : 'unsent',
      ...(uri ? {} : { reason: NOT_UTF8_BODY }),
    },
    { cls: 'nul', words: 'a NUL', text: uri ? `${value}%00` : `${value}\u0000`, meaning: uri ? 'invalid' : notJson },
  ];
}

/**
 * The spellings of a string slot (`enum`: the value must be one of a list; `string`: any text). `value` is the canonical
 * value; `prefix` is put before every text of a free string (a created pet's name carries the run id).
 */
export function stringSpellings(value: string, place: Place, type: 'enum' | 'string', prefix = ''): Spelling[] {
  const uri = place !== 'body';
  const text = (raw: string): string => (uri ? inUri(raw) : jsonString(raw));
  // Another value: in an enum it names none (a URI's is judged by the listing's rules, the body's is refused); a free string keeps it.
  const other: Meaning = type === 'string' ? (uri ? 'valid' : 'kept') : uri ? 'invalid' : 'refused';
  const named = (raw: string): string => text(type === 'string' ? `${prefix}${raw}` : raw);
  const unicodeEscaped = (raw: string): string => [...raw].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const words = SPECIAL_WORDS.map(
    (word): Spelling => ({ cls: `word-${word.toLowerCase()}`, words: `the word ${word}`, text: named(word), meaning: other }),
  );
  // An empty or blank free string: the contract sets no length or content rule, so it may be stored or refused.
  const blank: Meaning = type === 'string' ? 'valid' : uri ? 'invalid' : 'refused';
  return [
    { cls: 'canonical', words: 'the canonical text', text: named(value), meaning: 'canonical' },
    ...words,
    ...(uri ? [] : [{ cls: 'literal-null', words: 'JSON null', text: 'null', meaning: 'refused' as const }]),
    { cls: 'empty', words: 'an empty text', text: text(''), meaning: blank },
    { cls: 'whitespace-only', words: 'only spaces', text: text('   '), meaning: blank },
    { cls: 'control-soh', words: 'the control U+0001', text: named(`x\u0001`), meaning: other },
    { cls: 'control-del', words: 'the control U+007F', text: named(`x\u007f`), meaning: other },
    { cls: 'control-nul', words: 'U+0000', text: named(`x\u0000`), meaning: other },
    { cls: 'plane-0', words: 'a letter of the first plane', text: named('\u00e9'), meaning: other },
    { cls: 'plane-1', words: 'an emoji (a surrogate pair in UTF-16)', text: named('\u{1f600}'), meaning: other },
    { cls: 'every-plane', words: 'a code point of every plane', text: named(EVERY_PLANE), meaning: other },
    {
      cls: 'case-upper',
      words: 'upper case',
      text: named(value.toUpperCase()),
      meaning: type === 'string' ? other : uri ? 'invalid' : 'refused',
    },
    {
      cls: 'space-trailing',
      words: 'a trailing space',
      text: named(`${value} `),
      meaning: type === 'string' ? other : uri ? 'invalid' : 'refused',
    },
    {
      cls: 'reserved-encoded',
      words: 'reserved characters percent-encoded after it',
      text: uri ? `${inUri(value)}${percentEncodeAll(GEN_DELIMS)}` : named(`${value}${GEN_DELIMS}`),
      meaning: other,
    },
    {
      cls: 'reserved-raw',
      words: 'reserved characters as they are after it',
      text: uri ? `${inUri(value)}${RAW_RESERVED}` : named(`${value}${RAW_RESERVED}`),
      meaning: other,
    },
    // The same text, escaped by the slot's own grammar: every letter percent-encoded (RFC 3986 §2.1), or \u-escaped (RFC 8259 §7).
    {
      cls: 'escaped',
      words: uri ? 'every byte percent-encoded' : 'every character \\u-escaped',
      text: uri ? percentEncodeAll(value) : `"${type === 'string' ? prefix : ''}${unicodeEscaped(value)}"`,
      meaning: uri ? 'valid' : 'kept',
    },
    {
      cls: 'not-utf8',
      words: 'the byte FF (not UTF-8)',
      text: uri ? `${inUri(value)}%FF` : named(value),
      meaning: uri ? 'invalid' : 'unsent',
      ...(uri ? {} : { reason: NOT_UTF8_BODY }),
    },
  ];
}

/**
 * The spellings of a path's structure around its last segment (RFC 3986 §3.3): `path` is the operation's path template,
 * and each text is the whole path as sent, dot segments kept. A dot segment, `.` percent-encoded included (§2.3), is
 * resolved away (§5.2.4): the same resource. An empty segment and a trailing slash make another path that many servers
 * read as the same, so either answer holds. A suffix or a parameter on the last segment makes it another value.
 */
export function pathStructureSpellings(path: string): Spelling[] {
  const cut = path.lastIndexOf('/');
  const [head, last] = [path.slice(0, cut), path.slice(cut + 1)];
  return [
    { cls: 'canonical', words: 'the path as documented', text: path, meaning: 'canonical' },
    { cls: 'dot-segment', words: 'a . segment before the last', text: `${head}/./${last}`, meaning: 'valid' },
    { cls: 'dot-dot-segment', words: 'a segment and .. before the last', text: `${head}/x/../${last}`, meaning: 'valid' },
    { cls: 'encoded-dot-segment', words: 'a %2E segment before the last', text: `${head}/%2E/${last}`, meaning: 'valid' },
    { cls: 'empty-segment', words: 'an empty segment before the last', text: `${head}//${last}`, meaning: 'valid' },
    { cls: 'trailing-slash', words: 'a trailing slash', text: `${path}/`, meaning: 'valid' },
    { cls: 'suffix', words: 'a .json suffix on the last segment', text: `${path}.json`, meaning: 'invalid' },
    { cls: 'segment-parameter', words: 'a ;v=1 parameter on the last segment', text: `${path};v=1`, meaning: 'invalid' },
  ];
}

/**
 * The spellings of a JSON document as a whole (RFC 8259), from its members as `[name, JSON text]`: what JSON's grammar
 * leaves free (whitespace, member order, escaped names) keeps the document; what it allows a parser to read two ways (a
 * byte order mark, a name repeated with the same value, §4 and §8.1) and what the contract lets a server refuse (an
 * unknown member, a client's id) may be refused or answered as the twin; what is not JSON, or lacks a member, is refused.
 */
export function documentSpellings(members: ReadonlyArray<readonly [string, string]>): Spelling[] {
  const object = (list: ReadonlyArray<readonly [string, string]>, between = ':', separator = ','): string =>
    `{${list.map(([name, text]) => `${JSON.stringify(name)}${between}${text}`).join(separator)}}`;
  const canonical = object(members);
  const [first, ...rest] = members;
  const [firstName, firstText] = first ?? ['name', '""'];
  // The document with its first member's name written as given (`nameText`: a JSON string, or what is not one).
  const firstNamed = (nameText: string): string =>
    `{${nameText}:${firstText}${rest.map(([name, text]) => `,${JSON.stringify(name)}:${text}`).join('')}}`;
  const escaped = [...firstName].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  return [
    { cls: 'canonical', words: 'the members as documented', text: canonical, meaning: 'canonical' },
    {
      cls: 'whitespace',
      words: "JSON's whitespace around every token",
      text: `\n\t${object(members, ' : ', ' ,\r\n ')}\n `,
      meaning: 'kept',
    },
    { cls: 'member-order', words: 'the members in reverse order', text: object([...members].reverse()), meaning: 'kept' },
    {
      cls: 'escaped-name',
      words: 'a member name \\u-escaped',
      text: firstNamed(`"${escaped}"`),
      meaning: 'kept',
    },
    { cls: 'byte-order-mark', words: 'a UTF-8 byte order mark before it', text: `\ufeff${canonical}`, meaning: 'valid' },
    {
      cls: 'repeated-member',
      words: 'a member repeated with its value',
      text: object([...members, ...members.slice(0, 1)]),
      meaning: 'valid',
    },
    {
      cls: 'unknown-member',
      words: 'a member the contract does not name',
      text: object([...members, ['nickname', '"x"']]),
      meaning: 'valid',
    },
    { cls: 'client-id', words: 'an id the client chose', text: object([['id', '1'], ...members]), meaning: 'valid' },
    {
      cls: 'name-case',
      words: 'a member name in upper case',
      text: firstNamed(JSON.stringify(firstName.toUpperCase())),
      meaning: 'refused',
    },
    { cls: 'missing-member', words: 'a required member left out', text: object(rest), meaning: 'refused' },
    { cls: 'array', words: 'the object inside an array', text: `[${canonical}]`, meaning: 'refused' },
    { cls: 'empty', words: 'no body at all', text: '', meaning: 'refused' },
    { cls: 'trailing-data', words: 'a second value after it', text: `${canonical} {}`, meaning: 'refused' },
    { cls: 'trailing-comma', words: 'a comma after the last member', text: `${canonical.slice(0, -1)},}`, meaning: 'refused' },
    { cls: 'comment', words: 'a comment before it', text: `/* pet */${canonical}`, meaning: 'refused' },
    { cls: 'single-quotes', words: 'a member name in single quotes', text: firstNamed(`'${firstName}'`), meaning: 'refused' },
  ];
}

/**
 * The spellings of a body's framing and encoding (RFC 9112 §6, RFC 8259 §8.1): the text names how the same document goes
 * (`content-length`, `chunked`, or a charset with a byte order mark). Chunked is the same body; UTF-16 and UTF-32 are no
 * JSON between systems, which the reading says is refused.
 */
export function framingSpellings(): Spelling[] {
  return [
    { cls: 'canonical', words: 'UTF-8 with a Content-Length', text: 'content-length', meaning: 'canonical' },
    { cls: 'chunked', words: 'chunked transfer coding', text: 'chunked', meaning: 'kept' },
    { cls: 'utf-16le', words: 'UTF-16LE with a byte order mark', text: 'utf-16le+bom', meaning: 'refused' },
    { cls: 'utf-16be', words: 'UTF-16BE with no byte order mark', text: 'utf-16be', meaning: 'refused' },
    { cls: 'utf-32le', words: 'UTF-32LE with a byte order mark', text: 'utf-32le+bom', meaning: 'refused' },
  ];
}

/** The spellings of a query parameter's name, `name=value` whole: percent-encoded, in another case, with bytes added. */
export function queryNameSpellings(name: string, value: string): Spelling[] {
  return [
    { cls: 'canonical', words: 'the name as documented', text: `${name}=${value}`, meaning: 'canonical' },
    { cls: 'escaped', words: 'the name percent-encoded', text: `${percentEncodeAll(name)}=${value}`, meaning: 'valid' },
    { cls: 'case-upper', words: 'the name in upper case', text: `${name.toUpperCase()}=${value}`, meaning: 'invalid' },
    { cls: 'not-utf8', words: 'a name of the byte FF', text: `%FF=${value}`, meaning: 'invalid' },
    { cls: 'nul', words: 'a NUL after the name', text: `${name}%00=${value}`, meaning: 'invalid' },
  ];
}

/**
 * The spellings of the query string's structure around one parameter (`name` with an in-range `value`, another in-range
 * `second`, and `bad` outside its range): repeated names, the array syntaxes servers parse, a name with no value.
 */
export function queryStructureSpellings(name: string, value: string, second: string, bad: string): Spelling[] {
  return [
    { cls: 'canonical', words: 'one pair', text: `${name}=${value}`, meaning: 'canonical' },
    { cls: 'repeated-same', words: 'the same pair twice', text: `${name}=${value}&${name}=${value}`, meaning: 'valid' },
    { cls: 'empty-pairs', words: 'empty pairs around it', text: `&&${name}=${value}&`, meaning: 'valid' },
    { cls: 'repeated-first-valid', words: 'repeated, the first valid', text: `${name}=${value}&${name}=${bad}`, meaning: 'invalid' },
    { cls: 'repeated-last-valid', words: 'repeated, the last valid', text: `${name}=${bad}&${name}=${value}`, meaning: 'invalid' },
    { cls: 'repeated-every-valid', words: 'repeated, every value valid', text: `${name}=${value}&${name}=${second}`, meaning: 'invalid' },
    { cls: 'repeated-every-invalid', words: 'repeated, every value invalid', text: `${name}=0&${name}=${bad}`, meaning: 'invalid' },
    { cls: 'array-brackets', words: 'the a[]= syntax', text: `${name}[]=${value}`, meaning: 'invalid' },
    { cls: 'array-comma', words: 'the a=x,y syntax', text: `${name}=${value},${bad}`, meaning: 'invalid' },
    { cls: 'array-index', words: 'the a[0]= syntax', text: `${name}[0]=${bad}`, meaning: 'invalid' },
    { cls: 'name-only', words: 'the name with no value', text: name, meaning: 'invalid' },
    { cls: 'empty-value', words: 'the name with an empty value', text: `${name}=`, meaning: 'invalid' },
    { cls: 'semicolon', words: 'a ; separator', text: `${name}=${value};${name}=${bad}`, meaning: 'invalid' },
  ];
}

/** The spellings of a media type header (RFC 9110 §8.3.1 and §12.5.1) whose canonical value is application/json. */
export function mediaTypeSpellings(type: 'content-type' | 'accept'): Spelling[] {
  const common: Spelling[] = [
    { cls: 'canonical', words: 'application/json', text: 'application/json', meaning: 'canonical' },
    { cls: 'parameter', words: 'a charset parameter', text: 'application/json; charset=utf-8', meaning: 'valid' },
    { cls: 'quoted-parameter', words: 'a quoted parameter', text: 'application/json; charset="utf-8"', meaning: 'valid' },
    { cls: 'case', words: 'another letter case', text: 'Application/JSON', meaning: 'valid' },
    { cls: 'spaces', words: 'spaces around the parameter', text: 'application/json ;  charset=UTF-8', meaning: 'valid' },
    { cls: 'plus-json', words: 'a +json type', text: 'application/vnd.petstore+json', meaning: 'invalid' },
    { cls: 'other-type', words: 'another type', text: 'text/plain', meaning: 'invalid' },
    { cls: 'absent', words: 'no header', text: '', meaning: type === 'accept' ? 'valid' : 'invalid' },
  ];
  if (type === 'content-type')
    return [...common, { cls: 'form', words: 'a form type', text: 'application/x-www-form-urlencoded', meaning: 'invalid' }];
  return [
    ...common,
    { cls: 'wildcard', words: '*/*', text: '*/*', meaning: 'valid' },
    { cls: 'type-wildcard', words: 'application/*', text: 'application/*', meaning: 'valid' },
    { cls: 'list', words: 'a list with weights', text: 'text/html;q=0.9, application/json', meaning: 'valid' },
    { cls: 'q-zero', words: 'JSON at weight 0', text: 'application/json;q=0', meaning: 'invalid' },
  ];
}

/** The credential's spellings (RFC 9110 §11.6.2, RFC 6750 §2.1): the text names the auth variant or the place the key goes. */
export function credentialSpellings(): Spelling[] {
  return [
    { cls: 'canonical', words: 'Bearer and the key', text: 'valid', meaning: 'canonical' },
    { cls: 'scheme-lower', words: 'the scheme in lower case', text: 'lowercase-scheme', meaning: 'valid' },
    { cls: 'scheme-upper', words: 'the scheme in upper case', text: 'uppercase-scheme', meaning: 'valid' },
    { cls: 'extra-spaces', words: 'two spaces after the scheme (1*SP)', text: 'double-space', meaning: 'valid' },
    { cls: 'repeated-header', words: 'the header twice (the key, then a wrong token)', text: 'two-headers', meaning: 'valid' },
    { cls: 'list-form', words: 'a list of two credentials', text: 'list-form', meaning: 'invalid' },
    { cls: 'no-scheme', words: 'the key with no scheme', text: 'no-scheme', meaning: 'invalid' },
    { cls: 'other-scheme', words: 'the key under the Token scheme', text: 'token-scheme', meaning: 'invalid' },
    { cls: 'empty', words: 'Bearer with no token', text: 'empty-bearer', meaning: 'invalid' },
    { cls: 'absent', words: 'no Authorization', text: 'none', meaning: 'invalid' },
    { cls: 'query-key', words: 'the key in the query only', text: 'query', meaning: 'invalid' },
    { cls: 'header-key', words: 'the key in X-API-Key only', text: 'header', meaning: 'invalid' },
    { cls: 'cookie-key', words: 'the key in a cookie only', text: 'cookie', meaning: 'invalid' },
  ];
}
