/**
 * Where the suite is deployed: the container image (checked statically: this machine has no container engine and no
 * registry to pull the Node image from) and the kustomize bases of deploy/, validated against the Kubernetes schemas and
 * checked to fit together as kustomize would put them together. test/slow/deploy-run.test.ts runs what can run of them.
 */
import t, { type Test } from 'tap';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { Job } from 'kubernetes-models/batch/v1/Job';
import type { IJobSpec } from 'kubernetes-models/batch/v1/JobSpec';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { runSeries } from '../../../src/reporters/prometheus-series.js';
import { root } from '../../helpers.js';
import { hostileReport, SAMPLE_LOAD } from '../../report-fixture.js';

const version = (JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const deploy = path.join(root, 'deploy');

t.test('the Dockerfile: official Node slim image, the packed CLI, non-root by a numeric uid, nothing tied to that uid', async (t) => {
  const text = await readFile(path.join(root, 'Dockerfile'), 'utf8');
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const froms = lines.filter((line) => line.startsWith('FROM '));
  t.ok(
    froms.length >= 1 && froms.every((line) => /^FROM node:20-slim\b/.test(line)),
    `every stage on the official Node 20 slim image: ${froms.join('; ')}`,
  );
  const final = lines.slice(lines.lastIndexOf(froms.at(-1) as string));
  // npm pack in the build stage packs what package.json's files name and the build stage holds: the image's package is whole.
  const { files } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { files: string[] };
  const copied = lines
    .filter((line) => line.startsWith('COPY ') && !line.includes('--from'))
    .flatMap((line) => line.split(/\s+/).slice(1, -1));
  t.same(
    files.filter((entry) => !entry.startsWith('!') && entry !== 'dist' && !copied.includes(entry)),
    [],
    'the build stage copies every source of the package (docs/, which the README links to, included)',
  );
  t.ok(
    final.some((line) => /^RUN npm install --global .*petstore-conformance-\*\.tgz/.test(line)),
    'the final stage installs the packed tarball, as a user would',
  );
  const user = final.find((line) => line.startsWith('USER '));
  t.match(user, /^USER [1-9]\d*:[1-9]\d*$/, "a numeric non-root user, which Kubernetes' runAsNonRoot can verify");
  t.ok(final.indexOf(user as string) < final.findIndex((line) => line.startsWith('ENTRYPOINT')), 'USER comes before the entrypoint');
  t.ok(final.includes('ENTRYPOINT ["petstore-conformance"]'), 'the CLI is the entrypoint (exec form, so signals reach it)');
  t.ok(
    final.includes('WORKDIR /data'),
    'reports/ (the default report dir) goes under /data, where the docker run of docs/ci.md mounts the current folder',
  );
  t.ok(
    final.some((line) => /chmod 1777 \/data\b/.test(line)),
    '/data is writable by any uid --user gives',
  );
  t.notOk(
    final.some((line) => line.startsWith('VOLUME')),
    'no VOLUME: an anonymous volume would hide what a mounted /data holds',
  );
  t.notMatch(text, /chown .*node|USER node/, 'nothing owned by the image user that another uid would need');
  t.notMatch(text, /PETSTORE_API_KEY=|ARG .*KEY|\.key\b(?!.*dockerignore)/, 'no key is baked into the image');
  const ignored = (await readFile(path.join(root, '.dockerignore'), 'utf8')).split('\n');
  for (const entry of ['.git', 'node_modules', 'reports', '.env'])
    t.ok(ignored.includes(entry), `.dockerignore keeps ${entry} out of the build context`);
});

interface Kustomization {
  apiVersion: string;
  kind: string;
  resources?: string[];
  components?: string[];
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
  configMapGenerator?: Array<{ name: string; envs?: string[] }>;
}

const readKustomization = async (folder: string): Promise<Kustomization> =>
  parse(await readFile(path.join(deploy, folder, 'kustomization.yaml'), 'utf8')) as Kustomization;

/** A kustomization's objects, each validated as its kind, with the parameters of its components. */
async function build(t: Test, folder: string): Promise<{ objects: Array<CronJob | Job | PersistentVolumeClaim>; params: Kustomization[] }> {
  const kustomization = await readKustomization(folder);
  t.match(kustomization, { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization' }, `${folder}: a kustomization`);
  const objects: Array<CronJob | Job | PersistentVolumeClaim> = [];
  for (const file of kustomization.resources ?? []) {
    for (const document of parseAllDocuments(await readFile(path.join(deploy, folder, file), 'utf8'))) {
      t.same(document.errors, [], `${folder}/${file} parses`);
      const doc = document.toJSON() as { kind?: string };
      const Kind =
        doc.kind === 'CronJob'
          ? CronJob
          : doc.kind === 'Job'
            ? Job
            : doc.kind === 'PersistentVolumeClaim'
              ? PersistentVolumeClaim
              : undefined;
      if (Kind === undefined) {
        t.fail(`${folder}/${file}: unexpected kind ${String(doc.kind)}`);
        continue;
      }
      const object = new Kind(doc as never);
      t.doesNotThrow(() => object.validate(), `${folder}/${file} is a valid ${doc.kind}`);
      objects.push(object);
    }
  }
  const params: Kustomization[] = [];
  for (const component of kustomization.components ?? []) {
    const included = await readKustomization(path.join(folder, component));
    t.match(included, { apiVersion: 'kustomize.config.k8s.io/v1alpha1', kind: 'Component' }, `${component}: a component`);
    params.push(included);
  }
  return { objects, params };
}

/** What a Job runs, whether it is one or a CronJob makes it. */
const jobSpec = (object: CronJob | Job): IJobSpec | undefined => (object instanceof CronJob ? object.spec?.jobTemplate.spec : object.spec);

/**
 * Checks every kustomization shares: the image set by the parameters, the service and the key from outside the manifest;
 * `volumes`: the kinds of volume its pod has besides the emptyDir of /tmp.
 */
function checkPods(
  t: Test,
  name: string,
  spec: IJobSpec | undefined,
  params: Kustomization[],
  volumes: string[] = [],
): IContainer | undefined {
  const pod = spec?.template.spec;
  const container = pod?.containers[0];
  const images = params.flatMap((p) => p.images ?? []);
  t.same(
    images.map((i) => [i.name, i.newTag]),
    [['petstore-conformance', version]],
    `${name}: the image of this version, a parameter`,
  );
  t.equal(container?.image, images[0]?.name, `${name}: the container names the image the parameters set`);
  const generated = params.flatMap((p) => p.configMapGenerator ?? []).map((g) => g.name);
  t.same(
    container?.envFrom?.map((e) => e.configMapRef?.name),
    generated,
    `${name}: the service under test from the ConfigMap the parameters generate`,
  );
  t.notMatch(JSON.stringify(container), /https?:\/\//, `${name}: no base URL in the manifest`);
  const keyEnv = container?.env?.find((e) => e.name === 'PETSTORE_API_KEY');
  t.ok(
    keyEnv?.valueFrom?.secretKeyRef !== undefined && keyEnv.value === undefined,
    `${name}: the key comes from a Secret, never a literal`,
  );
  t.equal(pod?.securityContext?.runAsNonRoot, true, `${name}: non-root`);
  t.equal(container?.securityContext?.readOnlyRootFilesystem, true, `${name}: a read-only root file system`);
  t.same(
    pod?.volumes?.map((v) => Object.keys(v).filter((k) => k !== 'name')),
    [['emptyDir'], ...volumes.map((v) => [v])],
    `${name}: an emptyDir for /tmp${volumes.length === 0 ? ', and nothing that needs storage' : `, and ${volumes.join(', ')}`}`,
  );
  t.equal(spec?.backoffLimit, 0, `${name}: a failed run is not run again at another time`);
  t.ok((spec?.activeDeadlineSeconds ?? 0) > 0, `${name}: a deadline`);
  t.ok((spec?.ttlSecondsAfterFinished ?? 0) > 0, `${name}: the finished Job is deleted after a while`);
  const script = (container?.command ?? []).join(' ');
  t.match(
    script,
    /echo "petstore-conformance reports begin"\s+tar -czf - -C "\$reports" \. \| base64\s+echo "petstore-conformance reports end"/,
    `${name}: the reports printed, packed, at the end of the log`,
  );
  return container;
}

t.test('deploy/params: the image and the service, the parameters of both bases', async (t) => {
  const params = await readKustomization('params');
  const env = await readFile(path.join(deploy, 'params', 'target.env'), 'utf8');
  t.match(params.configMapGenerator, [{ name: 'petstore-target', envs: ['target.env'] }]);
  t.match(env, /^PETSTORE_BASE_URL=https:\/\/\S+\/v1$/m, 'the base URL, ending in /v1');
  t.match(env, /^PETSTORE_LOAD_PROFILE=nightly$/m, 'the load profile');
});

t.test('deploy/nightly: a CronJob that runs every night, one at a time, compared with the night before, and cleans up', async (t) => {
  const { objects, params } = await build(t, 'nightly');
  const cron = objects.find((o): o is CronJob => o instanceof CronJob);
  if (cron === undefined) return t.fail('a CronJob');
  t.match(cron.spec?.schedule, /^\d+ \d+ \* \* \*$/, 'daily');
  t.equal(cron.spec?.concurrencyPolicy, 'Forbid', 'a night that overran is not loaded on top of, and its volume has one pod at a time');
  const container = checkPods(t, 'nightly', cron.spec?.jobTemplate.spec, params, ['persistentVolumeClaim']);
  const script = (container?.command ?? []).join(' ');
  t.match(script, /petstore-conformance run --load "\$PETSTORE_LOAD_PROFILE" --report-dir "\$reports" "\$@"[\s\S]*exit \$code/);
  t.equal(
    cron.spec?.jobTemplate.metadata?.labels?.['app.kubernetes.io/component'],
    'nightly',
    'the label docs/ci.md finds the latest Job by',
  );
  // The baseline: last night's report on a volume of its own, passed as --baseline, replaced by tonight's.
  const claim = objects.find((o): o is PersistentVolumeClaim => o instanceof PersistentVolumeClaim);
  const pod = cron.spec?.jobTemplate.spec?.template.spec;
  const volume = pod?.volumes?.find((v) => v.persistentVolumeClaim !== undefined);
  t.equal(volume?.persistentVolumeClaim?.claimName, claim?.metadata?.name, 'the pod mounts the claim of this base');
  t.same(claim?.spec?.accessModes, ['ReadWriteOnce'], 'one node at a time: what every storage class gives');
  t.equal(claim?.spec?.storageClassName, undefined, "the cluster's default storage class");
  t.match(claim?.spec?.resources?.requests?.['storage'], /^\d+Mi$/, 'a small volume');
  const mount = container?.volumeMounts?.find((m) => m.name === volume?.name);
  t.same(
    container?.env?.find((e) => e.name === 'PETSTORE_BASELINE_DIR'),
    { name: 'PETSTORE_BASELINE_DIR', value: mount?.mountPath },
    'the script keeps the baseline where the volume is mounted',
  );
  t.equal(pod?.securityContext?.fsGroup, pod?.securityContext?.runAsGroup, "the volume is writable by the pod's group");
  t.match(script, /baseline=\$\{PETSTORE_BASELINE_DIR:\?\}\/report\.json/);
  t.match(script, /set -- --baseline "\$baseline"/, "last night's report is the baseline");
  t.match(script, /no baseline yet/, 'a first night says so and goes on');
  t.match(script, /cp "\$reports\/report\.json" "\$baseline\.tmp" && mv "\$baseline\.tmp" "\$baseline"/, "tonight's replaces it, whole");
});

t.test('deploy/shards: an Indexed Job whose shards start together, spread over nodes, and fail it at once', async (t) => {
  const { objects, params } = await build(t, 'shards');
  const shards = objects.find((o): o is Job => o instanceof Job);
  if (shards === undefined) return t.fail('a Job');
  t.equal(shards.spec?.completionMode, 'Indexed');
  t.equal(shards.spec?.parallelism, shards.spec?.completions, 'every shard runs at once (the merge adds their rates)');
  t.equal(shards.metadata?.name, 'petstore-load-shards');
  t.match(
    shards.spec?.template.spec?.topologySpreadConstraints,
    [{ topologyKey: 'kubernetes.io/hostname' }],
    'spread over the nodes: the point of shards',
  );
  const container = checkPods(t, 'shards', jobSpec(shards), params);
  const script = (container?.command ?? []).join(' ');
  t.match(script, /petstore-conformance load "\$PETSTORE_LOAD_PROFILE" --report-dir "\$reports" -q/);
  t.match(script, /\[ "\$code" -le 1 \]\s*$/, 'exit 1 is judged after the merge; 2 or more fails the shard, and so the Job');
  const run = await readFile(path.join(deploy, 'shards', 'run.sh'), 'utf8');
  t.match(run, /^job=petstore-load-shards$/m, 'run.sh waits for this Job');
  t.match(run, /kubectl wait --for=condition=failed/, 'and for its failure, not only its completion');
});

t.test('deploy/: no ReadWriteMany, no storage class, one claim (the nightly baseline); its scripts are executable', async (t) => {
  const files: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true }))
      entry.isDirectory() ? await walk(path.join(folder, entry.name)) : files.push(path.join(folder, entry.name));
  };
  await walk(deploy);
  const manifests = files.filter((f) => f.endsWith('.yaml'));
  const yaml = await Promise.all(manifests.map((f) => readFile(f, 'utf8')));
  t.notMatch(yaml.join('\n'), /ReadWriteMany|storageClassName/);
  t.same(
    manifests.filter((_, i) => /^kind: PersistentVolumeClaim$/m.test(yaml[i] ?? '')).map((f) => path.relative(deploy, f)),
    ['nightly/baseline-pvc.yaml'],
    'the only claim is the nightly baseline',
  );
  for (const script of files.filter((f) => f.endsWith('.sh')))
    t.ok(((await stat(script)).mode & 0o111) !== 0, `${path.relative(root, script)} is executable`);
});

