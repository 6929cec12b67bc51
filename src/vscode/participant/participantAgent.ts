/**
 * `@hearth /agent NAME TASK`: one of Hearth's agents (internal, or external over ACP) runs the task.
 * Its tool calls and plan show as progress, its text with citations as anchors; its edits go
 * through the write gate, review and journal as everywhere (the catalog's agents are built with
 * them); its permission requests are asked in a modal dialog, and closing it rejects. The
 * catalog keeps the trust rules: an external agent in Restricted Mode is listed as unavailable.
 */
import * as vscode from 'vscode';
import type { AgentDescriptor, AgentEvent, PermissionOutcome, PermissionRequest } from '../../core/agents/agentSession';
import { parseAgentCommand } from '../../core/chat/participant/participantCommands';
import { describeError } from '../../core/errors';
import { HEARTH_VENDOR } from '../models/editorLmProvider';
import type { ParticipantDeps } from './participantDeps';
import { NoteStream } from './noteStream';

export async function runAgent(
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  signal: AbortSignal,
  deps: ParticipantDeps,
): Promise<vscode.ChatResult> {
  const catalog = deps.catalog;
  if (!catalog) return { errorDetails: { message: 'Hearth\'s agents did not start; see "Hearth: Show Log".' } };
  const agents = await catalog.list();
  const parsed = parseAgentCommand(request.prompt);
  if (!parsed) {
    stream.markdown(`Name an agent and its task: \`@hearth /agent ${agents[0]?.name ?? 'kiln'} tidy the tags of my garden notes\`.\n\n${agentList(agents)}`);
    return { metadata: { command: 'agent' } };
  }
  const agent = agents.find((a) => a.name === parsed.name);
  if (!agent) return { errorDetails: { message: `No agent named "${parsed.name}". ${agentList(agents)}` } };
  if (!agent.available) return { errorDetails: { message: `The agent "${agent.name}" is not available: ${agent.unavailableReason ?? 'unknown reason'}.` } };
  const kiln = deps.kilnRoot();
  const cwd = deps.workspaceRoot() ?? kiln;
  if (!cwd) return { errorDetails: { message: 'Open a folder first: an agent works in the workspace.' } };
  stream.progress(`Starting ${agent.name}…`);
  const session = await catalog.start(agent.name, {
    host: { requestPermission: (permission, asked) => askPermission(permission, asked) },
    cwd,
    ...(kiln ? { kilnRoot: kiln } : {}),
    // A Hearth model picked in the Chat view is one of Hearth's providers: the internal agent uses it.
    ...(request.model.vendor === HEARTH_VENDOR ? { model: request.model.id } : {}),
  });
  const out = new NoteStream(stream, kiln);
  let failed: string | undefined;
  try {
    for await (const event of session.prompt(parsed.task, [], signal)) {
      if (token.isCancellationRequested) break;
      failed = (await show(event, stream, out)) ?? failed;
    }
    await out.end();
  } finally {
    await session.dispose().catch((error: unknown) => deps.log.warn(`ending the agent session failed: ${describeError(error)}`));
  }
  return failed ? { errorDetails: { message: deps.redactor.redact(failed) }, metadata: { command: 'agent' } } : { metadata: { command: 'agent', agent: agent.name } };
}

/** Shows one agent event; returns the error text of an `error` event. */
async function show(event: AgentEvent, stream: vscode.ChatResponseStream, out: NoteStream): Promise<string | undefined> {
  switch (event.type) {
    case 'text':
      await out.write(event.text);
      return undefined;
    case 'tool_call':
      stream.progress(`${event.title ?? event.name}…`);
      return undefined;
    case 'tool_update':
      if (event.status === 'failed' || event.status === 'denied') stream.progress(`a tool call was ${event.status === 'denied' ? 'refused' : 'unsuccessful'}`);
      return undefined;
    case 'plan':
      stream.progress(`Plan: ${event.entries.map((e) => `${e.status === 'completed' ? '✓' : e.status === 'in_progress' ? '…' : '·'} ${e.content}`).join('; ')}`);
      return undefined;
    case 'error':
      return `${event.message}${event.remedy ? ` ${event.remedy}` : ''}`;
    default:
      return undefined;
  }
}

function agentList(agents: readonly AgentDescriptor[]): string {
  const rows = agents.map((a) => `- \`${a.name}\` (${a.kind})${a.description ? ` — ${a.description}` : ''}${a.available ? '' : ` — unavailable: ${a.unavailableReason ?? 'unknown reason'}`}`);
  return `Agents:\n${rows.join('\n')}`;
}

/** A permission request as a modal dialog naming the options; closing it (or cancelling the turn) rejects. */
async function askPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionOutcome> {
  if (signal.aborted) return { outcome: 'cancelled' };
  const names = request.options.map((o) => o.name);
  const picked = await vscode.window.showWarningMessage(request.title, { modal: true, ...(request.detail ? { detail: request.detail } : {}) }, ...names);
  const option = request.options.find((o) => o.name === picked);
  return option && !signal.aborted ? { outcome: 'selected', optionId: option.optionId } : { outcome: 'cancelled' };
}
