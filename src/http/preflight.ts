/** One listing before anything else: the server must answer, accept the key and list pets as JSON, or nothing can be judged. */
import { RunError } from '../model/errors.js';
import { safeUrl } from '../model/safe-url.js';
import type { ReceivedResponse } from '../model/exchange.js';
import type { HttpClient } from './client.js';
import { TransportError } from './sender.js';

/** Why a listing is not a pet store's, with a hint at the likely mistake; undefined when it is one (200 and a JSON array). */
function notAListing(response: ReceivedResponse, url: string, base: URL): string | undefined {
  const { status, json } = response;
  if (status === 200 && Array.isArray(json)) return undefined;
  const versioned = /\/v\d+\/?$/.test(base.pathname);
  const hint = versioned ? `is ${base.href} the pet store's base URL?` : `does the base URL end in /v1? (it is ${base.href})`;
  if (status === 404 || status === 405) return `GET ${url} answered ${status}: ${hint}`;
  if (status >= 300 && status < 400)
    return `GET ${url} answered ${status}, a redirect${response.headers['location'] === undefined ? '' : ` to ${safeUrl(response.headers['location'], url)}`}: give the base URL it points to`;
  if (status !== 200) return `GET ${url} answered ${status}: the service cannot list pets, so nothing can be judged`;
  const what =
    json === undefined ? `a body that is not JSON (${response.headers['content-type'] ?? 'no content type'})` : 'JSON that is not an array';
  return `GET ${url} answered 200 with ${what}, not a list of pets: ${hint}`;
}

/** Sends `GET <listPath>`; throws a RunError (exit 2) naming the problem: no answer, a refused key, or an answer that is not a listing of pets. */
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
  const problem = notAListing(response, client.urlFor(listPath, []).href, client.base);
  if (problem !== undefined) throw new RunError('ERR_UNREACHABLE', `${problem}${tail}`);
}
