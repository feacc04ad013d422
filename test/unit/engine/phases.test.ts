/** The phases as objects: one list that selection, the plan, the catalogue and the events read; events always paired. */
import t, { type Test } from 'tap';
import { parseFlags } from '../../../src/cli/args.js';
import { planMerge, planRun } from '../../../src/cli/plan.js';
import { PHASES, phaseCases } from '../../../src/engine/phases/index.js';
import { knownIds, loadCaseInputs } from '../../../src/engine/inputs.js';
import { OrderedPhaseEvents } from '../../../src/engine/phase-events.js';
import { executePlan } from '../../../src/engine/run.js';
import { startEmbedded } from '../../../src/cli/targets.js';
import { PACKAGE_FOLDERS } from '../../../tools/matrix/matrix.js';
import { tellListener, type Emit, type PhaseInfo, type RunListener } from '../../../src/model/events.js';
import type { CaseInfo, CaseResult, RunReport } from '../../../src/model/results.js';
import { rawRunOf } from '../../load-fixtures.js';
import { SAMPLE_LOAD } from '../../report-fixture.js';
import { tempDir } from '../../helpers.js';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Every event of a run, in order, as `start id`, `end id`, `phase+ id`, `phase- id`, `run+`, `run-`. */
function recorder(): { events: string[]; listener: RunListener } {
  const events: string[] = [];
  const listener: RunListener = {
    onRunStart: () => void events.push('run+'),
    onPhaseStart: (phase: PhaseInfo) => void events.push(`phase+ ${phase.id}`),
    onPhaseEnd: (phase: PhaseInfo) => void events.push(`phase- ${phase.id}`),
    onCaseStart: (info: CaseInfo) => void events.push(`start ${info.id}`),
    onCaseEnd: (result: CaseResult) => void events.push(`end ${result.id}`),
    onRunEnd: () => void events.push('run-'),
  };
  return { events, listener };
}

/** Every end has its start earlier (cases may overlap: concurrency), every phase closes before the next opens, all inside the run. */
function checkPaired(t: Test, events: readonly string[], report: RunReport): void {
  const open = new Map<string, number>();
  const unpaired: string[] = [];
  let phase: string | undefined;
  for (const event of events) {
    const [kind, id = ''] = event.split(' ');
    if (kind === 'start') open.set(id, (open.get(id) ?? 0) + 1);
    if (kind === 'end') {
      if ((open.get(id) ?? 0) === 0) unpaired.push(id);
      else open.set(id, (open.get(id) ?? 0) - 1);
    }
    if (kind === 'phase+') {
      if (phase !== undefined) unpaired.push(`phase ${id} opened inside ${phase}`);
      phase = id;
    }
    if (kind === 'phase-') {
      if (phase !== id) unpaired.push(`phase ${id} closed but ${phase ?? 'none'} was open`);
      phase = undefined;
    }
    if ((kind === 'start' || kind === 'end') && phase === undefined) unpaired.push(`${event} outside a phase`);
  }
  t.same(unpaired, [], 'every onCaseEnd has its onCaseStart earlier, inside a phase');
  t.same(
    [...open].filter(([, n]) => n > 0),
    [],
    'every onCaseStart has its onCaseEnd',
  );
  t.equal(events[0], 'run+', 'the run starts first');
  t.equal(events.at(-1), 'run-', 'and ends last');
  t.same(
    report.cases.map((c) => c.id).sort(),
    events
      .filter((e) => e.startsWith('end '))
      .map((e) => e.slice(4))
      .sort(),
    'every case of the report ended once',
  );
}

const run = async (args: string[]): Promise<{ events: string[]; report: RunReport }> => {
  const { plan } = await planRun(parseFlags('run', ['--seed', '7', '--max-examples', '3', '--consistency-window', '0', ...args]), {});
  const { events, listener } = recorder();
  const report = await executePlan(plan, listener, undefined, undefined, startEmbedded);
  return { events, report };
};

t.test('an embedded run of every phase: every onCaseEnd has its onCaseStart, phase by phase', async (t) => {
  const { events, report } = await run([]);
  t.equal(report.verdict, 'passed');
  checkPaired(t, events, report);
  t.same(
    events.filter((e) => e.startsWith('phase+')),
    [
      'phase+ planned-states',
      'phase+ store-fill',
      'phase+ cases',
      'phase+ created-pets',
      'phase+ fuzz',
      'phase+ request-space',
      'phase+ stateful',
      'phase+ store-health',
    ],
    'the phases the plan enables, in the order of PHASES (the preflight, before the run starts, emits none)',
  );
  t.ok(report.cases.some((c) => c.id === 'stateful.pets' && c.outcome === 'passed'));
});

