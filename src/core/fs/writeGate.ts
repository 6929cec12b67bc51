import { ConfinedFileError, ProtectedPathError } from './confinedFileError';
import { confinePath } from './confinedPath';
import type { ConfinedRoot, WriteMode } from './confinedRoot';
import type { ProtectedPaths, ProtectedReason } from './protectedPaths';

/** What a protected-path confirmation names: the path, what would happen, and why it matters. */
export interface ProtectedWriteRequest {
  /** Root-relative path, forward slashes. */
  path: string;
  action: 'create' | 'change' | 'delete';
  reason: ProtectedReason;
  /** Who asks (an agent's or MCP client's name), when known. */
  actor?: string;
}

/**
 * Asks the user about one protected write, every time: `[cli].confirm_destructive = false`, `--yes`
 * and "allow always" answers do not apply (DESIGN.md decision 15). Resolves undefined when nobody
 * can be asked (no terminal, no elicitation): the write is then refused.
 */
export type ProtectedWriteConfirm = (request: ProtectedWriteRequest) => Promise<boolean | undefined>;

/** One file change as the journal records it (null: the file does not exist on that side). */
export interface GateChange {
  /** Root-relative path, forward slashes. */
  path: string;
  before: Uint8Array | null;
  after: Uint8Array | null;
}

/**
 * The hook between the checks and the write, where review and the change journal plug in
 * (DESIGN.md decision 19). It must call `apply` exactly once to go ahead, or throw to stop; what
 * it throws reaches the caller unchanged.
 */
export type BeforeWrite = (change: GateChange, apply: () => Promise<void>) => Promise<void>;

export interface GateWriteOptions {
  /** 'create' refuses an existing file, 'replace' a missing one; 'upsert' takes either. */
  mode?: WriteMode;
  beforeWrite?: BeforeWrite;
  actor?: string;
  /** The current content when the caller just read it (saves a second read for the journal). */
  before?: Uint8Array | null;
  /** Asks for this one write instead of the gate's own confirmer (an ACP request has its own prompt). */
  confirmProtected?: ProtectedWriteConfirm;
}

export interface WriteGateOptions {
  files: ConfinedRoot;
  protectedPaths: ProtectedPaths;
  /** Absent: nobody can be asked here, so every protected write is refused. */
  confirmProtected?: ProtectedWriteConfirm;
}

/**
 * The one way Hearth writes into a kiln or workspace on someone's behalf (DESIGN.md decision 16):
 * confine the path → protected-path check (always asks) → `beforeWrite` (review + journal) →
 * atomic confined write keeping the mode. Deletes go the same way.
 */
export class WriteGate {
  constructor(private readonly options: WriteGateOptions) {}

  get files(): ConfinedRoot {
    return this.options.files;
  }

  async write(path: string, content: Uint8Array | string, options: GateWriteOptions = {}): Promise<{ relative: string; created: boolean }> {
    const where = confinePath(path);
    const after = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const before = options.before !== undefined ? options.before : await this.current(where.relative);
    const mode = options.mode ?? 'upsert';
    if (mode === 'create' && before !== null) throw new ConfinedFileError('fs.exists', `"${where.relative}" already exists`, where.relative);
    if (mode === 'replace' && before === null) throw new ConfinedFileError('fs.not_found', `Nothing at "${where.relative}"`, where.relative);
    await this.checkProtected(where.relative, before === null ? 'create' : 'change', options.actor, options.confirmProtected);
    let result: { relative: string; created: boolean } | undefined;
    const apply = async () => {
      result = await this.options.files.write(where, after, mode, (real) => this.refuseHiddenProtected(where.relative, real));
    };
    if (options.beforeWrite) await options.beforeWrite({ path: where.relative, before, after }, apply);
    else await apply();
    return result ?? { relative: where.relative, created: before === null };
  }

  /** Deletes a file through the same checks; false when there was nothing to delete. */
  async remove(path: string, options: Omit<GateWriteOptions, 'mode'> = {}): Promise<boolean> {
    const where = confinePath(path);
    const before = options.before !== undefined ? options.before : await this.current(where.relative);
    if (before === null) return false;
    await this.checkProtected(where.relative, 'delete', options.actor, options.confirmProtected);
    let removed = false;
    const apply = async () => {
      removed = await this.options.files.remove(where);
    };
    if (options.beforeWrite) await options.beforeWrite({ path: where.relative, before, after: null }, apply);
    else await apply();
    return removed;
  }

  /** A link in a parent folder may lead an ordinary-looking path into a protected one: refused without asking. */
  private refuseHiddenProtected(asked: string, real: string): void {
    if (real.toLowerCase() === asked.toLowerCase()) return;
    const reason = this.options.protectedPaths.reason(real);
    if (reason) throw new ProtectedPathError('fs.protected_unconfirmed', `Refused: "${asked}" leads through a symbolic link to the protected path "${real}" (${reason}).`, asked, reason);
  }

  /** Why `path` is protected, or undefined. */
  protectedReason(path: string): ProtectedReason | undefined {
    return this.options.protectedPaths.reason(path);
  }

  /** Asks for a protected path (every time) and throws unless the user allows it; ordinary paths pass. */
  async checkProtected(path: string, action: ProtectedWriteRequest['action'], actor?: string, confirm = this.options.confirmProtected): Promise<void> {
    const reason = this.options.protectedPaths.reason(path);
    if (!reason) return;
    const request: ProtectedWriteRequest = { path, action, reason, ...(actor ? { actor } : {}) };
    const answer = confirm ? await confirm(request).catch(() => undefined) : undefined;
    if (answer === true) return;
    const verb = action === 'create' ? 'Creating' : action === 'delete' ? 'Deleting' : 'Changing';
    if (answer === undefined) {
      throw new ProtectedPathError(
        'fs.protected_unconfirmed',
        `Refused: "${path}" is a protected path (${reason}). ${verb} it needs the user's explicit confirmation, and nobody can be asked here; make this change yourself, or through Hearth in the editor or a terminal.`,
        path,
        reason,
      );
    }
    throw new ProtectedPathError('fs.protected_declined', `The user declined: ${verb.toLowerCase()} the protected path "${path}" (${reason}). Do not retry; ask the user.`, path, reason);
  }

  /** The file's bytes, or null when none exists; links and escapes are refused like any read. */
  private async current(path: string): Promise<Uint8Array | null> {
    try {
      return (await this.options.files.read(path)).bytes;
    } catch (error) {
      if (error instanceof ConfinedFileError && error.code === 'fs.not_found') return null;
      throw error;
    }
  }
}

/** The message for a protected confirmation, shared by every host so they all name the path and the reason. */
export function protectedQuestion(request: ProtectedWriteRequest): { message: string; detail: string } {
  const verb = request.action === 'create' ? 'create' : request.action === 'delete' ? 'delete' : 'change';
  return {
    message: `${request.actor ?? 'An agent'} wants to ${verb} the protected file "${request.path}". Allow it?`,
    detail: `Why this matters: ${request.reason}. This question is always asked, whatever confirm_destructive or --yes say.`,
  };
}
