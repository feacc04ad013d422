import t from 'tap';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadContract } from '../dist/loader/contract.js';
import { loadProfile, resolveProfilePath } from '../dist/loader/load-profiles.js';
import { readBaseline } from '../dist/loader/report-files.js';
import { RunError } from '../dist/model/errors.js';
import { root, tempDir } from './helpers.js';
import { metricsOf } from './load-fixtures.js';

const validateProfile = (await loadContract(path.join(root, 'schemas'))).fileValidator('load-profile.schema.json');

/** Writes a profile and loads it: every problem line of the RunError it throws, or undefined when it throws none. */
async function profileProblems(name: string, text: string): Promise<string | undefined> {
  const file = path.join(await tempDir(), name);
  await writeFile(file, text);
  const error = await loadProfile(file, validateProfile, root).then(
    () => undefined,
    (e: unknown) => e,
  );
  return error instanceof RunError ? [error.message, ...error.details].join('\n') : undefined;
}
const profilesDir = path.join(root, 'scenarios/load');

t.test('the shipped profiles load, each with hard ceilings on duration and requests', async (t) => {
  const names = (await readdir(profilesDir)).map((n) => n.replace(/\.yaml$/, '')).sort();
  t.same(names, ['nightly', 'smoke', 'stress']);
  for (const name of names) {
    const profile = await loadProfile(await resolveProfilePath(name, profilesDir), validateProfile, root);
    t.ok(profile.duration > 0 && profile.maxRequests > 0, `${name} is bounded`);
    t.equal(profile.file, `scenarios/load/${name}.yaml`);
  }
  const nightly = await loadProfile(path.join(profilesDir, 'nightly.yaml'), validateProfile, root);
  t.ok((nightly.rate ?? 0) > 0 && nightly.duration >= 60, 'nightly is a constant rate for a minute or more');
  const stress = await loadProfile(path.join(profilesDir, 'stress.yaml'), validateProfile, root);
  t.ok(stress.ramp, 'stress ramps');
});

t.test('a profile without its ceilings, with unknown keys or metrics, is rejected with every problem located', async (t) => {
  const details = await profileProblems('bad.yaml', 'title: bad\nqueries: [{ limit: 500 }]\nthresholds:\n  p95: { max: 1 }\n  rps: { max: 3 }\n');
  t.ok(details !== undefined, 'refused with a RunError');
  t.match(details, /bad\.yaml:1:1: \(root\): must have required property 'duration'/);
  t.match(details, /bad\.yaml:1:1: \(root\): must have required property 'maxRequests'/);
  t.match(details, /bad\.yaml:2:20: \/queries\/0\/limit: must be <= 100/);
  t.match(details, /bad\.yaml:4:3: unknown key 'p95' at \/thresholds/);
  t.match(details, /bad\.yaml:5:\d+: unknown key 'max' at \/thresholds\/rps/);
});

t.test('a production entry that is no URL is a located problem, not a crash', async (t) => {
  const problems = await profileProblems('prod.yaml', 'title: p\nduration: 1\nmaxRequests: 10\nqueries: [{ weight: 1 }]\nthresholds: { p99: { max: 100 } }\nproduction: ["https://"]\n');
  t.ok(problems !== undefined, 'refused with a RunError');
  t.match(problems, /prod\.yaml:6:\d+: production entry 'https:\/\/' is not a URL/);
});

t.test('a baseline file that is not a load report is a usage error', async (t) => {
  const dir = await tempDir();
  const base = metricsOf();
  await writeFile(path.join(dir, 'x.json'), '{"cases": []}');
  await t.rejects(readBaseline(path.join(dir, 'x.json')), RunError);
  await t.rejects(readBaseline(path.join(dir, 'missing.json')), /cannot read \(ENOENT\)/);
  await writeFile(path.join(dir, 'ok.json'), JSON.stringify({ load: { metrics: base } }));
  t.same(await readBaseline(path.join(dir, 'ok.json')), base);
});
