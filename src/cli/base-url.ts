/**
 * The path of a base URL: the contract's base addresses both end in the version segment /v1, and the suite adds the operations'
 * paths (/pets, /pets/{petId}) to it. A base URL that goes past /v1 (an operation pasted from a browser) or never reaches it
 * would test the wrong paths and blame the server for every 404, so it is refused before anything is sent, with the one to use.
 */

/** The segment both base addresses end in. */
const VERSION = 'v1';

/** The first segment of every operation's path: what a URL copied from a request carries after the base address. */
const OPERATION_ROOT = 'pets';

/** The base URL likely meant by one whose path does not end in /v1 (its path without a trailing slash); undefined when it does. */
export function versionedBaseUrl(url: URL): string | undefined {
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  if (segments.at(-1) === VERSION) return undefined;
  const version = segments.lastIndexOf(VERSION);
  const root = segments.lastIndexOf(OPERATION_ROOT);
  // Past /v1: cut at it. Without it: drop an operation's path (pets, pets/7) and add the version.
  const kept = version !== -1 ? segments.slice(0, version + 1) : [...segments.slice(0, root === -1 ? segments.length : root), VERSION];
  return `${url.origin}/${kept.join('/')}`;
}

/** Why a base URL is refused, and the one to use: one line after the label that names where it came from. */
export function baseUrlProblem(url: URL, label: string): string | undefined {
  const meant = versionedBaseUrl(url);
  if (meant === undefined) return undefined;
  const shown = url.href.replace(/\/$/, '');
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const past = segments.lastIndexOf(VERSION);
  const why =
    past === -1
      ? "does not end in /v1, as both of the contract's base addresses do"
      : `goes past /v1 (the suite adds the operations' paths, such as /${OPERATION_ROOT}, to the base URL itself)`;
  return `${label} ${shown} ${why}: use ${meant}`;
}
