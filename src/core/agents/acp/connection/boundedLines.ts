/**
 * Splits a byte stream into newline-delimited messages, holding at most `maxBytes` of any one line.
 * A longer line is reported once, the moment it crosses the limit, and the rest of it is skipped
 * up to its newline: the peer can send a 1 GB line and Hearth still holds no more than the limit,
 * and the next message is read normally. (The SDK's own reader errors the whole stream instead,
 * which would end the session.)
 */
export class BoundedLineSplitter {
  private pieces: Buffer[] = [];
  private length = 0;
  private skipping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onOversized: (limit: number) => void,
  ) {}

  /** Bytes currently held for the line in progress (never more than the limit). */
  get buffered(): number {
    return this.length;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.skipping) this.hold(chunk.subarray(start, end));
      if (newline === -1) return;
      if (!this.skipping) this.emit();
      this.skipping = false;
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (!this.skipping && this.length > 0) this.emit();
    this.skipping = false;
    this.clear();
  }

  private hold(part: Buffer): void {
    if (part.length === 0) return;
    if (this.length + part.length > this.maxBytes) {
      this.clear();
      this.skipping = true;
      this.onOversized(this.maxBytes);
      return;
    }
    this.pieces.push(part);
    this.length += part.length;
  }

  private emit(): void {
    const line = this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces, this.length);
    this.clear();
    this.onLine(line);
  }

  private clear(): void {
    this.pieces = [];
    this.length = 0;
  }
}
