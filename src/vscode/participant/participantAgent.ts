/**
 * `@hearth /agent NAME TASK` in the Chat view: the turn itself is participantAgentTurn.ts (core);
 * here it streams into the Chat view (progress lines, the agent's text with citations as anchors)
 * and asks permission requests in a modal dialog, where closing it rejects.
 */
import * as vscode from 'vscode';
import type { PermissionOutcome, PermissionRequest } from '../../core/agents/agentSession';
import { runParticipantAgent } from '../../core/chat/participant/participantAgentTurn';
import { HEARTH_VENDOR } from '../models/editorLmProvider';
import type { ParticipantDeps } from './participantDeps';
import { NoteStream } from './noteStream';

export async function runAgent(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, signal: AbortSignal, deps: ParticipantDeps): Promise<vscode.ChatResult> {
  const kiln = deps.kilnRoot();
  const out = new NoteStream(stream, kiln);
  const outcome = await runParticipantAgent(
    request.prompt,
    { progress: (text) => stream.progress(text), markdown: (text) => stream.markdown(text), write: (text) => out.write(text), end: () => out.end() },
    signal,
    {
      catalog: deps.catalog,
      kilnRoot: kiln,
      workspaceRoot: deps.workspaceRoot(),
      // A Hearth model picked in the Chat view is one of Hearth's providers: the agent uses it.
      ...(request.model?.vendor === HEARTH_VENDOR ? { model: request.model.id } : {}),
      host: { requestPermission: (permission, asked) => askPermission(permission, asked) },
      redact: (text) => deps.redactor.redact(text),
      log: deps.log,
    },
  );
  return outcome.error ? { errorDetails: { message: outcome.error }, metadata: outcome.metadata } : { metadata: outcome.metadata };
}

/** A permission request as a modal dialog naming the options; closing it (or cancelling the turn) rejects. */
async function askPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionOutcome> {
  if (signal.aborted) return { outcome: 'cancelled' };
  const names = request.options.map((o) => o.name);
  const picked = await vscode.window.showWarningMessage(request.title, { modal: true, ...(request.detail ? { detail: request.detail } : {}) }, ...names);
  const option = request.options.find((o) => o.name === picked);
  return option && !signal.aborted ? { outcome: 'selected', optionId: option.optionId } : { outcome: 'cancelled' };
}
