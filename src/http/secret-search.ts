/**
 * The redactor's search: each secret's plain forms looked for with indexOf in the text as it is and in its decoded views
 * (escaped-forms.ts), never a pattern built from the secret. Building costs time linear in the secret; redacting a text
 * costs time linear in the text and the secret (a pattern of every form of every character of a 32 KB key did not
 * compile, and one of a 1 MB key took minutes and gigabytes).
 */
import { DecodedView, ESCAPE_STARTS, type EscapeFamily } from './escaped-forms.js';

/**
 * The shortest beginning of a form of a secret removed where a text ends or was cut (`…`): reports keep excerpts of
 * bodies and messages, cut at a few KiB, and a key echoed there must not survive as its first half. Shorter beginnings
 * would be found in ordinary text (a key that starts with a word), and give little of a key away.
 */
const MIN_CUT_PREFIX = 12;

/** The longest part of an escaped form a match may begin inside (`41` of `%41`, `u0041` of `\u0041`, `#x41;` of `&#x41;`). */
const TAIL_MAX = 16;

/** How many of the last `…` of a text are taken for cuts: the suite's own cut marks come last, after what a server sent. */
const CUT_MARKS = 4;
const CUT_MARK = '…';

/**
 * A character in upper case as a caseless pattern (`/i`) compares it: one whose upper case is two characters (ß), or
 * an ASCII letter for a character outside ASCII (ſ), stays as it is. The redactor's screen is such a pattern.
 */
const upperCache = new Map<string, string>();
function upperUnit(c: string): string {
  let upper = upperCache.get(c);
  if (upper === undefined) {
    const whole = c.toUpperCase();
    upper = whole.length === 1 && !(c > '\x7f' && whole <= '\x7f') ? whole : c;
    upperCache.set(c, upper);
  }
  return upper;
}

/** `text` in upper case character by character, as a caseless pattern compares it: every offset is the same as in `text`. */
export function caselessForm(text: string): string {
  return /^[\x00-\x7f]*$/.test(text)
    ? text.toUpperCase()
    : text.replace(/[a-z]+|[^\x00-\x7f]/g, (part) => (part.length === 1 && part > '\x7f' ? upperUnit(part) : part.toUpperCase()));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** KMP's table: for each prefix of `needle`, the length of its longest proper prefix that is also its suffix. */
function failureTable(needle: string): Int32Array {
  const table = new Int32Array(needle.length);
  for (let i = 1, k = 0; i < needle.length; i++) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = table[k - 1] ?? 0;
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k += 1;
    table[i] = k;
  }
  return table;
}

