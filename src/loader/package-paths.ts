/** Where the package's own data folders are, wherever it is installed. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The package root (the folder holding package.json, schemas/, scenarios/ and suites/). */
const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Absolute path of a folder or file inside the package. */
export function packagePath(...segments: string[]): string {
  return path.join(packageRoot, ...segments);
}

/** The package version from package.json. */
export function packageVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(packagePath('package.json'), 'utf8'));
  if (typeof manifest === 'object' && manifest !== null && 'version' in manifest && typeof manifest.version === 'string') {
    return manifest.version;
  }
  return '0.0.0';
}
