/** Latency histograms in microseconds: recorded by each stage, encoded into raw runs, merged exactly, read back in ms. */
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from 'hdr-histogram-js';

/** Three significant digits: a value is read back within 0.1 % of what was recorded, at any magnitude. */
const SIGNIFICANT_DIGITS = 3;
const BIT_BUCKET_SIZE = 32;

/** An empty histogram of latencies in µs (1 µs up, resized as needed). */
export function latencyHistogram(): Histogram {
  return build({
    bitBucketSize: BIT_BUCKET_SIZE,
    autoResize: true,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 2,
    numberOfSignificantValueDigits: SIGNIFICANT_DIGITS,
    useWebAssembly: false,
  });
}

/** Records one latency given in ms (a float with µs resolution); under 1 µs counts as 1 µs. */
export function recordMs(histogram: Histogram, ms: number): number {
  const micros = Math.max(1, Math.round(ms * 1000));
  histogram.recordValue(micros);
  return micros;
}

/** The histogram as text for report.json. */
export function encodeHistogram(histogram: Histogram): string {
  return encodeIntoCompressedBase64(histogram);
}

/** The sum of encoded histograms: the exact merge of what each recorded. */
export function mergeHistograms(encoded: readonly string[]): Histogram {
  const merged = latencyHistogram();
  for (const text of encoded) merged.add(decodeFromCompressedBase64(text, BIT_BUCKET_SIZE, false));
  return merged;
}

/** µs to ms with µs resolution (0.213 ms), as every report shows latency. */
export function microsToMs(micros: number): number {
  return Math.round(micros) / 1000;
}

/** The percentiles the percentile chart draws (the tail is what matters). */
export const CHART_PERCENTILES = [50, 75, 90, 95, 97.5, 99, 99.9, 99.99, 100] as const;

/** Latency in ms at a percentile; 0 for an empty histogram. */
export function percentileMs(histogram: Histogram, p: number): number {
  return histogram.totalCount === 0 ? 0 : microsToMs(histogram.getValueAtPercentile(p));
}
