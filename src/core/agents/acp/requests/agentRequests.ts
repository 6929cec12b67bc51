import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { applyReviewedChange } from '../../../changes/changeReview';
import { kilnRelative, type WorkspaceEdits } from '../../../changes/workspaceEdits';
import { describeError, isHearthError } from '../../../errors';
import { protectedQuestion, type GateChange, type ProtectedWriteRequest } from '../../../fs/writeGate';
import type { Logger } from '../../../host';
import type { AgentEvent } from '../../agentSession';
import { AcpError } from '../acpErrors';
import type { PermissionBroker } from './permissionBroker';
import type { ToolCallTracker } from './updateEvents';
import type { WorkspaceFiles } from './workspaceFiles';

export interface AgentRequestsOptions {
  agentName: string;
  /** The session's logger, which names the agent (`[acp:<agent>]`). */
  log: Logger;
  broker: PermissionBroker;
  files: WorkspaceFiles;
  /** `[cli].confirm_destructive`: overwriting a file asks the user first (when it is not reviewed as a diff). */
  confirmDestructive: boolean;
  /** Review (`[chat].review_edits`) and the kiln's journal for the agent's writes; absent: the overwrite question only. */
  edits?: WorkspaceEdits;
  /** The workspace root the agent's paths are relative to. */
  workspaceRoot?: string;
  /** The running turn's id: the journal groups a turn's writes so one undo reverts them. */
  turnId?(): string | undefined;
  tools: ToolCallTracker;
  /** Shows an event in the running turn, if there is one. */
  push(event: AgentEvent): void;
  /** Aborted when the running turn ends: prompts opened for it close with it. */
  turnSignal(): AbortSignal | undefined;
  /**
   * Runs `work` while Hearth waits for the user: the turn's streaming time-out is paused meanwhile,
   * since an agent waiting on an answer is silent by design and a slow answer must not cancel it.
   */
  waitingForUser<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * What an agent asks of Hearth during a session: permission for a tool call, and reading and
 * writing files in the workspace. Refusals go back to the agent as JSON-RPC errors it can show
 * its model; they are logged here, since the agent may not tell the user.
 */
export class AgentRequests {
  constructor(private readonly options: AgentRequestsOptions) {}

  async requestPermission(params: acp.RequestPermissionRequest, requestSignal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const { tools, push } = this.options;
    const id = params.toolCall.toolCallId;
    const known = tools.calls.get(id);
    const title = params.toolCall.title ?? known?.title ?? id;
    const kind = params.toolCall.kind ?? known?.kind ?? 'other';
    const rawInput = params.toolCall.rawInput ?? known?.rawInput;
    if (!known) {
      // Asked about a call it never announced: announce it, so the prompt has something to point at.
      tools.calls.set(id, { title, kind, status: 'pending', rawInput });
      push({ type: 'tool_call', id, name: kind, title, arguments: rawInput, status: 'pending' });
    }
    const detail = rawInput === undefined ? undefined : truncate(typeof rawInput === 'string' ? rawInput : JSON.stringify(rawInput, null, 2), 2000);
    const options = params.options.map(({ optionId, name, kind: optionKind }) => ({ optionId, name, kind: optionKind }));
    const decision = await this.options.waitingForUser(() => this.options.broker.decide(`${kind}\u0000${title}`, { toolCallId: id, title, ...(detail ? { detail } : {}), options }, this.signal(requestSignal)));
    if (!decision.allowed) {
      tools.denied.add(id);
      push({ type: 'tool_update', id, status: 'denied', isError: true });
    }
    return { outcome: decision.outcome };
  }

  async readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    try {
      return { content: await this.options.files.read(params.path, params.line, params.limit) };
    } catch (error) {
      throw this.fileError('read', params.path, error);
    }
  }

  async writeTextFile(params: acp.WriteTextFileRequest, signal: AbortSignal): Promise<acp.WriteTextFileResponse> {
    try {
      await this.options.files.write(
        params.path,
        params.content,
        (change, apply) => this.reviewWrite(change, apply, signal),
        (request) => this.confirmProtected(request, signal),
      );
      return {};
    } catch (error) {
      throw this.fileError('write', params.path, error);
    }
  }

  /**
   * One question per write: a diff review when `[chat].review_edits` asks for one (a new file shows
   * as an addition), else the overwrite question for existing files; then journaled when the file is
   * in the kiln.
   */
  private async reviewWrite(change: GateChange, apply: () => Promise<void>, signal: AbortSignal): Promise<void> {
    const edits = this.options.edits;
    const inKiln = edits && this.options.workspaceRoot !== undefined ? kilnRelative(edits, this.options.workspaceRoot, change.path) : undefined;
    const actor = { turn: this.options.turnId?.() ?? `acp-${randomUUID()}`, agent: this.options.agentName, tool: 'fs/write_text_file' };
    const policy = {
      journal: inKiln !== undefined ? edits?.journal : undefined,
      reviewer: edits?.reviewer,
      reviewEdits: edits?.reviewEdits ?? 'never',
      confirmDestructive: this.options.confirmDestructive,
      confirm: () => this.confirmOverwrite(change.path, signal),
      noun: 'file' as const,
    };
    await this.options.waitingForUser(() => applyReviewedChange(policy, { ...change, path: inKiln ?? change.path }, actor, apply, this.signal(signal)));
  }

  private async confirmOverwrite(relativePath: string, requestSignal: AbortSignal): Promise<boolean> {
    if (!this.options.confirmDestructive) return true;
    const decision = await this.options.waitingForUser(() => this.options.broker.decide(
      'fs/write_text_file',
      {
        toolCallId: `write:${relativePath}`,
        title: `${this.options.agentName} wants to overwrite ${relativePath}`,
        options: [
          { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
          { optionId: 'allow_always', name: 'Allow all writes in this session', kind: 'allow_always' },
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        ],
      },
      this.signal(requestSignal),
    ));
    return decision.allowed;
  }

  /**
   * Protected paths (DESIGN.md decision 15) are asked every time: whatever confirm_destructive says,
   * with no "allow always" to remember, and a closed or failed prompt refuses.
   */
  private async confirmProtected(request: ProtectedWriteRequest, requestSignal: AbortSignal): Promise<boolean> {
    const { message, detail } = protectedQuestion({ ...request, actor: this.options.agentName });
    const decision = await this.options.waitingForUser(() => this.options.broker.decide(
      `fs/protected\u0000${request.path}`,
      {
        toolCallId: `protected:${request.path}`,
        title: message,
        detail,
        mustAsk: true,
        options: [
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
          { optionId: 'allow', name: `Allow this ${request.action === 'create' ? 'new file' : 'change'}`, kind: 'allow_once' },
        ],
      },
      this.signal(requestSignal),
    ));
    return decision.allowed;
  }

  private signal(requestSignal: AbortSignal): AbortSignal {
    const turn = this.options.turnSignal();
    return turn ? AbortSignal.any([requestSignal, turn]) : requestSignal;
  }

  private fileError(operation: 'read' | 'write', path: string, error: unknown): RequestError {
    this.options.log.warn(`${operation} ${path} refused: ${describeError(error)}`);
    if (error instanceof AcpError && error.code === 'acp.file_not_found') return RequestError.resourceNotFound(pathToFileURL(path).href);
    if (error instanceof AcpError) return new RequestError(-32602, error.message);
    // A rejected review or a conflict: the agent's model reads why and can adapt.
    if (isHearthError(error) && error.code.startsWith('changes.')) return new RequestError(-32602, error.message);
    return RequestError.internalError(undefined, describeError(error));
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
