/**
 * Transcripts of every agent session, internal or external, kept by Hearth (DESIGN.md decision 10)
 * so a conversation survives restarts and agents that forget. One JSONL file per session under the
 * host's storage directory: a header line, then each prompt and each event as it happens (streamed
 * text chunks joined, so a long answer is a few lines, not thousands). Appending line by line means
 * a crash loses at most the line being written, and reading skips a torn last line.
 */
import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describeError, isHearthError } from '../errors';
import type { Logger } from '../host';
import type { Redactor } from '../logging/redactor';
import type { AgentDescriptor, AgentEvent, AgentSession, PromptAttachment } from './agentSession';

export const TRANSCRIPT_VERSION = 1;

export type TranscriptEntry =
  | { type: 'session'; version: number; id: string; sessionId: string; agent: AgentDescriptor; cwd: string; startedAt: string }
  | { type: 'prompt'; at: string; text: string; attachments?: PromptAttachment[] }
  | { type: 'event'; at: string; event: AgentEvent };

export interface TranscriptSummary {
  id: string;
  agent: string;
  kind: AgentDescriptor['kind'];
  cwd: string;
  startedAt: string;
  /** When the file was last written. */
  updatedAt: string;
  /** The first prompt, shortened: what the conversation is about. */
  title: string;
  prompts: number;
}

/** Text chunks are joined up to this size before a line is written. */
const TEXT_FLUSH_CHARS = 8 * 1024;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

export class TranscriptStore {
  constructor(
    /** `<workspace storage>/transcripts` in the editor, `<workspace>/.hearth/transcripts` in the CLI. */
    readonly dir: string,
    private readonly log: Logger,
    /** Every line passes it before it reaches the disk: a key echoed in an error is never saved. */
    private readonly redactor?: Redactor,
  ) {}

  /** Wraps `session` so everything it is asked and answers is recorded. */
  record(session: AgentSession, cwd: string): RecordedSession {
    return new RecordedSession(session, new TranscriptWriter(this.dir, session, cwd, this.log, this.redactor));
  }

  /** Every transcript, newest first; unreadable ones are skipped. */
  async list(): Promise<TranscriptSummary[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((name) => name.endsWith('.jsonl'));
    } catch {
      return [];
    }
    const summaries: TranscriptSummary[] = [];
    for (const name of names) {
      const id = name.slice(0, -'.jsonl'.length);
      try {
        const [entries, info] = await Promise.all([this.read(id), stat(join(this.dir, name))]);
        const header = entries[0];
        if (header?.type !== 'session') continue;
        const prompts = entries.filter((e): e is Extract<TranscriptEntry, { type: 'prompt' }> => e.type === 'prompt');
        const first = prompts[0]?.text.replace(/\s+/g, ' ').trim() ?? '';
        summaries.push({
          id,
          agent: header.agent.name,
          kind: header.agent.kind,
          cwd: header.cwd,
          startedAt: header.startedAt,
          updatedAt: info.mtime.toISOString(),
          title: first.length > 80 ? `${first.slice(0, 79)}…` : first,
          prompts: prompts.length,
        });
      } catch (error) {
        this.log.child('agents').debug(`transcript ${name} skipped: ${describeError(error)}`);
      }
    }
    return summaries.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  }

  /** The entries of one transcript; lines that do not parse (a torn write) are skipped. */
  async read(id: string): Promise<TranscriptEntry[]> {
    if (!ID_PATTERN.test(id)) throw new Error(`not a transcript id: ${id}`);
    const text = await readFile(join(this.dir, `${id}.jsonl`), 'utf8');
    const entries: TranscriptEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        entries.push(JSON.parse(line) as TranscriptEntry);
      } catch {
        // A crash mid-append leaves a partial line; the rest of the transcript is still good.
      }
    }
    return entries;
  }
}

