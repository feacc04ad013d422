/** One listing before anything else: the server must answer, and accept the key, or nothing can be judged. */
import { RunError } from '../model/errors.js';
import { HttpClient, TransportError } from './client.js';

/** Sends `GET <listPath>?limit=1`; throws a RunError (exit 2) naming the problem. Before load, anything but 200 stops it too. */
export async function preflight(client: HttpClient, listPath: string, beforeLoad: boolean): Promise<void> {
  const href = client.base.href;
  const tail = beforeLoad ? '; no load was sent' : '';
  let status: number;
  try {
    status = (await client.send({ method: 'GET', path: listPath, query: [['limit', '1']], headers: {}, auth: 'valid', operation: 'listPets' })).response.status;
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    throw new RunError('ERR_UNREACHABLE', beforeLoad ? `cannot verify ${href} before load: ${error.message} (${error.code})${tail}` : `cannot reach ${href}: ${error.message} (${error.code})`);
  }
  if (status === 401 || status === 403) {
    throw new RunError('ERR_CONFIG', `${href} refused the API key (${status} to GET ${listPath})${beforeLoad ? tail : ': check PETSTORE_API_KEY or --api-key-file'}`);
  }
  if (beforeLoad && status !== 200) throw new RunError('ERR_UNREACHABLE', `${href} answered ${status} to the verified GET ${listPath} before load${tail}`);
}
