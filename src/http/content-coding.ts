/** Content codings the functional client asks for and decodes (RFC 9110 §8.4), within the run's size bound. */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/** What the client sends as Accept-Encoding: every coding it decodes. */
export const DECODED_CODINGS = 'gzip, deflate, br';

/** A body as read: decoded when the server named a coding, the bytes it sent otherwise. */
export interface DecodedBody {
  body: Buffer;
  /** The codings the body was decoded from, as the server named them (`gzip`); absent for a body sent as is. */
  coding?: string;
  /** The decoded body outgrew the size bound, and was cut there. */
  truncated: boolean;
  /** Why the body could not be decoded (an unknown coding, corrupt data); the body is then the bytes as sent. */
  error?: string;
}

function decodeOne(coding: string, data: Buffer, max: number): Buffer {
  const bound = { maxOutputLength: max };
  if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(data, bound);
  if (coding === 'br') return brotliDecompressSync(data, bound);
  if (coding === 'deflate') {
    // RFC 9110 names the zlib format; some servers send raw deflate: both are read.
    try {
      return inflateSync(data, bound);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw error;
      return inflateRawSync(data, bound);
    }
  }
  throw new Error(`the coding ${coding} is not one the client asked for (${DECODED_CODINGS})`);
}

/**
 * Decodes `data` by its Content-Encoding (the codings in the order they were applied, undone last first), each step
 * bounded by `max` bytes: a small body that inflates past the bound (a gzip bomb) is cut there, never held whole.
 */
export function decodeBody(data: Buffer, contentEncoding: string | undefined, max: number): DecodedBody {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return { body: data, truncated: false };
  const coding = codings.join(', ');
  let body = data;
  try {
    for (const one of codings.reverse()) body = decodeOne(one, body, max);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      return { body: Buffer.alloc(0), coding, truncated: true, error: `the ${coding} body decodes to more than ${max} bytes` };
    return { body: data, coding, truncated: false, error: `the body is not valid ${coding}: ${(error as Error).message}` };
  }
  return { body, coding, truncated: false };
}
