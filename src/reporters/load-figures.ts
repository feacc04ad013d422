/** The figures of a load run as every reporter shows them: one table model, rendered as HTML, Markdown, JUnit text and console lines. */
import { formatMs, type LatencyClock, type LoadReport } from '../model/load.js';
import type { CheckOutcome, RunReport } from '../model/results.js';

/** One labelled figure, its value already in words. */
export interface Figure {
  label: string;
  value: string;
}

/** One threshold (or capacity, or baseline) check of the load case: what it measured against its bound, and its verdict. */
export interface ThresholdFigure {
  check: string;
  outcome: CheckOutcome['outcome'];
  /** The measured value against the bound, as the check said it. */
  message: string;
  /** The bound as load tools print it (`p99 <= 500 ms`); the check's id for a check that is no threshold. */
  expression: string;
  /** What was measured (`p99 = 12.3 ms`); the check's message for a check that is no threshold. */
  figure: string;
}

/** Everything a reporter shows of a load run. */
export interface LoadFigures {
  heading: string;
  figures: Figure[];
  thresholds: ThresholdFigure[];
}

/** ", on 4 worker threads" when the load of a run came from several threads (the largest count of any stage's run). */
function workersNote(load: LoadReport): string {
  const workers = Math.max(1, ...load.stages.flatMap((s) => s.raw.map((r) => r.workers ?? 1)));
  return workers > 1 ? ` on ${workers} worker threads` : '';
}

function signedPercent(change: number): string {
  if (!Number.isFinite(change)) return 'new';
  return `${change >= 0 ? '+' : '−'}${Math.abs(change * 100).toFixed(1)} %`;
}

/** What the profile aimed at: a rate, a ramp or as fast as the service answers. */
function targetOf(load: LoadReport): string {
  const { profile } = load;
  if (profile.ramp) return `ramp ${profile.ramp.from}→${profile.ramp.to}/s in steps of ${profile.ramp.step}/s`;
  return profile.rate === undefined ? 'open throttle (as fast as the service answers)' : `${profile.rate}/s`;
}

/** For merged runs: how far apart (s) the first stage's runs started; undefined for one machine's run. */
function startSpreadSeconds(load: LoadReport): number | undefined {
  const starts = (load.stages[0]?.raw ?? []).map((r) => Date.parse(r.startedAt)).filter((ms) => !Number.isNaN(ms));
  if (load.mergedRuns < 2 || starts.length < 2) return undefined;
  return (Math.max(...starts) - Math.min(...starts)) / 1000;
}

/** The clock a latency is measured from, in words: every label of a latency says it, since a stage and its windows differ. */
export function latencyClockWords(clock: LatencyClock | undefined): string {
  // A report of a version before the clock was recorded: its stage latency came from the schedule whenever a rate was set.
  if (clock === 'scheduled-send') return 'from the scheduled send, coordinated omission corrected';
  return clock === 'actual-send' ? 'from the actual send' : 'clock not recorded';
}

/**
 * The trend check's two windows as figures (the service's time per request, from its actual sending); why it was not judged is its
 * threshold line's.
 */
function trendFigures(load: LoadReport): Figure[] {
  const windows = load.metrics.windows;
  return (['first', 'last'] as const).flatMap((name) => {
    const w = windows?.[name];
    if (w === undefined) return [];
    const offered = load.metrics.targetRate === undefined ? `${w.concurrency} in flight` : `${w.offeredRate}/s offered`;
    const value =
      `${Number(w.from.toFixed(1))}–${Number(w.to.toFixed(1))} s: p50 ${formatMs(w.latency.p50)} · p90 ` +
      `${formatMs(w.latency.p90)} · p99 ${formatMs(w.latency.p99)} · ${w.rps} responses/s (${offered})`;
    return [{ label: `${name} window, latency ${latencyClockWords(w.latencyFrom)}`, value }];
  });
}

/** What the trend check's line says: the drifts it found, that there was none, or why it was not judged; never the windows again. */
function trendLine(check: CheckOutcome, windowsShown: boolean): string {
  if (check.outcome === 'failed' && (check.failures ?? []).length > 0) return (check.failures ?? []).map((f) => f.message).join('; ');
  if (check.outcome === 'passed' && windowsShown) return 'the last window is within the trend allowed of the first (both above)';
  return check.message;
}

/** The store invariants on the load's listings in words: how many judged, against how many pets, what contradicted. */
function listingWords(listings: NonNullable<LoadReport['listings']>): string {
  const { complete, limit, status } = listings.contradictions;
  const contradicting = complete + limit + status;
  const counts =
    contradicting === 0
      ? 'none contradicts'
      : `contradicting: ${complete} incomplete, ${limit} over the limit, ${status} of another status`;
  return (
    `${listings.judged} of ${listings.answered} answered 200, held to the store invariants against ${listings.knownPets} pets ` +
    `seen before the load (the judging budget: report.json load.listings.rule); ${counts}`
  );
}

