/**
 * Where the suite is deployed: the container image (checked statically: this machine has no container engine and no
 * registry to pull the Node image from) and the Kubernetes fan-out, validated against the Kubernetes schemas.
 */
import t from 'tap';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { root } from '../helpers.js';

const version = (JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

t.test('the Dockerfile: official Node slim image, the packed CLI, non-root, the CLI as entrypoint, reports on a volume', async (t) => {
  const text = await readFile(path.join(root, 'Dockerfile'), 'utf8');
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const froms = lines.filter((line) => line.startsWith('FROM '));
  t.ok(
    froms.length >= 1 && froms.every((line) => /^FROM node:20-slim\b/.test(line)),
    `every stage on the official Node 20 slim image: ${froms.join('; ')}`,
  );
  const final = lines.slice(lines.lastIndexOf(froms.at(-1) as string));
  t.ok(
    final.some((line) => /^RUN npm install --global .*petstore-conformance-\*\.tgz/.test(line)),
    'the final stage installs the packed tarball, as a user would',
  );
  t.ok(
    final.some((line) => line === 'USER node'),
    'it runs as the unprivileged node user',
  );
  t.ok(final.indexOf('USER node') < final.findIndex((line) => line.startsWith('ENTRYPOINT')), 'USER comes before the entrypoint');
  t.ok(final.includes('ENTRYPOINT ["petstore-conformance"]'), 'the CLI is the entrypoint (exec form, so signals reach it)');
  t.ok(
    final.includes('WORKDIR /data') && final.includes('VOLUME ["/data/reports"]'),
    'the default report dir (reports/) is the mounted volume',
  );
  t.notMatch(text, /PETSTORE_API_KEY=|ARG .*KEY|\.key\b(?!.*dockerignore)/, 'no key is baked into the image');
  const ignored = (await readFile(path.join(root, '.dockerignore'), 'utf8')).split('\n');
  for (const entry of ['.git', 'node_modules', 'reports', '.env'])
    t.ok(ignored.includes(entry), `.dockerignore keeps ${entry} out of the build context`);
});

t.test('deploy/: an Indexed Job of load shards and a merge Job, valid Kubernetes objects that fit together', async (t) => {
  const objects: Array<{ file: string; doc: Record<string, unknown> }> = [];
  for (const file of (await readdir(path.join(root, 'deploy'))).filter((f) => f.endsWith('.yaml'))) {
    for (const document of parseAllDocuments(await readFile(path.join(root, 'deploy', file), 'utf8'))) {
      t.same(document.errors, [], `${file} parses`);
      objects.push({ file, doc: document.toJSON() as Record<string, unknown> });
    }
  }
  for (const { file, doc } of objects) {
    const Kind = doc['kind'] === 'Job' ? Job : doc['kind'] === 'PersistentVolumeClaim' ? PersistentVolumeClaim : undefined;
    if (Kind === undefined) {
      t.fail(`${file}: unexpected kind ${String(doc['kind'])}`);
      continue;
    }
    t.doesNotThrow(() => new Kind(doc as never).validate(), `${file} is a valid ${String(doc['kind'])}`);
  }
  const jobs = objects.filter((o) => o.doc['kind'] === 'Job').map((o) => new Job(o.doc as never));
  const shards = jobs.find((job) => job.spec?.completionMode === 'Indexed');
  const merge = jobs.find((job) => job.spec?.completionMode !== 'Indexed');
  if (shards === undefined || merge === undefined) return t.fail('an Indexed load Job and a merge Job');
  t.equal(shards.spec?.parallelism, shards.spec?.completions, 'every shard runs at once (the merge adds their rates)');
  t.equal(shards.spec?.backoffLimit, 0, 'a failed shard is not retried at another time');
  const container = (job: Job) => job.spec?.template.spec?.containers[0];
  const script = (job: Job) => (container(job)?.command ?? []).join(' ');
  t.match(script(shards), /petstore-conformance load \S+ --report-dir \/results\/shard-\$JOB_COMPLETION_INDEX/);
  t.match(script(merge), /petstore-conformance merge \/results\/shard-\*\/report\.json/, 'the merge reads what each shard writes');
  for (const job of [shards, merge]) {
    t.equal(container(job)?.image, `petstore-conformance:${version}`, 'the image of this version');
    t.equal(job.spec?.template.spec?.securityContext?.runAsNonRoot, true, 'non-root');
    const claims = job.spec?.template.spec?.volumes?.map((v) => v.persistentVolumeClaim?.claimName).filter(Boolean);
    t.same(claims, ['petstore-load-results'], 'both on the same results volume');
  }
  const keyEnv = container(shards)?.env?.find((e) => e.name === 'PETSTORE_API_KEY');
  t.ok(keyEnv?.valueFrom?.secretKeyRef !== undefined && keyEnv.value === undefined, 'the key comes from a Secret, never a literal');
});
