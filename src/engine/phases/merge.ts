/** The merge phase: the load reports of runs made at once on several machines, merged and judged again; one case. */
import type { Baseline } from '../../model/check.js';
import { RunError } from '../../model/errors.js';
import type { LoadReport, LoadStage } from '../../model/load.js';
import { reportCase } from '../case-report.js';
import type { Phase } from '../phase.js';
import { loadCaseInfo, loadCaseResult, loadModules } from './load.js';

/** Merges the load reports of runs made at once on several machines: raw results added stage by stage, rates summed. */
async function mergeLoads(loads: readonly LoadReport[], baseline?: Baseline): Promise<LoadReport> {
  const { aggregateRuns, buildLoadReport } = await loadModules();
  const first = loads[0];
  if (first === undefined) throw new RunError('ERR_USAGE', "'merge' takes the report.json files of the runs to merge");
  const other = loads.find((l) => l.profile.name !== first.profile.name);
  if (other)
    throw new RunError('ERR_USAGE', `cannot merge runs of different profiles ('${first.profile.name}' and '${other.profile.name}')`);
  const stageCount = Math.min(...loads.map((l) => l.stages.length));
  const stages: LoadStage[] = [];
  for (let i = 0; i < stageCount; i++) {
    const raw = loads.flatMap((l) => (l.stages[i] as LoadStage).raw);
    const stage: LoadStage = { metrics: aggregateRuns(raw), breached: [], raw };
    const rate = first.stages[i]?.rate;
    if (rate !== undefined) stage.rate = rate * loads.length;
    const pressure = first.stages[i]?.pressure;
    if (pressure !== undefined) stage.pressure = { connections: pressure.connections * loads.length };
    stages.push(stage);
  }
  return buildLoadReport(first.profile, first.baseUrl, stages, loads.length, baseline);
}

/** The load reports of several machines, merged stage by stage and judged again by the first one's thresholds. */
export const MERGE_PHASE: Phase = {
  id: 'merge',
  title: "the load reports of runs made at once on several machines, merged and judged by the first one's thresholds",
  sends: 'nothing: it reads the report.json files of the runs',
  measuresLoad: true,
  cases: () => [],
  enabled: (plan) => plan.selection.merge !== undefined,
  planned: (plan) => {
    const profile = plan.selection.merge?.loads[0]?.profile;
    return profile === undefined ? [] : [loadCaseInfo(profile)];
  },
  skipReason: () => undefined,
  async run(context) {
    const merge = context.plan.selection.merge;
    const profile = merge?.loads[0]?.profile;
    if (merge === undefined || profile === undefined) return { results: [] };
    let load: LoadReport | undefined;
    const result = await reportCase(context.emit, loadCaseInfo(profile), async () => {
      load = await mergeLoads(merge.loads, merge.baseline);
      return loadCaseResult(load, context.judge.disabled, 0, context.judge);
    });
    return { results: [result], ...(load === undefined ? {} : { provides: { load } }) };
  },
};
