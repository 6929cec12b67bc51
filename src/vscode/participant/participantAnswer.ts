/**
 * `@hearth QUESTION`: grounded as Hearth's own chat is (participantGrounding.ts), answered by the
 * model the user picked in the Chat view (`request.model`), sources as references, citations as
 * anchors. Earlier `@hearth` turns of the conversation go along as history.
 */
import * as vscode from 'vscode';
import { relative, sep } from 'node:path';
import { groundedMessages, groundRequest, type ReferencedNote } from '../../core/chat/participant/participantGrounding';
import { chatMessagesToLm } from '../../core/llm/lmParts';
import { fromPlainMessages } from '../models/lmPartsAdapter';
import { indexUnavailable, type ParticipantDeps } from './participantDeps';
import { NoteStream, streamSources } from './noteStream';

/** Earlier turns sent along at most. */
const HISTORY_TURNS = 10;

export async function answerQuestion(
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  signal: AbortSignal,
  deps: ParticipantDeps,
): Promise<vscode.ChatResult> {
  await deps.whenIndexOpened();
  const kiln = deps.kilnRoot();
  stream.progress('Looking in your notes…');
  const grounding = await groundRequest(request.prompt, kiln ? kilnReferences(request.references, kiln) : [], {
    kilnRoot: kiln,
    index: deps.index(),
    indexUnavailable: await indexUnavailable(deps),
    autoContext: deps.autoContext(),
    signal,
  });
  if (kiln) streamSources(stream, kiln, grounding.sources);
  for (const notice of grounding.notices) stream.markdown(`_${escape(notice)}._\n\n`);
  const messages = fromPlainMessages(chatMessagesToLm(groundedMessages(request.prompt, grounding, history(context))));
  const response = await request.model.sendRequest(messages, { justification: 'Hearth answers from your notes with the model you picked.' }, token);
  const out = new NoteStream(stream, kiln);
  for await (const chunk of response.text) {
    if (token.isCancellationRequested) break;
    await out.write(chunk);
  }
  await out.end();
  return { metadata: { command: 'ask', prompt: request.prompt, sources: grounding.sources.length } };
}

/** `#file` references the editor resolved, as kiln-relative notes (anything outside the kiln is left out). */
function kilnReferences(references: readonly vscode.ChatPromptReference[], kiln: string): ReferencedNote[] {
  const out: ReferencedNote[] = [];
  for (const ref of references) {
    const value = ref.value;
    const uri = value instanceof vscode.Uri ? value : value instanceof vscode.Location ? value.uri : undefined;
    if (!uri || uri.scheme !== 'file') continue;
    const path = relative(kiln, uri.fsPath);
    if (!path || path.startsWith('..') || path.startsWith(sep) || !/\.md$/i.test(path)) continue;
    const range = value instanceof vscode.Location ? value.range : undefined;
    out.push({ path: path.split(sep).join('/'), ...(range ? { startLine: range.start.line + 1, endLine: range.end.line + 1 } : {}) });
  }
  return out;
}

/** Earlier `@hearth` turns as user/assistant text (the markdown of each answer). */
function history(context: vscode.ChatContext): { role: 'user' | 'assistant'; text: string }[] {
  const turns: { role: 'user' | 'assistant'; text: string }[] = [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) turns.push({ role: 'user', text: turn.prompt });
    else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : part instanceof vscode.ChatResponseAnchorPart ? anchorText(part) : '')).join('');
      if (text) turns.push({ role: 'assistant', text });
    }
  }
  return turns.slice(-HISTORY_TURNS * 2);
}

function anchorText(part: vscode.ChatResponseAnchorPart): string {
  return part.title ?? (part.value instanceof vscode.Uri ? part.value.path : part.value instanceof vscode.Location ? part.value.uri.path : '');
}

/** A notice in italics: its own `_` and `*` must not end the emphasis. */
function escape(text: string): string {
  return text.replace(/[\\_*`[\]]/g, '\\$&');
}
