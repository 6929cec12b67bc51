/**
 * What the change journal knows about one file change made on an agent's or client's behalf.
 * One record per file; the records of one agent turn (or one gateway call) share `turn`, so a turn
 * can be undone as a whole.
 */
export type ChangeKind = 'create' | 'update' | 'delete';

/**
 * `pending`: the entry is written and the note write may or may not have happened (a crash in
 * between); opening the journal settles it. `done`: applied. `aborted`: never applied (or rolled
 * back by the crash check). `undone`: reverted by an undo.
 */
export type ChangeState = 'pending' | 'done' | 'aborted' | 'undone';

/** Who asked for a change: shown by `hearth changes` and in the editor's review. */
export interface ChangeActor {
  /** The turn this change belongs to; one gateway call without a turn of its own is a turn. */
  turn: string;
  /** The agent (`kiln`, `claude-code`…) when known. */
  agent?: string;
  /** The tool (`update_note`, `fs/write_text_file`…). */
  tool: string;
  /** The client that called (an MCP client's name, `chat`, `cli`…). */
  client?: string;
}

/** Who is calling a tool, as far as the caller knows: the journal fills in the tool's name. */
export type ChangeOrigin = Partial<Omit<ChangeActor, 'tool'>>;

export interface ChangeRecord extends ChangeActor {
  /** Sortable and unique: ISO time + a random suffix. */
  id: string;
  /** ISO time the change was requested. */
  time: string;
  /** Kiln-relative path with forward slashes. */
  path: string;
  kind: ChangeKind;
  /** sha256 of the content before (null: the file did not exist). */
  before: string | null;
  /** sha256 of the content after (null: the file was deleted). */
  after: string | null;
  state: ChangeState;
  /** Bytes of the blobs this record keeps (for `[changes].max_mb`). */
  size: number;
}

/** The row `hearth changes` prints, one per file change. */
export interface ChangeRow {
  id: string;
  turn: string;
  time: string;
  agent: string | null;
  tool: string;
  client: string | null;
  path: string;
  kind: ChangeKind;
  state: ChangeState;
}

export function toChangeRow(record: ChangeRecord): ChangeRow {
  return {
    id: record.id,
    turn: record.turn,
    time: record.time,
    agent: record.agent ?? null,
    tool: record.tool,
    client: record.client ?? null,
    path: record.path,
    kind: record.kind,
    state: record.state,
  };
}

export function changeKind(before: Uint8Array | null, after: Uint8Array | null): ChangeKind {
  if (before === null) return 'create';
  if (after === null) return 'delete';
  return 'update';
}