/** Appends one session's lines in order; a failing disk is logged once and never breaks the conversation. */
class TranscriptWriter {
  readonly id = randomUUID();
  private readonly file: string;
  private queue: Promise<void>;
  private pending: { type: 'text' | 'thought'; text: string } | undefined;
  private failed = false;

  constructor(
    dir: string,
    session: AgentSession,
    cwd: string,
    private readonly log: Logger,
    private readonly redactor: Redactor | undefined,
  ) {
    this.file = join(dir, `${this.id}.jsonl`);
    const header: TranscriptEntry = { type: 'session', version: TRANSCRIPT_VERSION, id: this.id, sessionId: session.id, agent: session.agent, cwd, startedAt: new Date().toISOString() };
    this.queue = mkdir(dir, { recursive: true }).then(
      () => this.append([header]),
      (error) => this.fail(error),
    );
  }

  prompt(text: string, attachments: PromptAttachment[] | undefined): void {
    this.write({ type: 'prompt', at: new Date().toISOString(), text, ...(attachments?.length ? { attachments } : {}) });
  }

  event(event: AgentEvent): void {
    if (event.type === 'text' || event.type === 'thought') {
      if (this.pending && this.pending.type !== event.type) this.flushText();
      this.pending = { type: event.type, text: (this.pending?.text ?? '') + event.text };
      if (this.pending.text.length >= TEXT_FLUSH_CHARS) this.flushText();
      return;
    }
    this.flushText();
    this.write({ type: 'event', at: new Date().toISOString(), event });
  }

  /** Resolves when everything recorded so far is on disk. */
  flush(): Promise<void> {
    this.flushText();
    return this.queue;
  }

  private flushText(): void {
    if (!this.pending) return;
    const event: AgentEvent = { type: this.pending.type, text: this.pending.text };
    this.pending = undefined;
    this.write({ type: 'event', at: new Date().toISOString(), event });
  }

  private write(entry: TranscriptEntry): void {
    this.queue = this.queue.then(() => this.append([entry]));
  }

  private async append(entries: TranscriptEntry[]): Promise<void> {
    if (this.failed) return;
    try {
      const safe = this.redactor ? entries.map((e) => this.redactor!.redactDeep(e)) : entries;
      await appendFile(this.file, safe.map((e) => JSON.stringify(e) + '\n').join(''));
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    if (!this.failed) this.log.child('agents').warn(`transcript not saved (${this.file}): ${describeError(error)}`);
    this.failed = true;
  }
}

/** An AgentSession that records into a transcript; everything else passes through. */
export class RecordedSession implements AgentSession {
  constructor(
    readonly inner: AgentSession,
    private readonly writer: TranscriptWriter,
  ) {}

  get id(): string {
    return this.inner.id;
  }

  get agent(): AgentDescriptor {
    return this.inner.agent;
  }

  get controls(): AgentSession['controls'] {
    return this.inner.controls;
  }

  get opening(): AgentSession['opening'] {
    return this.inner.opening;
  }

  async end(): Promise<void> {
    try {
      await (this.inner.end ? this.inner.end() : this.inner.dispose());
    } finally {
      await this.writer.flush();
    }
  }

  /** The transcript's id (TranscriptStore.read). */
  get transcriptId(): string {
    return this.writer.id;
  }

  async *prompt(text: string, attachments?: PromptAttachment[], signal?: AbortSignal): AsyncIterable<AgentEvent> {
    this.writer.prompt(text, attachments);
    try {
      for await (const event of this.inner.prompt(text, attachments, signal)) {
        this.writer.event(event);
        // The turn is on disk before the surface hears it ended.
        if (event.type === 'done') await this.writer.flush();
        yield event;
      }
    } catch (error) {
      this.writer.event({ type: 'error', code: isHearthError(error) ? error.code : 'agent.failed', message: describeError(error) });
      throw error;
    } finally {
      await this.writer.flush();
    }
  }

  async dispose(): Promise<void> {
    try {
      await this.inner.dispose();
    } finally {
      await this.writer.flush();
    }
  }
}
