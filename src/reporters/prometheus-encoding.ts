/**
 * Prometheus remote write 1.0 on the wire, by hand (no dependency for a few hundred bytes): the WriteRequest protobuf
 * (prometheus/prompb types.proto and remote.proto) and the snappy block format it is compressed in, written as literals
 * only, which every snappy decoder reads (compression would save little on a payload of a few kilobytes).
 */

/** One label of a series; the series' name is its `__name__` label. */
export interface PromLabel {
  name: string;
  value: string;
}

/** One series with one sample: what a run reports is one value per series, at the time the run finished. */
export interface PromSeries {
  labels: PromLabel[];
  value: number;
  /** Milliseconds since the epoch. */
  timestampMs: number;
}

/** Protobuf wire types: varint, 64-bit, length-delimited. */
const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;

/** A base-128 varint, least significant group first; `value` is a non-negative safe integer (a length, a timestamp). */
function varint(value: number): number[] {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a non-negative safe integer: ${value}`);
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

function key(field: number, wireType: number): number[] {
  return varint(field * 8 + wireType);
}

function lengthDelimited(field: number, body: Uint8Array): Uint8Array {
  return Buffer.concat([Buffer.from([...key(field, LENGTH_DELIMITED), ...varint(body.length)]), body]);
}

/** prompb.Label: name = 1, value = 2 (both strings). */
function encodeLabel(label: PromLabel): Uint8Array {
  return Buffer.concat([lengthDelimited(1, Buffer.from(label.name, 'utf8')), lengthDelimited(2, Buffer.from(label.value, 'utf8'))]);
}

/** prompb.Sample: value = 1 (double), timestamp = 2 (int64, ms). */
function encodeSample(value: number, timestampMs: number): Uint8Array {
  const double = Buffer.alloc(8);
  double.writeDoubleLE(value);
  return Buffer.concat([Buffer.from(key(1, FIXED64)), double, Buffer.from([...key(2, VARINT), ...varint(timestampMs)])]);
}

/**
 * prompb.WriteRequest { repeated TimeSeries timeseries = 1 }, TimeSeries { repeated Label labels = 1; repeated Sample
 * samples = 2 }. The specification asks for each series' labels sorted by name, which this does; names are unique.
 */
export function encodeWriteRequest(series: readonly PromSeries[]): Uint8Array {
  return Buffer.concat(
    series.map((one) => {
      const labels = [...one.labels].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const body = Buffer.concat([
        ...labels.map((label) => lengthDelimited(1, encodeLabel(label))),
        lengthDelimited(2, encodeSample(one.value, one.timestampMs)),
      ]);
      return lengthDelimited(1, body);
    }),
  );
}

/** The longest literal one element holds here: the 64 KiB block size of the reference encoder, which decoders expect at most. */
const MAX_LITERAL = 65_536;

/** A literal element's tag: the length - 1 in the tag's upper six bits below 60, else in the 1 to 4 little-endian bytes after it. */
function literalTag(length: number): number[] {
  const n = length - 1;
  if (n < 60) return [n << 2];
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.push(rest % 256);
  return [(59 + bytes.length) << 2, ...bytes];
}

/** The snappy block format (not the framing format): the uncompressed length as a varint, then the data as literal elements. */
export function snappyBlock(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [Buffer.from(varint(data.length))];
  for (let at = 0; at < data.length; at += MAX_LITERAL) {
    const chunk = data.subarray(at, Math.min(at + MAX_LITERAL, data.length));
    parts.push(Buffer.from(literalTag(chunk.length)), chunk);
  }
  return Buffer.concat(parts);
}
