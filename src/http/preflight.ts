/** One listing before anything else: the server must answer, accept the key and answer as a pet store might, or nothing can be judged. */
import { RunError, type RunErrorCode } from '../model/errors.js';
import { safeUrl } from '../model/safe-url.js';
import type { ReceivedResponse } from '../model/exchange.js';
import type { Client } from './client.js';
import { CERTIFICATE_CODES, isTlsFailure, type OutgoingRequest, TransportError } from './sender.js';

/** Whether a body is a web page: what a wrong base URL (a site, a login page, a gateway's error page) answers. */
function isHtml(response: ReceivedResponse): boolean {
  return /html/i.test(response.headers['content-type'] ?? '') || /^\s*</.test(response.bodyText.slice(0, 512));
}

/**
 * Why the target is not a pet store at all, with a hint at the likely mistake; undefined when it answers as one might.
 * Only a missing route (404, 405), a redirect and a web page are refused here: a store that answers its listing with
 * broken JSON, a wrapped listing or a 5xx is a pet store that breaks the contract, and the run judges it (exit 1).
 */
function notAPetStore(response: ReceivedResponse, url: string, base: URL): string | undefined {
  const { status } = response;
  const versioned = /\/v\d+\/?$/.test(base.pathname);
  const hint = versioned ? `is ${base.href} the pet store's base URL?` : `does the base URL end in /v1? (it is ${base.href})`;
  if (status === 404 || status === 405) return `GET ${url} answered ${status}: ${hint}`;
  if (status >= 300 && status < 400) {
    const location = response.headers['location'];
    const to = location === undefined ? '' : ` to ${safeUrl(location, url)}`;
    return `GET ${url} answered ${status}, a redirect${to}: give the base URL it points to`;
  }
  if (isHtml(response)) return `GET ${url} answered ${status} with a web page, not a list of pets: ${hint}`;
  return undefined;
}

/** The base URL over plain http: what a server that does not speak TLS may serve. */
function plainHttp(base: URL): string {
  return base.href.replace(/^https:/, 'http:');
}

/** What to do about a connection that failed before any answer, where the code says: TLS mismatches above all. */
function hintFor(code: string, base: URL): string | undefined {
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG' || code === 'ERR_SSL_HTTP_REQUEST')
    return `the server on port ${base.port || '443'} does not speak TLS: if it serves plain http, use ${plainHttp(base)}`;
  if (code.startsWith('ERR_SSL_')) return `does ${base.host} serve https on this port?`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the certificate is not for ${base.hostname}: use a base URL with a host name it names`;
  if (code === 'CERT_HAS_EXPIRED') return 'the service must renew its certificate';
  if (CERTIFICATE_CODES.test(code)) return 'a certificate of a private CA is trusted with --ca-file FILE (that CA in PEM)';
  if (code === 'ECONNREFUSED') return `nothing listens on ${base.host}; a service still starting can be waited for with --wait-for SECONDS`;
  return undefined;
}

/** What to do about a proxy that failed the request. */
function proxyHint(base: URL): string {
  return `check that the proxy runs and lets the suite through, or list ${base.hostname} in NO_PROXY to go around it`;
}

/** The stable code of a connection that failed before any answer. */
function transportCode(code: string): RunErrorCode {
  return isTlsFailure(code) ? 'ERR_TLS' : 'ERR_UNREACHABLE';
}

/**
 * Sends the listing (the contract's request builder makes it); throws a RunError (exit 2) naming the problem in one line: no
 * answer (a TLS mismatch in words, with what to do), a refused key, no such route, a redirect or a web page.
 */
export async function preflight(
  client: Pick<Client, 'send' | 'base' | 'urlFor'>,
  listing: OutgoingRequest,
  beforeLoad: boolean,
): Promise<void> {
  const listPath = listing.path;
  const href = client.base.href;
  const tail = beforeLoad ? '; no load was sent' : '';
  let response: ReceivedResponse;
  try {
    response = (await client.send(listing)).response;
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    // A proxy that asked for credentials has said what to do already.
    const hint =
      error.via === undefined ? hintFor(error.code, client.base) : error.code === 'ERR_PROXY_AUTH' ? undefined : proxyHint(client.base);
    const cause = `${error.message} (${error.code})${hint === undefined ? '' : `: ${hint}`}`;
    // The server answered: it is reached, and what it sent is the problem.
    if (error.unreadable)
      throw new RunError('ERR_UNREADABLE', `${href} answered GET ${listPath}, but the answer cannot be read: ${cause}${tail}`);
    const through = error.via === undefined || error.message.startsWith('the proxy ') ? '' : ` through the proxy ${error.via}`;
    throw new RunError(
      transportCode(error.code),
      beforeLoad ? `cannot verify ${href} before load${through}: ${cause}${tail}` : `cannot reach ${href}${through}: ${cause}`,
    );
  }
  const { status } = response;
  if (status === 401 || status === 403) {
    throw new RunError(
      'ERR_KEY_REFUSED',
      `${href} refused the API key (${status} to GET ${listPath})${beforeLoad ? tail : ': check PETSTORE_API_KEY or --api-key-file'}`,
    );
  }
  const problem = notAPetStore(response, client.urlFor(listPath, []).href, client.base);
  if (problem !== undefined) throw new RunError('ERR_NOT_A_PET_STORE', `${problem}${tail}`);
}
