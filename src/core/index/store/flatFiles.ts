import { promises as fsp } from 'node:fs';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { StoreCorruptError, type StoreHeader } from './vectorStore';

/**
 * On-disk layout of the flat store. Three append-only files per generation (int8 slots, float32
 * slots, a JSON-lines metadata log) and a small manifest, replaced atomically (temp + fsync +
 * rename), that says how many bytes of each file are committed and their running CRC-32. Bytes past
 * the committed length are the leftovers of an interrupted commit and are ignored (then overwritten,
 * or trimmed by a process holding the writer lock). Every change to these files is made under that lock.
 */
export const FORMAT = 'hearth-flat';
export const VERSION = 1;

export interface FileState {
  bytes: number;
  crc: number;
}

export interface Manifest {
  format: string;
  version: number;
  header: StoreHeader;
  gen: number;
  dimPad: number;
  slots: number;
  q8: FileState;
  f32: FileState;
  meta: FileState;
}

export const MANIFEST = 'manifest.json';
/** Held by the process that is changing the index's files (see crossProcessLock). */
export const WRITER_LOCK = 'writer.lock';
export const fileNames = (gen: number) => ({
  q8: `vectors-${gen}.q8`,
  f32: `vectors-${gen}.f32`,
  meta: `chunks-${gen}.jsonl`,
});

/** The paths of generation `gen`'s three files in `dir`. */
export function generationFiles(dir: string, gen: number): { q8: string; f32: string; meta: string } {
  const names = fileNames(gen);
  return { q8: path.join(dir, names.q8), f32: path.join(dir, names.f32), meta: path.join(dir, names.meta) };
}

/** Whether two manifests record the same commit (when not, another writer committed or compacted since). */
export function sameCommit(a: Manifest, b: Manifest): boolean {
  return a.gen === b.gen && a.meta.bytes === b.meta.bytes && a.meta.crc === b.meta.crc;
}

export async function readManifest(dir: string): Promise<Manifest | undefined> {
  let text: string;
  try {
    text = await fsp.readFile(path.join(dir, MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StoreCorruptError(`The index manifest in ${dir} cannot be read.`, { cause: error });
  }
  try {
    const m = JSON.parse(text) as Manifest;
    if (m.format !== FORMAT || typeof m.gen !== 'number' || typeof m.slots !== 'number' || !m.header || !m.q8 || !m.f32 || !m.meta) {
      throw new Error('not a flat index manifest');
    }
    return m;
  } catch (error) {
    throw new StoreCorruptError(`The index manifest in ${dir} is damaged.`, { cause: error });
  }
}

export async function writeManifest(dir: string, m: Manifest): Promise<void> {
  const tmp = path.join(dir, `${MANIFEST}.${process.pid}.tmp`);
  const fh = await fsp.open(tmp, 'w');
  try {
    await fh.writeFile(JSON.stringify(m));
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fsp.rename(tmp, path.join(dir, MANIFEST));
}

/** Bytes read (and checksummed) between two returns to the event loop. */
/** How much of an index file is read at once, so the editor keeps responding while a large one loads. */
export const READ_SLICE = 4 << 20;

/**
 * A file's committed bytes (into `into` when given), checked against their CRC. Read and checksummed
 * a slice at a time: a 100k-chunk index is tens of MB, and the editor must keep responding meanwhile.
 */
export async function readChecked(file: string, state: FileState, into?: Uint8Array): Promise<Uint8Array> {
  const target = into ?? new Uint8Array(state.bytes);
  const handle = await openIndexFile(file);
  let crc = 0;
  try {
    let off = 0;
    while (off < state.bytes) {
      const { bytesRead } = await handle.read(target, off, Math.min(state.bytes - off, READ_SLICE), off);
      if (bytesRead === 0) throw new StoreCorruptError(`An index file is shorter than recorded: ${file}.`);
      crc = crc32(target.subarray(off, off + bytesRead), crc);
      off += bytesRead;
    }
  } finally {
    await handle.close();
  }
  if (crc !== state.crc) throw new StoreCorruptError(`An index file fails its checksum: ${file}.`);
  return target;
}

/** Checks the CRC of a large file's committed prefix without holding it in memory. */
export function verifyStreaming(file: string, state: FileState): void {
  const fd = openForReading(file);
  const buf = Buffer.allocUnsafe(1 << 23);
  let crc = 0;
  try {
    let off = 0;
    while (off < state.bytes) {
      const n = fs.readSync(fd, buf, 0, Math.min(state.bytes - off, buf.length), off);
      if (n === 0) throw new StoreCorruptError(`An index file is shorter than recorded: ${file}.`);
      crc = crc32(buf.subarray(0, n), crc);
      off += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  if (crc !== state.crc) throw new StoreCorruptError(`An index file fails its checksum: ${file}.`);
}

/** A handle for reading a file the manifest records; missing, the index is damaged. */
export async function openIndexFile(file: string): Promise<fsp.FileHandle> {
  try {
    return await fsp.open(file, 'r');
  } catch (error) {
    throw new StoreCorruptError(`An index file is missing: ${file}.`, { cause: error });
  }
}

/** A descriptor for reading a file the manifest records; missing, the index is damaged. */
export function openForReading(file: string): number {
  try {
    return fs.openSync(file, 'r');
  } catch (error) {
    throw new StoreCorruptError(`An index file is missing: ${file}.`, { cause: error });
  }
}

/** Writes `data` at the committed end of a file (past it: leftovers of a crash), syncs it, returns the new state. */
export function appendSynced(file: string, state: FileState, data: Uint8Array, flags = 'r+'): FileState {
  const fd = fs.openSync(file, flags);
  try {
    let off = 0;
    while (off < data.length) off += fs.writeSync(fd, data, off, data.length - off, state.bytes + off);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return { bytes: state.bytes + data.length, crc: crc32(data, state.crc) };
}

/** Writes the three files of a new generation (compaction); the manifest still names the old one. */
export function writeGeneration(dir: string, gen: number, data: { q8: Uint8Array; f32: Uint8Array; meta: Uint8Array }): Pick<Manifest, 'q8' | 'f32' | 'meta'> {
  const files = generationFiles(dir, gen);
  const empty: FileState = { bytes: 0, crc: 0 };
  return {
    q8: appendSynced(files.q8, empty, data.q8, 'w'),
    f32: appendSynced(files.f32, empty, data.f32, 'w'),
    meta: appendSynced(files.meta, empty, data.meta, 'w'),
  };
}

export async function removeOtherGenerations(dir: string, keep: number): Promise<void> {
  for (const name of otherGenerations(await fsp.readdir(dir).catch(() => [] as string[]), keep)) await fsp.rm(path.join(dir, name), { force: true });
}

/** Of a store folder's file names, those of another generation than `keep` and dead writers' temp manifests. */
export function otherGenerations(names: readonly string[], keep: number): string[] {
  const keepNames = new Set(Object.values(fileNames(keep)));
  return names.filter((name) => /^(vectors-\d+\.(q8|f32)|chunks-\d+\.jsonl|manifest\.json\.\d+\.tmp)$/.test(name) && !keepNames.has(name));
}
