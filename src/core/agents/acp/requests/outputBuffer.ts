/**
 * A terminal's output kept up to a byte limit: when it grows past, the oldest bytes go (as ACP's
 * `outputByteLimit` asks), cut at a UTF-8 character boundary so the text stays valid.
 */
export class OutputBuffer {
  private chunks: Buffer[] = [];
  private bytes = 0;
  truncated = false;

  constructor(readonly limit: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    if (this.bytes <= this.limit) return;
    let all = Buffer.concat(this.chunks);
    let start = all.length - this.limit;
    // Continuation bytes (10xxxxxx) belong to the character before: start after them.
    while (start < all.length && (all[start]! & 0xc0) === 0x80) start++;
    all = all.subarray(start);
    this.chunks = [all];
    this.bytes = all.length;
    this.truncated = true;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }

  /** The last `chars` characters, for a live view that must stay small. */
  tail(chars: number): string {
    const text = this.text();
    return text.length > chars ? text.slice(text.length - chars) : text;
  }
}
