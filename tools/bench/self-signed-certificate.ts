/** A self-signed certificate made on the spot with openssl: for the https bench, and the TLS tests (test/tls-fixtures.ts). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A self-signed certificate for 127.0.0.1 (or `altName`, e.g. DNS:example.test) (EC, fast to make), written to `dir` as NAME.pem and NAME.key. */
export function certificate(dir: string, name: string, altName = 'IP:127.0.0.1'): { key: Buffer; cert: Buffer } {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=${altName}`,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}