/** Characters that stand inside an escaped form after its first one, and those a form ends with (escaped-forms.ts). */
const FORM_INSIDE = /^[0-9a-fglmopqstux#;"/\\]+$/i;
const FORM_END = /[0-9a-f;"/\\]$/i;

/** A text, or one of its views, as each secret's search reads it: its upper-case form and its cuts found once, when first needed. */
export class Place {
  private upper: string | undefined;
  private cuts: number[] | undefined;

  constructor(
    /** The text, or its view. */
    readonly text: string,
    /** The view, or undefined for the text itself. */
    readonly view: DecodedView | undefined,
    /** The text itself, for a view: where a match that begins inside a form reads its characters. */
    private readonly source: Place | undefined,
  ) {}

  /** The text (or view) in the case a search compares in. */
  hay(caseless: boolean): string {
    if (!caseless) return this.text;
    this.upper ??= caselessForm(this.text);
    return this.upper;
  }

  /** The text itself in the case a search compares in. */
  raw(caseless: boolean): string {
    return (this.source ?? this).hay(caseless);
  }

  /** Where the text (or view) ends or was cut: its end, and before each of its last few `…`. */
  ends(): readonly number[] {
    this.cuts ??= cutEnds(this.text);
    return this.cuts;
  }
}

/** Finds every form of one secret in a text: its plain strings, each written plainly or with escaped characters. */
export class SecretSearch {
  readonly caseless: boolean;
  /** The plain strings, in the case they are compared in. */
  private readonly needles: readonly string[];
  /** The shortest text that may hold anything this search removes. */
  readonly shortest: number;
  /** Whether a plain string holds an escape character itself: the one-family views are searched too. */
  readonly escapable: boolean;
  /**
   * The first MIN_CUT_PREFIX characters of each plain string, any of them: every match and every cut beginning holds one
   * as it is written in the text or view searched, so a text this small pattern does not match is left at once.
   */
  private readonly screen: RegExp;
  private readonly tables = new Map<number, Int32Array>();
  /** Each plain string's beginnings that may be the end of an escaped form, up to TAIL_MAX characters, with which string and how long. */
  private readonly beginnings = new Map<string, Array<[needle: number, length: number]>>();
  /** The characters of those beginnings: a form's end made of others begins none. */
  private readonly beginningCharacters = new Set<number>();

  constructor(plain: readonly string[], caseless: boolean) {
    this.caseless = caseless;
    this.needles = [...new Set(plain.filter((p) => p !== '').map((p) => (caseless ? caselessForm(p) : p)))];
    const cut = this.needles.some((n) => n.length > MIN_CUT_PREFIX) ? [MIN_CUT_PREFIX] : [];
    this.shortest = Math.min(...this.needles.map((n) => n.length), ...cut);
    this.escapable = this.needles.some((n) => ESCAPE_STARTS.test(n));
    const heads = [...new Set(this.needles.map((n) => escapeRegExp(n.slice(0, MIN_CUT_PREFIX))))];
    this.screen = new RegExp(heads.length === 0 ? '(?!)' : heads.join('|'), caseless ? 'i' : '');
    this.needles.forEach((needle, n) => {
      for (let length = 1; length <= Math.min(TAIL_MAX, needle.length - 1); length++) {
        const beginning = needle.slice(0, length);
        if (!FORM_INSIDE.test(beginning) || !FORM_END.test(beginning)) continue;
        this.beginnings.set(beginning, [...(this.beginnings.get(beginning) ?? []), [n, length]]);
        for (let i = 0; i < length; i++) this.beginningCharacters.add(beginning.charCodeAt(i));
      }
    });
  }

  /** Adds to `spans` (pairs of the text's offsets) every place of the text this secret stands in. */
  find(place: Place, spans: number[]): void {
    const { view } = place;
    if (this.screen.test(place.text)) {
      const hay = place.hay(this.caseless);
      const add = (start: number, end: number): void => {
        spans.push(view === undefined ? start : view.startOf(start), view === undefined ? end : view.endOf(end));
      };
      this.needles.forEach((needle, n) => {
        // Non-overlapping, as a global replace: each character of the text is compared a bounded number of times.
        for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + needle.length)) add(at, at + needle.length);
        if (needle.length > MIN_CUT_PREFIX) for (const end of place.ends()) this.findCutPrefix(hay, n, end, add);
      });
    }
    // A match that begins inside a form holds no beginning of a plain string as written: the screen cannot rule it out.
    if (view !== undefined && this.beginnings.size > 0) this.findInsideForms(place, view, spans);
  }

  /** The longest beginning of needle `n` (at least MIN_CUT_PREFIX long) that ends at `end`. */
  private findCutPrefix(hay: string, n: number, end: number, add: (start: number, end: number) => void): void {
    const needle = this.needles[n] ?? '';
    const from = Math.max(0, end - needle.length + 1);
    const head = hay.slice(from, end).indexOf(needle.slice(0, MIN_CUT_PREFIX));
    if (head === -1) return;
    let table = this.tables.get(n);
    if (table === undefined) {
      table = failureTable(needle);
      this.tables.set(n, table);
    }
    let k = 0;
    for (let i = from + head; i < end; i++) {
      const c = hay.charCodeAt(i);
      while (k > 0 && (k === needle.length || c !== needle.charCodeAt(k))) k = table[k - 1] ?? 0;
      if (c === needle.charCodeAt(k)) k += 1;
    }
    if (k >= MIN_CUT_PREFIX) add(end - k, end);
  }

  /**
   * Matches that begin inside an escaped form (the `41` of `%41` read as it is) and go on in the view after it: the
   * form's last characters are a beginning of a plain string, and the rest of it stands in the view where the form ends.
   */
  private findInsideForms(place: Place, view: DecodedView, spans: number[]): void {
    const raw = place.raw(this.caseless);
    const candidates = new Map<string, { n: number; length: number; at: number[]; starts: number[] }>();
    for (let i = 0; i < view.forms; i++) {
      const { start, end, viewEnd } = view.form(i);
      for (let length = 1; length <= Math.min(TAIL_MAX, end - start - 1); length++) {
        // A longer end of the form holds this character too.
        if (!this.beginningCharacters.has(raw.charCodeAt(end - length))) break;
        for (const [n, l] of this.beginnings.get(raw.slice(end - length, end)) ?? []) {
          const key = `${n}:${l}`;
          const group = candidates.get(key) ?? { n, length: l, at: [], starts: [] };
          group.at.push(viewEnd);
          group.starts.push(end - l);
          candidates.set(key, group);
        }
      }
    }
    if (candidates.size === 0) return;
    const hay = place.hay(this.caseless);
    for (const { n, length, at, starts } of candidates.values()) {
      const rest = (this.needles[n] ?? '').slice(length);
      // Each indexOf either confirms a place or passes every place before what it found: the text is read about once.
      let next = -2;
      for (let i = 0; i < at.length; i++) {
        const where = at[i] ?? 0;
        if (next < where) next = hay.indexOf(rest, where);
        if (next === -1) break;
        if (next !== where) continue;
        spans.push(starts[i] ?? 0, view.endOf(where + rest.length));
        next = -2;
      }
    }
  }
}

