/** The console side of load: a live progress line on a TTY, then the load summary of the report. */
import type { Writable } from 'node:stream';
import type { LoadProgress, LoadReport } from '../model/load.js';
import type { RunReport } from '../model/results.js';
import type { Reporter } from './reporter.js';

/** Where the load summary goes. */
export interface LoadConsoleOptions {
  stream: Writable & { isTTY?: boolean };
  quiet: boolean;
}

/** The lines summarising a load result, as the console shows them. */
function loadSummaryLines(load: LoadReport): string[] {
  const m = load.metrics;
  const target = load.profile.ramp ? `ramp ${load.profile.ramp.from}→${load.profile.ramp.to}/s` : load.profile.rate === undefined ? 'open throttle' : `${load.profile.rate}/s target`;
  const lines = [
    `load ${load.profile.name}: ${load.profile.title} (${target}, ${load.profile.connections} connections${load.mergedRuns > 1 ? `, ${load.mergedRuns} runs merged` : ''})`,
    `  ${m.responses} responses in ${m.durationSeconds} s = ${m.rps} req/s; latency ms p50 ${m.latency.p50}, p90 ${m.latency.p90}, p99 ${m.latency.p99}, max ${m.latency.max}`,
    `  errors ${m.errors} (timeouts ${m.timeouts}), non-2xx ${m.non2xx}, sampled ${m.sampled}, contract violations ${m.mismatches}`,
  ];
  if (load.profile.ramp) {
    lines.push(`  stages: ${load.stages.map((s) => `${s.rate ?? 0}/s→${s.metrics.rps}${s.breached.length > 0 ? ` (broke ${s.breached.join(', ')})` : ''}`).join(', ')}`);
    lines.push(`  highest rate that held: ${load.highestRateHeld === undefined ? 'none' : `${load.highestRateHeld}/s`}`);
  }
  for (const c of load.baseline?.comparisons ?? []) {
    const change = Number.isFinite(c.change) ? `${c.change >= 0 ? '+' : ''}${(c.change * 100).toFixed(1)} %` : 'new';
    lines.push(`  baseline ${c.metric}: ${c.baseline} → ${c.current} (${change})${c.regressed ? ' REGRESSED' : ''}`);
  }
  if (load.interrupted) lines.push('  interrupted: these are the figures measured until Ctrl-C');
  return lines;
}

/** Shows load progress on a TTY only, and the load summary when the run ends. */
export class LoadConsoleReporter implements Reporter {
  readonly name = 'load-console';
  private readonly options: LoadConsoleOptions;
  private progressShown = false;

  constructor(options: LoadConsoleOptions) {
    this.options = options;
  }

  onLoadProgress(p: LoadProgress): void {
    if (this.options.quiet || this.options.stream.isTTY !== true) return;
    const rate = p.rate === undefined ? '' : ` (target ${p.rate}/s)`;
    this.options.stream.write(`\r\u001b[Kload ${p.profile}: ${p.elapsedSeconds.toFixed(0)}/${p.plannedSeconds.toFixed(0)} s, ${p.responses} responses, ${p.rps} req/s${rate}`);
    this.progressShown = true;
  }

  onLoadEnd(): void {
    if (this.progressShown) this.options.stream.write('\r\u001b[K');
    this.progressShown = false;
  }

  onRunEnd(report: RunReport): void {
    if (this.options.quiet || report.load === undefined) return;
    for (const line of loadSummaryLines(report.load)) this.options.stream.write(`${line}\n`);
  }
}
