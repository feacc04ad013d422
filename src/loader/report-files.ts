/** Earlier reports given as input: a baseline to compare a load with, and the load reports `merge` combines. */
import { RunError } from '../model/errors.js';
import { RAW_LOAD_FORMAT, type LoadMetrics, type LoadReport } from '../model/load.js';
import { fileWhere, readInputFile } from './input-file.js';

/** The largest report.json read back (a baseline, a shard to merge). */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

async function readJson(file: string, what: string): Promise<unknown> {
  try {
    return JSON.parse(await readInputFile(file, MAX_REPORT_BYTES));
  } catch (error) {
    throw new RunError(
      'ERR_CONFIG',
      `${what}${fileWhere(file, error)}: ${error instanceof SyntaxError ? 'not JSON' : (error as Error).message}`,
    );
  }
}

/** Reads the load metrics of an earlier report.json; a file that is not one is a usage error (exit 2). */
export async function readBaseline(file: string): Promise<LoadMetrics> {
  const value = await readJson(file, '--baseline ');
  const metrics = (value as { load?: { metrics?: LoadMetrics } } | null)?.load?.metrics;
  if (typeof metrics?.rps !== 'number' || typeof metrics.latency?.p99 !== 'number') {
    throw new RunError('ERR_CONFIG', `--baseline ${file}: not the report.json of a load run (no load.metrics)`);
  }
  return metrics;
}

/**
 * Reads the load parts of reports to merge, side by side; the problem of the first file named is the one told, whichever read ends first.
 */
export async function readLoadReports(files: readonly string[]): Promise<LoadReport[]> {
  const reads = await Promise.allSettled(files.map(readLoadReport));
  return reads.map((read) => {
    if (read.status === 'rejected') throw read.reason;
    return read.value;
  });
}

/** Reads the load part of a report.json to merge; one without raw results is a usage error. */
export async function readLoadReport(file: string): Promise<LoadReport> {
  const value = await readJson(file, '');
  const load = (value as { load?: LoadReport } | null)?.load;
  if (!Array.isArray(load?.stages) || typeof load.profile?.name !== 'string' || load.stages.some((s) => !Array.isArray(s.raw))) {
    throw new RunError('ERR_CONFIG', `${file}: not the report.json of a load run (no load.stages with raw results)`);
  }
  const other = load.stages.flatMap((s) => s.raw).find((r) => (r as { format?: unknown }).format !== RAW_LOAD_FORMAT);
  if (other !== undefined) {
    throw new RunError(
      'ERR_CONFIG',
      `${file}: its raw results are not in the format ${RAW_LOAD_FORMAT} (written by an earlier version, which counted differently); run ` +
        `the load again with this version to merge it`,
    );
  }
  return load;
}
