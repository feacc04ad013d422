/** Certificates for the TLS tests, made on the spot. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export { certificate } from '../tools/bench/self-signed-certificate.js';

/** A client certificate for mutual TLS signed by a CA of its own, in `dir`: the CA (to trust on the server), the certificate, its key, and the key encrypted with `passphrase`. */
export function clientCertificate(dir: string, passphrase: string): { ca: Buffer; cert: string; key: string; encryptedKey: string } {
  const file = (name: string): string => path.join(dir, name);
  const run = (args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'ignore' });
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run(['req', '-x509', ...ec, '-keyout', file('client-ca.key'), '-out', file('client-ca.pem'), '-days', '1', '-subj', '/CN=client-ca']);
  run(['req', ...ec, '-keyout', file('client.key'), '-out', file('client.csr'), '-subj', '/CN=petstore-conformance']);
  run([
    'x509',
    '-req',
    '-in',
    file('client.csr'),
    '-CA',
    file('client-ca.pem'),
    '-CAkey',
    file('client-ca.key'),
    '-CAcreateserial',
    '-out',
    file('client.pem'),
    '-days',
    '1',
  ]);
  run(['pkey', '-in', file('client.key'), '-aes256', '-passout', `pass:${passphrase}`, '-out', file('client-encrypted.key')]);
  return {
    ca: readFileSync(file('client-ca.pem')),
    cert: file('client.pem'),
    key: file('client.key'),
    encryptedKey: file('client-encrypted.key'),
  };
}
