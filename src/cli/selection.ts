/**
 * What a run selects: the suites --suite and --case-kind name, the cases --check names, the ids --skip-check names; a glob
 * that names nothing is a typo, said with the one likely meant.
 */
import type { CaseInputs } from '../engine/inputs.js';
import { PHASES } from '../engine/phases/index.js';
import { RunError } from '../model/errors.js';
import type { CaseInfo } from '../model/results.js';
import type { CaseSpec } from '../model/scenario.js';
import { closest, didYouMean } from '../model/suggest.js';
import { CASE_KINDS } from './options.js';

/** The suites a run selects: --suite, narrowed (or, alone, given) by --case-kind; empty selects all. */
export function selectCaseKinds(suites: readonly string[], kinds: readonly string[], all: readonly string[]): string[] {
  const names: readonly string[] = CASE_KINDS;
  const unknown = kinds.filter((k) => !names.includes(k));
  if (unknown.length > 0)
    throw new RunError(
      'ERR_USAGE',
      `unknown case kind ${unknown.map((k) => `'${k}'${didYouMean(k, names)}`).join(', ')}; the kinds are: ${names.join(', ')}`,
    );
  if (kinds.length === 0) return [...suites];
  const chosen = all.filter((name) => (names.includes(name) ? kinds.includes(name) : kinds.includes('examples')));
  return suites.length === 0 ? chosen : suites.filter((s) => chosen.includes(s));
}

/**
 * What a run judges: every case a phase can report, of the selected suites, that --check names (all without it); each
 * phase decides from `ids` whether it runs (a generated phase runs whole when one of its cases is selected). `unmatched`:
 * the globs that name no case.
 */
export function selectCases(
  inputs: CaseInputs,
  selectedSuites: readonly string[],
  globs: readonly string[],
): { cases: CaseSpec[]; ids: Set<string>; candidates: string[]; unmatched: number[] } {
  const inSelection = (info: CaseInfo): boolean => selectedSuites.length === 0 || selectedSuites.includes(info.suite);
  const only = globs.map((glob) => idGlob(glob));
  const checked = (info: CaseInfo): boolean => only.length === 0 || only.some((pattern) => pattern.test(info.id));
  const candidates = PHASES.flatMap((phase) => phase.cases(inputs)).filter(inSelection);
  // A glob that names nothing is a typo: it never silently runs everything, or nothing.
  const unmatched = only.flatMap((pattern, index) => (candidates.some((c) => pattern.test(c.id)) ? [] : [index]));
  const selected = new Set(candidates.filter(checked).map((c) => c.id));
  return {
    cases: inputs.cases.filter((c) => selected.has(c.id)),
    ids: selected,
    candidates: candidates.map((c) => c.id),
    unmatched,
  };
}

/** A glob over ids (`*` any run of characters, `?` one), as a whole-id pattern. */
export function idGlob(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
}

/**
 * The glob likely meant by one that names no id: its literal start (up to the first wildcard) replaced by the closest
 * start of an id (`auht.*` → `auth.*`, `auth.listpets.*` → `auth.listPets.*`), when that one names some.
 */
function likelyGlob(glob: string, ids: readonly string[]): string | undefined {
  const cut = glob.search(/[*?]/);
  const literal = cut === -1 ? glob : glob.slice(0, cut);
  if (literal === '') return undefined;
  const start = closest(
    literal,
    ids.map((id) => (cut === -1 ? id : id.slice(0, literal.length))),
  );
  const guess = start === undefined ? undefined : `${start}${cut === -1 ? '' : glob.slice(cut)}`;
  return guess !== undefined && guess !== glob && ids.some((id) => idGlob(guess).test(id)) ? guess : undefined;
}

/** What a glob that names no id is told: the glob likely meant, and where the ids are listed. */
export function noMatchText(glob: string, ids: readonly string[], what: string): string {
  const guess = likelyGlob(glob, ids);
  const meant = guess === undefined ? '' : ` (did you mean '${guess}'?)`;
  return `'${glob}' matches no ${what}${meant}; \`petstore-conformance list\` prints every case id`;
}

/** The check and case ids each --skip-check glob names, with the flag as the reason; a glob that names nothing is a usage error. */
export function skippedIds(globs: readonly string[], known: ReadonlySet<string>): Array<{ id: string; reason: string }> {
  return globs.flatMap((glob) => {
    const ids = [...known].filter((id) => idGlob(glob).test(id));
    if (ids.length === 0) throw new RunError('ERR_USAGE', `--skip-check ${noMatchText(glob, [...known], 'check or case')}`);
    return ids.map((id) => ({ id, reason: `--skip-check ${glob}` }));
  });
}
