/**
 * Every relative link of README.md and of the docs/ pages leads to a file of the repository (or a heading of the page it
 * names), the README stays short, and every file a message or the help names (docs/checks.md, schemas/config.schema.json,
 * ...) is in the repository and in the package.
 */
import t from 'tap';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { root } from '../../helpers.js';

/** The most lines the README may have: what the tool is and how to start; the rest lives in docs/, page by task. */
const README_MAX_LINES = 400;

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

/** A Markdown page without its code blocks, which hold examples (and shell comments that look like headings), not links. */
async function proseOf(page: string): Promise<string> {
  return (await readFile(path.join(root, page), 'utf8')).replace(/```[\s\S]*?```/g, '');
}

/** The anchors of a Markdown page's headings. */
async function anchorsOf(page: string): Promise<Set<string>> {
  return new Set([...(await proseOf(page)).matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1] as string)));
}

/** README.md and every docs/*.md page, relative to the root. */
async function pages(): Promise<string[]> {
  const docs = (await readdir(path.join(root, 'docs'))).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

t.test('every relative link of README.md and of docs/*.md resolves: a file of the repository, or a heading of its page', async (t) => {
  const all = await pages();
  t.ok(all.length >= 5, `${all.length} pages: the README and the docs/ pages it leads to`);
  let total = 0;
  for (const page of all) {
    const links = [...(await proseOf(page)).matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1] as string)
      .filter((target) => !/^[a-z]+:/i.test(target));
    total += links.length;
    for (const link of links) {
      const [file = '', anchor] = link.split('#');
      // A link is relative to the page that holds it; one with no file names a heading of that page.
      const target = file === '' ? page : path.posix.join(path.posix.dirname(page), file);
      if (!(await inRepository(target))) {
        t.fail(`${page}: ${link} is a file of the repository`);
        continue;
      }
      if (anchor === undefined) t.pass(`${page}: ${link} is a file of the repository`);
      else if (!target.endsWith('.md')) t.fail(`${page}: ${link} names a heading of a file that is not Markdown`);
      else t.ok((await anchorsOf(target)).has(anchor), `${page}: #${anchor} is a heading of ${target}`);
    }
  }
  t.ok(total >= 10, `${total} relative links found`);
});

t.test(`README.md has at most ${README_MAX_LINES} lines, and a link to every docs/ page`, async (t) => {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
  t.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines`);
  for (const page of (await pages()).slice(1)) t.ok(readme.includes(`](${page})`), `the README links to ${page}`);
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
