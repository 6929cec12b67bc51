import { EmbeddingError } from '../embedder';

/** One tensor of a safetensors file, its values widened to 32 bits (floats as Float32Array, integers as Int32Array). */
export interface Tensor {
  dtype: string;
  shape: number[];
  values: Float32Array | Int32Array;
}

const BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2, I32: 4, I64: 8, I8: 1, U8: 1 };
/** A header past this is not a model's (the format's own readers cap it at 100 MB). */
const MAX_HEADER_BYTES = 100 * 1024 * 1024;

/**
 * Reads a safetensors file (an 8-byte little-endian header length, a JSON header naming each
 * tensor's dtype, shape and byte range, then the data). Every range and size is checked against
 * the file before a byte is read, so a truncated or forged file is an `embedding.model_invalid`
 * error naming `file`, never a crash or a tensor of garbage.
 */
export function readSafetensors(bytes: Uint8Array, file: string): Map<string, Tensor> {
  const invalid = (why: string) => new EmbeddingError('embedding.model_invalid', `The embedding model file ${file} is not a valid safetensors file: ${why}. Fetch or copy the model again.`);
  if (bytes.length < 8) throw invalid(`it holds ${bytes.length} bytes (truncated?)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength > MAX_HEADER_BYTES || 8 + headerLength > bytes.length) throw invalid(`its header claims ${headerLength} bytes but the file holds ${bytes.length} (truncated?)`);
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + headerLength))) as Record<string, unknown>;
  } catch (error) {
    throw invalid(`its header is not JSON (${(error as Error).message})`);
  }
  if (!header || typeof header !== 'object' || Array.isArray(header)) throw invalid('its header is not a JSON object');
  const dataStart = 8 + headerLength;
  const tensors = new Map<string, Tensor>();
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const { dtype, shape, data_offsets: offsets } = (entry ?? {}) as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof dtype !== 'string' || !(dtype in BYTES)) throw invalid(`tensor "${name}" has dtype ${String(dtype)} (F32, F16, BF16, I32, I64, I8 or U8 are read)`);
    if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) throw invalid(`tensor "${name}" has no valid shape`);
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0) || offsets[0] > offsets[1]) {
      throw invalid(`tensor "${name}" has no valid data_offsets`);
    }
    const count = (shape as number[]).reduce((a, b) => a * b, 1);
    const [begin, end] = offsets as [number, number];
    if (end - begin !== count * BYTES[dtype]) throw invalid(`tensor "${name}" (${dtype} ${JSON.stringify(shape)}) needs ${count * BYTES[dtype]} bytes but has ${end - begin}`);
    if (dataStart + end > bytes.length) throw invalid(`tensor "${name}" ends at byte ${dataStart + end} but the file holds ${bytes.length} (truncated?)`);
    tensors.set(name, { dtype, shape: shape as number[], values: decode(dtype, bytes.subarray(dataStart + begin, dataStart + end), count) });
  }
  return tensors;
}

function decode(dtype: string, raw: Uint8Array, count: number): Float32Array | Int32Array {
  // Copied into a fresh, aligned buffer: the data of a tensor may start at any byte.
  const aligned = new Uint8Array(raw);
  switch (dtype) {
    case 'F32':
      return new Float32Array(aligned.buffer, 0, count);
    case 'F16': {
      const half = new Uint16Array(aligned.buffer, 0, count);
      const out = new Float32Array(count);
      for (let i = 0; i < count; i++) out[i] = halfToFloat(half[i]);
      return out;
    }
    case 'BF16': {
      const half = new Uint16Array(aligned.buffer, 0, count);
      const bits = new Uint32Array(count);
      for (let i = 0; i < count; i++) bits[i] = half[i] << 16;
      return new Float32Array(bits.buffer);
    }
    case 'I32':
      return new Int32Array(aligned.buffer, 0, count);
    case 'I64': {
      const wide = new BigInt64Array(aligned.buffer, 0, count);
      const out = new Int32Array(count);
      for (let i = 0; i < count; i++) out[i] = wide[i] > 0x7fffffffn || wide[i] < -0x80000000n ? -1 : Number(wide[i]);
      return out;
    }
    case 'I8':
      return Int32Array.from(new Int8Array(aligned.buffer, 0, count));
    default:
      return Int32Array.from(aligned);
  }
}

/** IEEE 754 half precision to a JS number (subnormals, infinities and NaN included). */
function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}
