import { closeSync, readSync } from 'node:fs';
import type { RowsAt } from './flatMeta';
import { openForReading } from './flatFiles';
import { StoreCorruptError, StoreUsageError } from './vectorStore';

/**
 * The chunk log a flat store's notes were read from, kept open: a note's rows stay in the file
 * until a result shows one of its chunks (at 50k notes the log is ~57 MB, which a cold search held
 * whole to show ten notes). Open past a compaction — even one by another process, which removes
 * the file — so a hit handed out before it still reads the rows it was found with.
 */
export class ChunkLogRows {
  private fd?: number;

  constructor(
    /** The store's folder, for messages. */
    private readonly dir: string,
  ) {}

  open(file: string): void {
    this.close();
    this.fd = openForReading(file);
  }

  read(rows: RowsAt): Uint8Array {
    if (this.fd === undefined) throw new StoreUsageError(`The index in ${this.dir} was closed before this result's text was read; search again.`);
    const bytes = Buffer.allocUnsafe(rows.bytes);
    for (let done = 0; done < rows.bytes; ) {
      let read: number;
      try {
        read = readSync(this.fd, bytes, done, rows.bytes - done, rows.at + done);
      } catch (error) {
        throw new StoreCorruptError(`The chunk list of the index in ${this.dir} cannot be read.`, { cause: error });
      }
      if (read === 0) throw new StoreCorruptError(`The chunk list of the index in ${this.dir} is shorter than recorded.`);
      done += read;
    }
    return bytes;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
