/**
 * How the CLI shows progress on stderr: a redrawn bar on a terminal, one plain line per step (or
 * per 10 %) when stderr is a pipe or a file, so CI logs stay readable and never fill with `\r`.
 */
import type { Progress } from '../core/host';

export interface ProgressView extends Progress {
  /** Removes the bar before another line is written to the same stream, and redraws it after. */
  clear(): void;
  redraw(): void;
  finish(outcome: 'done' | 'failed' | 'cancelled'): void;
}

/** Below this many milliseconds between redraws a bar only flickers. */
const REDRAW_MS = 80;
const BAR_WIDTH = 24;

export function createProgressView(stream: NodeJS.WritableStream, title: string, bar: boolean, now: () => number = Date.now): ProgressView {
  return bar ? new BarView(stream, title, now) : new LineView(stream, title, now);
}

abstract class BaseView implements ProgressView {
  protected percent: number | undefined;
  protected message = '';
  protected readonly started: number;

  constructor(
    protected readonly stream: NodeJS.WritableStream,
    protected readonly title: string,
    protected readonly now: () => number,
  ) {
    this.started = now();
  }

  report(update: { message?: string; increment?: number }): void {
    if (update.increment !== undefined && Number.isFinite(update.increment)) {
      this.percent = Math.max(0, Math.min(100, (this.percent ?? 0) + update.increment));
    }
    const messageChanged = update.message !== undefined && update.message !== this.message;
    if (update.message !== undefined) this.message = update.message;
    this.changed(messageChanged);
  }

  protected elapsed(): string {
    return `${((this.now() - this.started) / 1000).toFixed(1)} s`;
  }

  protected abstract changed(messageChanged: boolean): void;
  abstract clear(): void;
  abstract redraw(): void;
  abstract finish(outcome: 'done' | 'failed' | 'cancelled'): void;
}

/** Not a terminal: a line when the step's message changes or the percentage passes a tenth. */
class LineView extends BaseView {
  private lastTenth = -1;

  constructor(stream: NodeJS.WritableStream, title: string, now: () => number) {
    super(stream, title, now);
    stream.write(`${title}…\n`);
  }

  protected changed(messageChanged: boolean): void {
    const tenth = this.percent === undefined ? -1 : Math.floor(this.percent / 10);
    if (!messageChanged && tenth <= this.lastTenth) return;
    this.lastTenth = Math.max(this.lastTenth, tenth);
    const percent = this.percent === undefined ? '' : ` ${Math.floor(this.percent)}%`;
    this.stream.write(`${this.title}:${percent}${this.message ? ` ${this.message}` : ''}\n`);
  }

  clear(): void {}
  redraw(): void {}

  finish(outcome: 'done' | 'failed' | 'cancelled'): void {
    this.stream.write(`${this.title}: ${outcome} (${this.elapsed()})\n`);
  }
}

/** A terminal: one line redrawn in place (`\r` + erase line), throttled. */
class BarView extends BaseView {
  private lastDraw = 0;
  private drawn = false;

  constructor(stream: NodeJS.WritableStream, title: string, now: () => number) {
    super(stream, title, now);
    this.redraw();
  }

  protected changed(): void {
    if (this.now() - this.lastDraw >= REDRAW_MS) this.redraw();
  }

  clear(): void {
    if (this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }

  redraw(): void {
    const columns = (this.stream as { columns?: number }).columns ?? 80;
    let line = this.title;
    if (this.percent !== undefined) {
      const filled = Math.round((this.percent / 100) * BAR_WIDTH);
      line += ` [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(this.percent).toString().padStart(3)}%`;
    } else line += '…';
    if (this.message) line += ` ${this.message}`;
    // A line longer than the terminal wraps, and `\r` would then redraw only its last part.
    if (line.length > columns - 1) line = `${line.slice(0, Math.max(0, columns - 2))}…`;
    this.stream.write(`\r\x1b[2K${line}`);
    this.drawn = true;
    this.lastDraw = this.now();
  }

  finish(outcome: 'done' | 'failed' | 'cancelled'): void {
    this.clear();
    this.stream.write(`${this.title}: ${outcome} (${this.elapsed()})\n`);
  }
}
