/**
 * `@hearth` in VS Code's Chat view (DESIGN.md decision 22): a question is answered grounded in the
 * kiln; `/search`, `/related` and `/agent` as their files say. Follow-ups offer the next step.
 * Errors read as Hearth's do (what failed, the remedy), with no key in them; a cancelled request
 * ends quietly.
 */
import * as vscode from 'vscode';
import { participantFailure } from '../../core/chat/participant/participantFailure';
import { describeError } from '../../core/errors';
import type { ParticipantDeps } from './participantDeps';
import { answerQuestion } from './participantAnswer';
import { runAgent } from './participantAgent';
import { relatedNotes, searchNotes } from './participantSearch';

/** The id in package.json's `chatParticipants`; users write `@hearth`. */
export const PARTICIPANT_ID = 'hearth.participant';

export function registerHearthParticipant(deps: ParticipantDeps, extensionUri: vscode.Uri): vscode.Disposable {
  const log = deps.log.child('participant');
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) => handle(request, context, stream, token, { ...deps, log }));
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  participant.followupProvider = { provideFollowups: (result) => followups(result) };
  return participant;
}

async function handle(
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  deps: ParticipantDeps,
): Promise<vscode.ChatResult> {
  const abort = new AbortController();
  const cancel = token.onCancellationRequested(() => abort.abort());
  try {
    switch (request.command) {
      case 'search':
        return await searchNotes(request, stream, abort.signal, deps);
      case 'related':
        return await relatedNotes(request, stream, abort.signal, deps);
      case 'agent':
        return await runAgent(request, stream, abort.signal, deps);
      default:
        return await answerQuestion(request, context, stream, token, abort.signal, deps);
    }
  } catch (error) {
    const fromModel = error instanceof vscode.LanguageModelError;
    const failure = participantFailure(error, { cancelled: token.isCancellationRequested, fromModel, redact: (text) => deps.redactor.redact(text) });
    if (failure.cancelled) return { metadata: { cancelled: true } };
    deps.log.warn(`@hearth ${request.command ? `/${request.command} ` : ''}failed: ${deps.redactor.redact(describeError(error))}`);
    return { errorDetails: { message: failure.message } };
  } finally {
    cancel.dispose();
  }
}

function followups(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const metadata = (result.metadata ?? {}) as { command?: string; prompt?: string };
  if (result.errorDetails || !metadata.command) return [];
  const prompt = metadata.prompt?.slice(0, 200);
  if (metadata.command === 'ask' && prompt) {
    return [
      { prompt, command: 'search', label: 'Search the notes for this' },
      { prompt: '', command: 'related', label: 'Notes related to the open note' },
    ];
  }
  if (metadata.command === 'search' && prompt) return [{ prompt: `What do my notes say about ${prompt}?`, label: `Ask about “${prompt}”` }];
  return [];
}