/** The figures of a load result, in the order every reporter lists them. */
export function loadFigures(load: LoadReport, report?: RunReport): LoadFigures {
  const m = load.metrics;
  const { profile } = load;
  const rate = m.targetRate === undefined ? '' : ` (target ${m.targetRate}/s, ${signedPercent(m.sendRate / m.targetRate - 1)})`;
  const figures: Figure[] = [
    { label: 'profile', value: `${profile.name}: ${profile.title}` },
    { label: 'target', value: targetOf(load) },
    {
      label: 'duration',
      value:
        `${m.durationSeconds} s, ${profile.connections} ` +
        `connections${workersNote(load)}` +
        `${load.mergedRuns > 1 ? `, ${load.mergedRuns} runs merged` : ''}` +
        `${load.judgedRate === undefined ? '' : `; judged at the ${load.judgedRate}/s stage`}`,
    },
    {
      label: 'requests',
      value: `${m.requests} = ${m.responses} responses + ${m.errors} errors + ${m.inFlightAtStop} in flight at the stop`,
    },
    { label: 'rate achieved', value: `${m.sendRate} requests/s sent${rate}, ${m.rps} responses/s` },
    {
      label: `latency ${latencyClockWords(m.latencyFrom)}`,
      value:
        `p50 ${formatMs(m.latency.p50)} · p90 ${formatMs(m.latency.p90)} · p99 ${formatMs(m.latency.p99)} · max ` +
        `${formatMs(m.latency.max)}`,
    },
    { label: 'errors', value: `${m.errors} (timeouts ${m.timeouts}, resets ${m.resets})` },
    { label: 'non-2xx', value: String(m.non2xx) },
    { label: 'contract violations', value: `${m.mismatches} (${m.sampled} responses sampled)` },
  ];
  if (load.listings !== undefined) figures.push({ label: 'listings judged', value: listingWords(load.listings) });
  for (const step of load.stages.filter((s) => s.pressure !== undefined)) {
    const p = step.metrics;
    figures.push({
      label: 'pressure step',
      value:
        `${step.pressure?.connections} connections at full speed for ${p.durationSeconds} s: ${p.requests} requests, ${p.rps} ` +
        `responses/s, p99 ${formatMs(p.latency.p99)}; errors ${p.errors} (resets ${p.resets}), non-2xx ${p.non2xx}, contract ` +
        `violations ${p.mismatches}${step.breached.length > 0 ? `; broke ${step.breached.join(', ')}` : ''}`,
    });
  }
  const spread = startSpreadSeconds(load);
  if (spread !== undefined && spread > m.durationSeconds / 2) {
    figures.push({
      label: 'warning',
      value:
        `the merged runs started up to ${spread.toFixed(1)} s apart, more than half of their ${m.durationSeconds} s: their rates ` +
        `were added as if they loaded the service at once`,
    });
  }
  if (m.behindSchedule > 0)
    figures.push({ label: 'behind schedule', value: `${m.behindSchedule} requests due but never sent: every connection was busy` });
  if (m.resets > 0)
    figures.push({
      label: 'resets',
      value: `${m.resets} requests lost on a busy connection the server reset or closed before their complete response (never sent again)`,
    });
  // A run of an earlier version counted none apart.
  if ((m.rateLimited ?? 0) > 0)
    figures.push({
      label: 'rate-limited',
      value: `${m.rateLimited} answers 429 or 503 (the server pacing its clients; not non-2xx, not errors; a Retry-After paused its connection)`,
    });
  if (m.connectionRetries > 0)
    figures.push({
      label: 'connection retries',
      value: `${m.connectionRetries} requests sent again on a fresh connection after the server closed an idle one (not errors)`,
    });
  for (const cause of m.errorCauses.slice(0, 3)) figures.push({ label: 'error cause', value: `${cause.count} × ${cause.cause}` });
  if (m.errorCauses.length > 3) figures.push({ label: 'error cause', value: `${m.errorCauses.length - 3} more causes in report.json` });
  if (profile.ramp) {
    figures.push({
      label: 'stages',
      value: load.stages
        .map((s) => `${s.rate ?? 0}/s→${s.metrics.rps}${s.breached.length > 0 ? ` (broke ${s.breached.join(', ')})` : ''}`)
        .join(', '),
    });
    figures.push({ label: 'highest rate held', value: load.highestRateHeld === undefined ? 'none' : `${load.highestRateHeld}/s` });
  }
  const unlike = load.baseline?.notComparable ?? [];
  if (unlike.length > 0) figures.push({ label: 'baseline', value: `not comparable: ${unlike.join('; ')}` });
  for (const c of load.baseline?.comparisons ?? []) {
    const unit = c.metric === 'p50' || c.metric === 'p99' ? ' ms' : '';
    // A change within both runs' noise is said to be so: a figure that moved is not a regression by itself.
    const noise =
      c.tooFewSamples !== undefined
        ? `, not judged: ${c.tooFewSamples}`
        : c.regressed
          ? ', regressed beyond the noise'
          : c.ranges !== undefined && c.change !== 0
            ? ', within the noise or the tolerance'
            : '';
    figures.push({
      label: `baseline ${c.metric}`,
      value: `${c.baseline}${unit} → ${c.current}${unit} (${signedPercent(c.change)})${noise}`,
    });
  }
  figures.push(...trendFigures(load));
  if (load.interrupted) figures.push({ label: 'interrupted', value: 'these are the figures measured until the run was stopped' });
  const loadCase = report?.cases.find((c) => c.suite === 'load');
  const thresholds = (loadCase?.checks ?? []).map((c) => {
    if (c.id === 'load.trend') {
      const line = trendLine(c, m.windows !== undefined);
      return { check: c.id, outcome: c.outcome, message: line, expression: c.id, figure: line };
    }
    // A threshold's bound and measure are the check's own, as it judged them; any other check is its id and its message.
    return {
      check: c.id,
      outcome: c.outcome,
      message: c.message,
      expression: c.threshold?.expression ?? c.id,
      figure: c.threshold?.measured ?? c.message,
    };
  });
  return { heading: `load ${profile.name}: ${profile.title}`, figures, thresholds };
}
