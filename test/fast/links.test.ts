/**
 * Every relative link of README.md leads to a file of the repository (or a heading of the README), and every file a
 * message or the help names (docs/checks.md, schemas/config.schema.json, ...) is in the repository and in the package.
 */
import t from 'tap';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { root } from '../helpers.js';

/** A heading as GitHub anchors it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Whether `file` is a file or folder inside the repository (never above it). */
async function inRepository(file: string): Promise<boolean> {
  const full = path.resolve(root, file);
  if (path.relative(root, full).startsWith('..')) return false;
  return stat(full).then(
    () => true,
    () => false,
  );
}

t.test('every relative link of README.md resolves: a file of the repository, or a heading of the README', async (t) => {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  // Code blocks hold examples, not links.
  const prose = readme.replace(/```[\s\S]*?```/g, '');
  const anchors = new Set([...readme.matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1] as string)));
  const links = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string).filter((target) => !/^[a-z]+:/i.test(target));
  t.ok(links.length >= 3, `${links.length} relative links found`);
  for (const link of links) {
    const [file = '', anchor] = link.split('#');
    if (file === '') t.ok(anchors.has(anchor ?? ''), `#${anchor ?? ''} is a heading of the README`);
    else t.ok(await inRepository(file), `${link} is a file of the repository`);
  }
});

/** The files the source names outside its comments: what messages and the help point people to. */
async function namedFiles(dir: string): Promise<Array<{ file: string; where: string }>> {
  const found: Array<{ file: string; where: string }> = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const source = path.join(entry.parentPath, entry.name);
    const lines = (await readFile(source, 'utf8')).split('\n');
    for (const [index, line] of lines.entries()) {
      if (/^\s*(\*|\/\/|\/\*)/.test(line)) continue;
      for (const match of line.matchAll(/\b(?:docs|schemas|scenarios|suites)\/[\w./-]+\.(?:md|json|ya?ml)\b/g))
        found.push({ file: match[0], where: `${path.relative(root, source)}:${index + 1}` });
    }
  }
  return found;
}

t.test('every file a message or the help names is in the repository and in the package', async (t) => {
  const { files } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { files: string[] };
  const shipped = files.filter((entry) => !entry.startsWith('!'));
  const named = await namedFiles(path.join(root, 'src'));
  t.ok(
    named.some(({ file }) => file === 'docs/checks.md'),
    'the messages about check ids name docs/checks.md',
  );
  for (const { file, where } of named) {
    t.ok(await inRepository(file), `${file} (${where}) is in the repository`);
    t.ok(
      shipped.some((entry) => file === entry || file.startsWith(`${entry}/`)),
      `${file} (${where}) is in the package's files`,
    );
  }
});
