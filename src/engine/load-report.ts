/**
 * The load part of a report: the stages the load measured, judged by checks/ (which stage is judged, the listings, the
 * baseline). Imported only with the load modules (HDR histograms, worker threads), by runs that load or merge.
 */
import { judgeStages } from '../checks/judge.js';
import type { Baseline } from '../model/check.js';
import type { LoadProfile, LoadReport, LoadStage } from '../model/load.js';
import { throughputOf } from '../load/aggregate.js';
import { compareLoads } from '../load/baseline-compare.js';
import { addListingJudgements, LISTING_RULE } from '../load/listing-judge.js';

/** The load part of the report from measured (or merged) stages; an earlier run's figures are compared when given. */
export function buildLoadReport(
  profile: LoadProfile,
  baseUrl: string,
  stages: LoadStage[],
  mergedRuns: number,
  baseline?: Baseline,
): LoadReport {
  const judged = judgeStages(profile, stages);
  const report: LoadReport = {
    profile,
    baseUrl,
    metrics: judged.stage.metrics,
    stages,
    violations: stages.flatMap((s) => s.raw.flatMap((r) => r.violations)),
    interrupted: stages.some((s) => s.raw.some((r) => r.interrupted)),
    percentiles: judged.stage.metrics.percentiles,
    throughput: throughputOf(stages),
    mergedRuns,
  };
  const listings = addListingJudgements(stages.flatMap((s) => s.raw.map((r) => r.listings)));
  if (listings !== undefined) report.listings = { ...listings, rule: LISTING_RULE };
  if (judged.highestRateHeld !== undefined) report.highestRateHeld = judged.highestRateHeld;
  if (judged.stage.rate !== undefined) report.judgedRate = judged.stage.rate;
  if (baseline !== undefined)
    report.baseline = {
      file: baseline.file,
      tolerance: baseline.tolerance,
      comparisons: compareLoads(baseline, report),
      ...(baseline.notComparable === undefined ? {} : { notComparable: baseline.notComparable }),
    };
  return report;
}
