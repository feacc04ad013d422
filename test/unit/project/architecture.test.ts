import t from 'tap';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { root } from '../../helpers.js';

/**
 * Imports point one way: model ← loader, http, server ← checks, requests ← load, engine ← reporters ← cli. loader/ reads
 * files, requests/ makes every request and case from the contract. The request builder builds the client's requests, and
 * the judge's evidence repeats them as commands: both read http. Within a layer a folder imports only itself, except that
 * the engine owns the run and so drives load. An import that leaves src/ (the project's own tools/: matrix, benches, build
 * scripts, which import src/, never the other way) has no layer and is reported.
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

/** Every relative import of a source file, static or dynamic (`import('./x.js')`), `import type` included. */
const IMPORT = /^(?:import|export)[^'"]*from '(\.\.?\/[^']+)'|\bimport\('(\.\.?\/[^']+)'\)/gm;

/** Each source file (relative to src/) with the source files it imports (relative to src/). */
async function importGraph(src: string): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await sourceFiles(src)) {
    const text = await readFile(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) =>
      path.relative(src, path.resolve(path.dirname(file), (m[1] ?? m[2] ?? '').replace(/\.js$/, '.ts'))),
    );
    graph.set(path.relative(src, file), targets);
  }
  return graph;
}

/** The folder of src/ a file is in, the layer it belongs to. */
const folderOf = (file: string): string => file.split(path.sep)[0] as string;

t.test('imports point one way, from the CLI down to the model', async (t) => {
  const src = path.join(root, 'src');
  const graph = await importGraph(src);
  t.ok(graph.size > 40, `${graph.size} source files`);
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    t.ok(LAYER[from] !== undefined, `src/${from} has a layer`);
    for (const target of targets) {
      const to = folderOf(target);
      if (to === from) continue;
      const ok = (LAYER[to] ?? 99) < (LAYER[from] ?? -1) || SAME_LAYER_ALLOWED.has(`${from}→${to}`);
      if (!ok) wrong.push(`src/${file} imports src/${target} (${from} → ${to})`);
    }
  }
  t.same(wrong, [], 'no import goes up or sideways');
});

/**
 * Edges the layers allow but the design does not: the load measures and checks/ judges it; the CLI starts the embedded
 * server and hands the engine a base URL; reporters render what the run hands them, never the engine's own.
 */
const REFUSED: readonly { from: RegExp; to: RegExp; why: string }[] = [
  { from: /^load\//, to: /^checks\/judge\.ts$/, why: 'load → checks/judge: the load returns measurements, checks/ judges them' },
  { from: /^engine\//, to: /^server\//, why: 'engine → server: the CLI starts the embedded server and hands over a base URL' },
  { from: /^reporters\//, to: /^engine\//, why: 'reporters → engine: a reporter renders the report it is given' },
];

t.test('no load → checks/judge, engine → server or reporters → engine, static or dynamic', async (t) => {
  const graph = await importGraph(path.join(root, 'src'));
  const found: string[] = [];
  for (const [file, targets] of graph)
    for (const target of targets)
      for (const rule of REFUSED)
        if (rule.from.test(file) && rule.to.test(target)) found.push(`${file} → ${target}`.split(path.sep).join('/'));
  t.same(found, [], REFUSED.map((rule) => rule.why).join('; '));
});

/**
 * loader/ only reads files (YAML, configuration, the contract, profiles, reports, schemas); what makes requests and cases
 * from the contract lives in requests/. A generator of cases is named for what it generates (`*-cases.ts`), and a loader
 * that needed one would import requests/, a layer above it.
 */
t.test('loader/ holds no generator: the cases and requests made from the contract are in requests/', async (t) => {
  const loader = (await readdir(path.join(root, 'src', 'loader'))).filter((name) => name.endsWith('.ts'));
  t.same(
    loader.filter((name) => /-cases?\.ts$|^dimensions\.ts$/.test(name)),
    [],
    'no generator of cases in loader/',
  );
  const graph = await importGraph(path.join(root, 'src'));
  const found: string[] = [];
  for (const [file, targets] of graph)
    for (const target of targets) if (/^loader\//.test(file) && /^requests\//.test(target)) found.push(`${file} → ${target}`);
  t.same(found, [], 'no loader file imports requests/');
  const generators = (await readdir(path.join(root, 'src', 'requests'))).filter((name) => /-cases\.ts$/.test(name));
  t.ok(generators.includes('generated-cases.ts'), `requests/ holds the ${generators.length} generators of cases`);
});

/** The import cycles of a graph, each as its files (Tarjan's strongly connected components of more than one file, or a self-import). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let top: string | undefined;
    do {
      top = stack.pop() as string;
      onStack.delete(top);
      component.push(top);
    } while (top !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

t.test('no import cycle, dynamic imports included', async (t) => {
  t.same(cycles(await importGraph(path.join(root, 'src'))), [], 'no file reaches itself through imports');
  t.same(
    cycles(
      new Map([
        ['a.ts', ['b.ts']],
        ['b.ts', ['c.ts']],
        ['c.ts', ['a.ts']],
        ['d.ts', ['a.ts']],
      ]),
    ),
    [['a.ts', 'b.ts', 'c.ts']],
    'the finder finds a cycle, and only it',
  );
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
