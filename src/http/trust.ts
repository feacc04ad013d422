/** The certificates a TLS connection trusts: Node's default store plus the user's --ca-file, the same for every connection of a run. */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

/**
 * The `ca` option for a TLS connection: undefined keeps Node's defaults. Node drops its bundled roots and
 * NODE_EXTRA_CA_CERTS as soon as `ca` is given, so a --ca-file is added to them rather than put in their place.
 */
export function trustedCertificates(ca: string | undefined): string[] | undefined {
  if (ca === undefined) return undefined;
  const extraFile = process.env['NODE_EXTRA_CA_CERTS'];
  let extra: string[] = [];
  if (extraFile !== undefined && extraFile !== '') {
    try {
      extra = [readFileSync(extraFile, 'utf8')];
    } catch {
      // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS; so does the default store here.
    }
  }
  return [...rootCertificates, ...extra, ca];
}
