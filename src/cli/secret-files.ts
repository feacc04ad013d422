/** The secrets a run reads from files and the environment: the API key (bounded, never echoed) and the key and CA files. */
import { randomBytes } from 'node:crypto';
import { fileWhere, readInputFile } from '../loader/input-file.js';
import { apiKeyProblem } from '../model/api-key.js';
import { RunError } from '../model/errors.js';
import { labelOf, type Env, type Settled } from './settings.js';

/** The largest key or CA file read: a PEM bundle of many certificates fits. */
const SECRET_FILE_BYTES = 1024 * 1024;

/** Reads a key or certificate file; `secret`: a problem does not tell its bytes (an API key, a private key). */
export async function readSecretFile(file: string, what: string, secret: boolean): Promise<string> {
  try {
    return (await readInputFile(file, SECRET_FILE_BYTES, secret)).trim();
  } catch (error) {
    throw new RunError('ERR_CONFIG', `${what} ${fileWhere(file, error)}: ${(error as Error).message}`);
  }
}

/** The key each environment's command read and accepted: the catch-all error line of that command is redacted with it. */
const keysRead = new WeakMap<Env, string>();

/**
 * The API keys a command with this environment may hold, the one it uses first: the key it read (a key file's, or
 * PETSTORE_API_KEY's) once accepted, and PETSTORE_API_KEY as far as it is a key the suite accepts (a key it refused is
 * never in the line that says so, and a short one would be redacted out of that line's words).
 */
export function knownApiKeys(env: Env): string[] {
  const fromEnv = env['PETSTORE_API_KEY']?.trim() ?? '';
  const keys = [keysRead.get(env), apiKeyProblem(fromEnv) === undefined ? fromEnv : undefined];
  return [...new Set(keys.filter((key) => key !== undefined))];
}

/**
 * The API key: a key file given as a flag; else PETSTORE_API_KEY (the key itself, which wins over a key file the
 * configuration names); else the configuration's key file; else, for the embedded server, a random one. Whatever its
 * source, the whitespace around it is dropped, and a key the suite cannot send (too short, too long, a character a
 * header does not carry) is one line naming where it came from, never a character of it.
 */
export async function resolveApiKey(settled: Settled, embedded: boolean, env: Env): Promise<string> {
  const { key, from } = await findApiKey(settled, embedded, env);
  const problem = apiKeyProblem(key);
  if (problem !== undefined) throw new RunError('ERR_CONFIG', `the API key from ${from} ${problem}`);
  keysRead.set(env, key);
  return key;
}

/** Where the key comes from, and the key; see resolveApiKey. */
async function findApiKey(settled: Settled, embedded: boolean, env: Env): Promise<{ key: string; from: string }> {
  const file = settled.values['api-key-file'];
  const fromEnv = env['PETSTORE_API_KEY']?.trim();
  const envKey = fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined;
  if (file !== undefined && (settled.origins['api-key-file']?.layer === 'flag' || envKey === undefined)) {
    const label = labelOf(settled, 'api-key-file');
    const key = await readSecretFile(file, label, true);
    if (key === '') throw new RunError('ERR_CONFIG', `${label} ${file}: the file is empty`);
    return { key, from: `${label} ${file}` };
  }
  if (envKey !== undefined) return { key: envKey, from: 'PETSTORE_API_KEY' };
  if (embedded) return { key: `embedded-${randomBytes(18).toString('base64url')}`, from: 'the embedded server' };
  throw new RunError('ERR_CONFIG', 'no API key: set PETSTORE_API_KEY or pass --api-key-file FILE');
}