t.test('phases side by side: their events are told in the order of the plan, each phase whole, whatever order they come in', async (t) => {
  const { events, listener } = recorder();
  const ordered = new OrderedPhaseEvents((event) => tellListener(listener, event), 3);
  const [a, b, c] = [0, 1, 2].map((i) => ordered.emitFor(i)) as [Emit, Emit, Emit];
  const phase = (id: string): PhaseInfo => ({ id, title: id });
  const info = (id: string): CaseInfo => ({ id, title: id, clause: '', suite: 's', operation: 'listPets', level: 'fail' });
  const result = (id: string): CaseResult => ({ ...info(id), outcome: 'passed', durationMs: 0, checks: [], exchanges: [], retries: 0 });
  // The third and the second phase begin (and the third ends) while the first still runs.
  c({ type: 'phase-start', phase: phase('c') });
  a({ type: 'phase-start', phase: phase('a') });
  b({ type: 'phase-start', phase: phase('b') });
  c({ type: 'case-start', info: info('c1') });
  a({ type: 'case-start', info: info('a1') });
  c({ type: 'case-end', result: result('c1') });
  c({ type: 'phase-end', phase: phase('c'), results: [] });
  ordered.finished(2);
  b({ type: 'case-start', info: info('b1') });
  a({ type: 'case-end', result: result('a1') });
  t.same(events, ['phase+ a', 'start a1', 'end a1'], 'only the first phase is told while it runs');
  a({ type: 'phase-end', phase: phase('a'), results: [] });
  ordered.finished(0);
  t.same(events.slice(3), ['phase- a', 'phase+ b', 'start b1'], "the second's events so far follow once the first is over");
  b({ type: 'case-end', result: result('b1') });
  b({ type: 'phase-end', phase: phase('b'), results: [] });
  ordered.finished(1);
  t.same(
    events.slice(6),
    ['end b1', 'phase- b', 'phase+ c', 'start c1', 'end c1', 'phase- c'],
    'then the second, as it comes, and the third, held whole',
  );
});

t.test('read-only: the created-pet cases and the stateful phase are not judged, with why, their events still paired', async (t) => {
  const { events, report } = await run(['--read-only', '--suite', 'lifecycle', '--suite', 'fuzz', '--suite', 'stateful']);
  checkPaired(t, events, report);
  const byId = new Map(report.cases.map((c) => [c.id, c]));
  t.match(byId.get('stateful.pets'), { outcome: 'not-judged', skip: 'read-only', reason: 'read-only: the sequences create pets' });
  t.match(byId.get('lifecycle.created.read-back'), { outcome: 'not-judged', skip: 'read-only' });
  t.match(byId.get('fuzz.createPet.body'), { outcome: 'not-judged', skip: 'read-only' });
  t.equal(report.requestsBySuite?.['stateful'], 0, 'a phase skipped for the plan sends nothing');
});

t.test(
  "--skip-check 'fuzz.*' and stateful.pets are accepted where --check takes them: not judged, with the flag as the reason",
  async (t) => {
    const { events, report } = await run([
      '--suite',
      'fuzz',
      '--suite',
      'stateful',
      '--skip-check',
      'fuzz.*',
      '--skip-check',
      'stateful.pets',
    ]);
    checkPaired(t, events, report);
    t.same(
      report.cases.map((c) => [c.id, c.outcome, c.skip, c.reason]),
      [
        ['fuzz.listPets.query', 'not-judged', 'disabled', 'disabled by the configuration: --skip-check fuzz.*'],
        ['fuzz.createPet.body', 'not-judged', 'disabled', 'disabled by the configuration: --skip-check fuzz.*'],
        ['stateful.pets', 'not-judged', 'disabled', 'disabled by the configuration: --skip-check stateful.pets'],
      ],
    );
    t.equal(report.requests, 1, 'only the preflight: a phase whose every case is disabled sends nothing');
    const one = await run(['--suite', 'fuzz', '--skip-check', 'fuzz.createPet.body']);
    t.same(
      one.report.cases.map((c) => [c.id, c.outcome]),
      [
        ['fuzz.listPets.query', 'passed'],
        ['fuzz.createPet.body', 'not-judged'],
      ],
      'one property disabled: the other still runs',
    );
  },
);

t.test('merge: its one case is started before it ends', async (t) => {
  const dir = await tempDir();
  const load = { ...SAMPLE_LOAD, stages: SAMPLE_LOAD.stages.map((s) => ({ ...s, raw: [rawRunOf()] })) };
  const files = ['a', 'b'].map((name) => path.join(dir, `${name}.json`));
  for (const file of files) await writeFile(file, JSON.stringify({ load }));
  const { plan } = await planMerge(files, parseFlags('merge', ['--report-dir', path.join(dir, 'out')]), {});
  const { events, listener } = recorder();
  const report = await executePlan(plan, listener, undefined, undefined, startEmbedded);
  checkPaired(t, events, report);
  t.same(
    events.filter((e) => !e.startsWith('run')),
    ['phase+ merge', 'start load.nightly', 'end load.nightly', 'phase- merge'],
  );
});

t.test('one list: every case a phase can report is known to --skip-check and the configuration, and phase ids are unique', async (t) => {
  const inputs = await loadCaseInputs(PACKAGE_FOLDERS, []);
  const known = knownIds(inputs);
  const cases = phaseCases(inputs);
  for (const id of ['stateful.pets', 'fuzz.createPet.body', 'fuzz.listPets.query', 'lifecycle.created.listed'])
    t.ok(cases.some((c) => c.id === id) && known.has(id), `${id} is a phase's case, and known`);
  t.equal(new Set(cases.map((c) => c.id)).size, cases.length, 'no two phases report the same id');
  t.equal(new Set(PHASES.map((p) => p.id)).size, PHASES.length, 'phase ids are unique');
});