/** Where a text (or its view) ends or was cut: its end (and before the line breaks or spaces it ends with), and before its last `…`. */
function cutEnds(hay: string): number[] {
  let end = hay.length;
  for (let c = hay.charCodeAt(end - 1); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = hay.charCodeAt(end - 1)) end -= 1;
  const ends = end === hay.length ? [end] : [hay.length, end];
  let at = hay.lastIndexOf(CUT_MARK);
  for (let marks = 0; at !== -1 && marks < CUT_MARKS; marks++) {
    ends.push(at);
    at = at === 0 ? -1 : hay.lastIndexOf(CUT_MARK, at - 1);
  }
  return ends;
}

/** The text with every span (pairs of offsets) replaced by `mark`; overlapping spans are one. */
function replaceSpans(text: string, spans: readonly number[], mark: string): string {
  const order = Array.from({ length: spans.length / 2 }, (_, i) => i).sort((a, b) => (spans[2 * a] ?? 0) - (spans[2 * b] ?? 0));
  const parts: string[] = [];
  let written = 0;
  let open = -1;
  for (const i of order) {
    const start = spans[2 * i] ?? 0;
    const end = spans[2 * i + 1] ?? 0;
    if (open !== -1 && start < open) {
      open = Math.max(open, end);
      continue;
    }
    if (open !== -1) written = open;
    parts.push(text.slice(written, start), mark);
    written = start;
    open = end;
  }
  parts.push(text.slice(open === -1 ? written : open));
  return parts.join('');
}

/** Removes every form of the secrets from a text, each replaced by `mark`. */
export function searchingRedactor(searches: readonly SecretSearch[], mark: string): (text: string) => string {
  if (searches.length === 0) return (text) => text;
  const shortest = Math.min(...searches.map((s) => s.shortest));
  const families: EscapeFamily[] = searches.some((s) => s.escapable) ? ['all', 'json', 'percent', 'html'] : ['all'];
  return (text) => {
    if (text.length < shortest) return text;
    const spans: number[] = [];
    const place = new Place(text, undefined, undefined);
    for (const search of searches) search.find(place, spans);
    if (ESCAPE_STARTS.test(text))
      for (const family of families) {
        const view = new DecodedView(text, family);
        if (view.forms === 0) continue;
        const viewPlace = new Place(view.text, view, place);
        for (const search of searches) search.find(viewPlace, spans);
      }
    return spans.length === 0 ? text : replaceSpans(text, spans, mark);
  };
}
