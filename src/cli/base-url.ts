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
function versionedBaseUrl(url: URL): string | undefined {
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  if (segments.at(-1) === VERSION) return undefined;
  const version = segments.lastIndexOf(VERSION);
  const root = segments.lastIndexOf(OPERATION_ROOT);
  // Past /v1: cut at it. Without it: drop an operation's path (pets, pets/7) and add the version.
  const kept = version !== -1 ? segments.slice(0, version + 1) : [...segments.slice(0, root === -1 ? segments.length : root), VERSION];
  return `${url.origin}/${kept.join('/')}`;
}

/**
 * A base URL whose last segment is a version other than the contract's (/V1, /v2): the one to use, and why; undefined
 * otherwise. Adding /v1 after it (…/v2/v1) would test paths no server has.
 */
function otherVersion(url: URL, label: string): string | undefined {
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const last = segments.at(-1);
  if (last === undefined || last === VERSION || !/^v\d+$/i.test(last)) return undefined;
  const meant = `${url.origin}/${[...segments.slice(0, -1), VERSION].join('/')}`;
  const shown = url.href.replace(/\/$/, '');
  const why =
    last.toLowerCase() === VERSION
      ? `ends in /${last}: paths are case-sensitive and the contract's version segment is /v1, lowercase`
      : `ends in /${last}: this suite tests the contract's version /v1 (its two base addresses end in /v1)`;
  return `${label} ${shown} ${why}: use ${meant}`;
}

/**
 * Text given as a base URL that is a host and port without a scheme (`localhost:8080/v1`, `127.0.0.1:8080/v1`): the URL
 * meant, with http://; undefined for anything else (which may hold a secret, and is never echoed).
 */
export function schemelessBaseUrl(raw: string): string | undefined {
  if (!/^[a-z0-9.-]+:\d{1,5}(?:\/[\w./-]*)?$/i.test(raw)) return undefined;
  const meant = `http://${raw.replace(/\/$/, '')}`;
  // With the scheme, the path may still need its /v1: the one line says the URL that works.
  try {
    return versionedBaseUrl(new URL(meant)) ?? meant;
  } catch {
    return meant;
  }
}

/** Why a base URL is refused, and the one to use: one line after the label that names where it came from. */
export function baseUrlProblem(url: URL, label: string): string | undefined {
  const version = otherVersion(url, label);
  if (version !== undefined) return version;
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
