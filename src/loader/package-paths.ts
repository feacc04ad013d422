/** Where the package's own data folders are, wherever it is installed. */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/**
 * The package root (the folder holding package.json, schemas/, scenarios/ and suites/): the nearest folder above this file
 * with a package.json, since this file lies at src/loader/ in a checkout and at dist/src/loader/ once built.
 */
const packageRoot = nearestPackage(path.dirname(fileURLToPath(import.meta.url)));

function nearestPackage(folder: string): string {
  if (existsSync(path.join(folder, 'package.json'))) return folder;
  const parent = path.dirname(folder);
  return parent === folder ? folder : nearestPackage(parent);
}

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
