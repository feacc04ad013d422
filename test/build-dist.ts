/**
 * Runs before the slow tier's files (npm run test:slow: `tap --before=test/build-dist.ts`; alone, `npx tap
 * --before=test/build-dist.ts test/slow/NAME.test.ts`): npm test imports the TypeScript source and builds nothing, but the
 * slow tests that start the CLI as a process of its own, and those of what the build writes, need dist/ as the source is
 * now. Nothing is
 * built when no file the build reads changed since the last build (a file's or a folder's time, so a removal counts too);
 * otherwise an incremental build redoes what changed.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const stamp = path.join(root, 'dist', '.built');
const inputs = ['src', 'tools', 'schemas', 'scenarios', 'suites', 'tsconfig.json', 'package.json'];

/** The latest modification time of a file, or of a folder and everything in it. */
function latest(entry: string): number {
  const stats = statSync(entry, { throwIfNoEntry: false });
  if (stats === undefined) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(entry).map((name) => latest(path.join(entry, name))));
}

const builtAt = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (Math.max(...inputs.map((input) => latest(path.join(root, input)))) >= builtAt) {
  const run = (args: string[]): void => {
    execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  };
  run([
    createRequire(import.meta.url).resolve('typescript/bin/tsc'),
    '-p',
    'tsconfig.json',
    '--incremental',
    '--tsBuildInfoFile',
    path.join('dist', '.tsbuildinfo'),
  ]);
  run([path.join('dist', 'tools', 'build', 'precompile-validators.js')]);
  run([path.join('dist', 'tools', 'build', 'precompile-yaml.js')]);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