t.test(
  'deploy/grafana: the dashboard queries only series that --out prometheus-rw pushes, from the data source picked on import',
  async (t) => {
    const dashboard = JSON.parse(await readFile(path.join(deploy, 'grafana', 'petstore-conformance.json'), 'utf8')) as {
      uid: string;
      templating: { list: Array<{ name: string; type: string; query: unknown }> };
      panels: Array<{
        id: number;
        type: string;
        title: string;
        datasource?: { uid: string };
        targets?: Array<{ expr: string; datasource: { uid: string } }>;
      }>;
    };
    // A run with every kind of series: cases of every outcome, a finding, a load with a baseline comparison.
    const comparisons = [{ metric: 'p99' as const, baseline: 50, current: 60, change: 0.2, regressed: true }];
    const pushed = new Set(
      runSeries({ ...hostileReport(), load: { ...SAMPLE_LOAD, baseline: { file: 'b.json', tolerance: 0.1, comparisons } } }, (x) => x).map(
        (s) => s.labels.find((l) => l.name === '__name__')?.value,
      ),
    );
    const panels = dashboard.panels.filter((p) => p.type !== 'row');
    const queried = panels.flatMap((p) =>
      (p.targets ?? []).flatMap((target) => [...target.expr.matchAll(/\bpetstore_[a-z0-9_]+/g)].map((m) => m[0])),
    );
    t.ok(queried.length >= 15, `${queried.length} queries`);
    t.same(
      [...new Set(queried)].filter((name) => !pushed.has(name)),
      [],
      'every metric a panel queries is one the reporter pushes',
    );
    t.match(dashboard.templating.list, [{ name: 'datasource', type: 'datasource', query: 'prometheus' }], 'the data source is a variable');
    for (const panel of panels) {
      t.equal(panel.datasource?.uid, '${datasource}', `${panel.title}: the chosen data source`);
      t.ok(
        (panel.targets ?? []).length > 0 && panel.targets?.every((x) => x.datasource.uid === '${datasource}'),
        `${panel.title}: its queries too`,
      );
    }
    t.equal(new Set(dashboard.panels.map((p) => p.id)).size, dashboard.panels.length, 'panel ids are unique');
  },
);
