/** One listing before anything else: the server must answer, accept the key and answer as a pet store might, or nothing can be judged. */
import { RunError } from '../model/errors.js';
import { safeUrl } from '../model/safe-url.js';
import type { ReceivedResponse } from '../model/exchange.js';
import type { HttpClient } from './client.js';
import { TransportError } from './sender.js';

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
  if (status >= 300 && status < 400)
    return `GET ${url} answered ${status}, a redirect${response.headers['location'] === undefined ? '' : ` to ${safeUrl(response.headers['location'], url)}`}: give the base URL it points to`;
  if (isHtml(response)) return `GET ${url} answered ${status} with a web page, not a list of pets: ${hint}`;
  return undefined;
}

/** Sends `GET <listPath>`; throws a RunError (exit 2) naming the problem: no answer, a refused key, no such route, a redirect or a web page. */
export async function preflight(
  client: Pick<HttpClient, 'send' | 'base' | 'urlFor'>,
  listPath: string,
  beforeLoad: boolean,
): Promise<void> {
  const href = client.base.href;
  const tail = beforeLoad ? '; no load was sent' : '';
  let response: ReceivedResponse;
  try {
    response = (await client.send({ method: 'GET', path: listPath, query: [], headers: {}, auth: 'valid', operation: 'listPets' }))
      .response;
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    throw new RunError(
      'ERR_UNREACHABLE',
      beforeLoad
        ? `cannot verify ${href} before load: ${error.message} (${error.code})${tail}`
        : `cannot reach ${href}: ${error.message} (${error.code})`,
    );
  }
  const { status } = response;
  if (status === 401 || status === 403) {
    throw new RunError(
      'ERR_CONFIG',
      `${href} refused the API key (${status} to GET ${listPath})${beforeLoad ? tail : ': check PETSTORE_API_KEY or --api-key-file'}`,
    );
  }
  const problem = notAPetStore(response, client.urlFor(listPath, []).href, client.base);
  if (problem !== undefined) throw new RunError('ERR_UNREACHABLE', `${problem}${tail}`);
}
