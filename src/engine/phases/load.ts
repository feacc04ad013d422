/** The load phase: a load profile measured against the service, one case judged by its thresholds. */
import type { KnownPet } from '../../load/sampler.js';
import { stringifyExactJson } from '../../model/json.js';
import type { StoreModel } from '../../model/store-model.js';
import { type Judge, judgeLoad, stageBreaks } from '../../checks/judge.js';
import { caseOutcome } from '../../checks/run-judging.js';
import { ROLES } from '../../model/contract.js';
import type { LoadProfile, LoadReport } from '../../model/load.js';
import type { CaseInfo, CaseResult } from '../../model/results.js';
import { disabledCase, reportCase, notJudgedCase } from '../case-report.js';
import type { Phase } from '../phase.js';

/** The case a load profile is: its thresholds are the checks that judge it. */
export function loadCaseInfo(profile: LoadProfile): CaseInfo {
  return {
    id: `load.${profile.name}`,
    title: profile.title,
    clause:
      `load profile ${profile.name}: every threshold it states ` +
      '(and no failed request, non-2xx answer or sampled contract breach unless it allows some)',
    suite: 'load',
    operation: ROLES.list,
    level: 'fail',
    // The case is the whole profile file.
    source: { file: profile.file, line: 1, column: 1 },
  };
}

/**
 * The load case's result: the load judged (checks/judge.ts) by every run check of its profile that applies, through the
 * run's judge when given (which tallies it in the ledger of judgement). A load no check concluded on is not judged.
 */
export function loadCaseResult(
  load: LoadReport,
  disabled: ReadonlyMap<string, string>,
  durationMs: number,
  judge?: Pick<Judge, 'load'>,
): CaseResult {
  const info = loadCaseInfo(load.profile);
  const skipped = disabledCase(info, disabled);
  if (skipped !== undefined) return skipped;
  const checks = judge?.load(load) ?? judgeLoad(load, disabled);
  // A load rule left not judged (too few samples for the baseline) leaves the load judged by the others that concluded.
  const settled = caseOutcome(checks, { judgedAnotherWay: () => true, nothingJudged: 'no check judged the load' });
  if (settled.skip !== undefined) return { ...notJudgedCase(info, settled.skip, settled.reason ?? '', Math.round(durationMs)), checks };
  return { ...info, ...settled, durationMs: Math.round(durationMs), checks, exchanges: [], retries: 0 };
}

/** The load modules (HDR histograms, sockets, worker threads), imported only by runs that load or merge. */
export const loadModules = async () => {
  const [{ aggregateRuns }, { executeLoad }, { buildLoadReport }] = await Promise.all([
    import('../../load/aggregate.js'),
    import('../../load/load-run.js'),
    import('../load-report.js'),
  ]);
  return { aggregateRuns, buildLoadReport, executeLoad };
};

/** The load a plan measures: its profile, run against the service with connections of its own, then judged. */
export const LOAD_PHASE: Phase = {
  id: 'load',
  title: 'a load profile, measured against the service and judged by its thresholds',
  sends: "the profile's requests, at its rates, from connections of its own",
  idPattern: 'load.<profile>',
  measuresLoad: true,
  cases: (inputs) => (inputs.profile === undefined ? [] : [loadCaseInfo(inputs.profile)]),
  enabled: (plan) => plan.selection.load !== undefined,
  planned: (plan) => (plan.selection.load === undefined ? [] : [loadCaseInfo(plan.selection.load.profile)]),
  skipReason: () => undefined,
  async run(context) {
    const load = context.plan.selection.load;
    if (load === undefined) return { results: [] };
    const { profile } = load;
    const { emit, stop } = context;
    let report: LoadReport | undefined;
    const result = await reportCase(emit, loadCaseInfo(profile), async () => {
      const loadStarted = performance.now();
      const { buildLoadReport, executeLoad } = await loadModules();
      const stages = stop.aborted
        ? []
        : await executeLoad({
            profile,
            http: context.connection,
            contract: context.plan.contract,
            // The load measures; the judge says whether a ramp's stage broke the profile.
            breaks: (stage) => stageBreaks(profile, stage),
            // Its verification request reaches the store model as every other exchange of the run does.
            // A signal aborts it at once: an interrupted load measures nothing after it, so its answer is never needed.
            open: () => context.open({ connections: 1, abort: stop }, true),
            listener: { onLoadProgress: (progress) => emit({ type: 'load-progress', progress }) },
            // A load alone takes no --consistency-window (its model's is 0): its listings give the pets the option's default.
            knownPets: () => knownPets(context.observer.model, context.sender === undefined ? LOAD_ALONE_WINDOW_MS : 0),
            // A load alone was verified by the preflight just before it (the gate of the run); after the cases, it is verified again.
            verified: context.sender === undefined,
            signal: stop,
          }).finally(() => emit({ type: 'load-end' }));
      if (stages.length === 0) return notJudgedCase(loadCaseInfo(profile), 'interrupted', 'interrupted before the load was measured');
      report = buildLoadReport(profile, context.connection.baseUrl, stages, 1, load.baseline);
      return loadCaseResult(report, context.judge.disabled, performance.now() - loadStarted, context.judge);
    });
    return { results: [result], ...(report === undefined ? {} : { provides: { load: report } }) };
  },
};

/**
 * How long a pet the preflight of a load alone showed may take to show in every read: the default of --consistency-window,
 * which `load` does not take (another client may have just created it, and a lagging replica not hold it yet).
 */
const LOAD_ALONE_WINDOW_MS = 2_000;

/** At most this many of the pets the run saw go to the load's samplers (each worker holds them). */
const MAX_KNOWN_PETS = 5_000;

/**
 * The pets the run saw before the load, as the load holds its listings to them: a sampled listing must show each unchanged,
 * and every listing shorter than its limit must hold each that matches, once its consistency window has passed.
 */
export function knownPets(model: StoreModel, atLeastMs = 0): Array<[string, KnownPet]> {
  const known: Array<[string, KnownPet]> = [];
  for (const pet of model.pets()) {
    if (known.length >= MAX_KNOWN_PETS) break;
    const status = pet.fields['status'];
    known.push([
      pet.id,
      {
        fields: stringifyExactJson(pet.fields),
        where: pet.where,
        ...(typeof status === 'string' ? { status } : {}),
        settlesInMs: Math.ceil(Math.max(model.settlesIn(pet), model.settlesIn(pet, atLeastMs))),
      },
    ]);
  }
  return known;
}
