import t from 'tap';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { root } from '../../helpers.js';

/**
 * Imports point one way: model ← loader, http, server ← checks, requests ← load, engine ← reporters ← cli. The request
 * builder builds the client's requests, and the judge's evidence repeats them as commands: both read http. Within a layer
 * a folder imports only itself, except that the engine owns the run and so drives load. An import that leaves src/ (the
 * project's own tools/: matrix, benches, build scripts, which import src/, never the other way) has no layer and is reported.
 */
const LAYER: Record<string, number> = {
  model: 0,
  loader: 1,
  http: 1,
  server: 1,
  checks: 2,
  requests: 2,
  load: 3,
  engine: 3,
  reporters: 4,
  cli: 5,
};
const SAME_LAYER_ALLOWED = new Set(['engine→load']);

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : Promise.resolve(e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []),
    ),
  );
  return nested.flat();
}

t.test('imports point one way, from the CLI down to the model', async (t) => {
  const src = path.join(root, 'src');
  const files = await sourceFiles(src);
  t.ok(files.length > 40, `${files.length} source files`);
  const wrong: string[] = [];
  for (const file of files) {
    const from = path.relative(src, file).split(path.sep)[0] as string;
    t.ok(LAYER[from] !== undefined, `src/${from} has a layer`);
    for (const match of (await readFile(file, 'utf8')).matchAll(/^(?:import|export)[^'"]*from '(\.\.?\/[^']+)'/gm)) {
      const to = path.relative(src, path.resolve(path.dirname(file), match[1] as string)).split(path.sep)[0] as string;
      if (to === from) continue;
      const ok = (LAYER[to] ?? 99) < (LAYER[from] ?? -1) || SAME_LAYER_ALLOWED.has(`${from}→${to}`);
      if (!ok) wrong.push(`${path.relative(root, file)} imports ${match[1] as string} (${from} → ${to})`);
    }
  }
  t.same(wrong, [], 'no import goes up or sideways');
});

t.test('only the CLI exits the process', async (t) => {
  const files = await sourceFiles(path.join(root, 'src'));
  const exiting: string[] = [];
  for (const file of files) if (/process\.exit\(/.test(await readFile(file, 'utf8'))) exiting.push(path.relative(root, file));
  t.same(exiting, ['src/cli/main.ts']);
});

t.test('--help and --version load only the option table and what it names: no engine, check or reporter', async (t) => {
  const src = path.join(root, 'src');
  const seen = new Set<string>();
  const walk = async (file: string): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    // Static imports only (`import type` is erased; a dynamic import() is loaded when it runs, not at start-up).
    for (const match of (await readFile(file, 'utf8')).matchAll(/^(?:import|export) (?!type )[^'"]*from '(\.\.?\/[^']+)\.js'/gm))
      await walk(path.resolve(path.dirname(file), `${match[1] as string}.ts`));
  };
  await walk(path.join(src, 'cli/main.ts'));
  const heavy = [...seen].map((f) => path.relative(src, f)).filter((f) => /^(engine|checks|load\/|loader\/(?!package-paths))/.test(f));
  t.same(heavy, [], `start-up loads ${seen.size} modules, none of the run's`);
});

t.test(
  "npm test and npm run test:slow together run every test file once: the tiers' processes, and the slow files of their own",
  async (t) => {
    const { OWN_PROCESS, e2eFiles, slowFiles, unitFiles } = await import('../../slow-files.js');
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
      tap: { include: string[]; before?: string };
      scripts: Record<string, string>;
    };
    const tiers = ['test/e2e-a.test.ts', 'test/e2e-b.test.ts', 'test/fast.test.ts', 'test/typecheck.test.ts'];
    t.same(pkg.tap.include, tiers, 'npx tap: the source, built by nothing');
    // tap starts the files it finds by a glob in the order of the directory, and those it is given in that order.
    t.equal(pkg.scripts['test'], ['tap', ...tiers].join(' '), 'npm test: the same files, in the order slow-files.ts shares them by');
    t.equal(pkg.tap.before, undefined, 'npm test builds nothing first');
    const slowTier = (pkg.scripts['test:slow'] ?? '').split(' ');
    t.same(
      slowTier,
      [
        'tap',
        '--before=test/build-dist.ts',
        'test/matrix.test.ts',
        'test/slow.test.ts',
        'test/slow-load.test.ts',
        ...OWN_PROCESS.map((f) => `test/slow/${f}`),
      ],
      "npm run test:slow: dist/ built first, then the matrix, the slow tier's two processes and the files of their own",
    );
    const ci = await readFile(path.join(root, '.ci', 'run'), 'utf8');
    t.match(ci, /^npm ci\nnpm test\nnpm run test:slow\n/m, 'CI runs both');
    const grouped = [...(await slowFiles('load')), ...(await slowFiles('other'))].map((url) => path.basename(new URL(url).pathname));
    const all = (await readdir(path.join(root, 'test', 'slow'))).filter((file) => file.endsWith('.test.ts'));
    t.same([...grouped, ...OWN_PROCESS].sort(), all.sort(), 'each slow file in exactly one process');
    t.ok(grouped.some((file) => file.startsWith('load-')) && grouped.some((file) => !file.startsWith('load-')), 'both groups hold files');
    const listed = async (folder: string, recursive: boolean): Promise<string[]> =>
      (await readdir(path.join(root, 'test', folder), { recursive })).filter((file) => file.endsWith('.test.ts'));
    t.equal((await unitFiles()).length, (await listed('unit', true)).length, 'the fast tier runs every file under test/unit/');
    t.equal((await e2eFiles()).length, (await listed('e2e', false)).length, 'the whole runs processes run every file of test/e2e/');
    t.same(
      [...(await e2eFiles(0)), ...(await e2eFiles(1))].sort(),
      (await e2eFiles()).sort(),
      'each file of test/e2e/ in exactly one of its two processes',
    );
    const indexFiles = (await readdir(path.join(root, 'test'))).filter((name) => name.endsWith('.test.ts')).sort();
    t.same(
      indexFiles,
      [...pkg.tap.include, ...slowTier.filter((word) => /^test\/[^/]+\.test\.ts$/.test(word))].map((f) => path.basename(f)).sort(),
      'every file in test/ runs in one of the two commands',
    );
  },
);

t.test(
  'test/unit/ mirrors src/: each of its folders tests the source folder of its name (tools/: tools/, project/: the repository)',
  async (t) => {
    const sources = new Set([...(await readdir(path.join(root, 'src'))), 'tools']);
    const entries = await readdir(path.join(root, 'test', 'unit'), { withFileTypes: true });
    t.same(
      entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name),
      [],
      'every test file in the folder of what it tests',
    );
    for (const entry of entries.filter((e) => e.isDirectory() && e.name !== 'project'))
      t.ok(sources.has(entry.name), `test/unit/${entry.name}/ has a src/${entry.name}/`);
  },
);
