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
/** Model requests one question may take when the user referenced tools. */
const MAX_TOOL_ROUNDS = 5;

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
  const out = new NoteStream(stream, kiln);
  await converse(request, messages, out, token);
  await out.end();
  return { metadata: { command: 'ask', prompt: request.prompt, sources: grounding.sources.length } };
}

/**
 * The model's reply, with the tools the user referenced (`#hearth_create_note`, any `#tool`)
 * offered to it: each call goes through `vscode.lm.invokeTool` with the request's invocation token,
 * so VS Code shows the tool's confirmation in the conversation; results go back to the model until
 * it answers without calling one (at most MAX_TOOL_ROUNDS rounds).
 */
async function converse(request: vscode.ChatRequest, messages: vscode.LanguageModelChatMessage[], out: NoteStream, token: vscode.CancellationToken): Promise<void> {
  const tools = request.toolReferences
    .map((ref) => vscode.lm.tools.find((tool) => tool.name === ref.name))
    .filter((tool) => tool !== undefined)
    .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
  for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
    const options = { justification: 'Hearth answers from your notes with the model you picked.', ...(tools.length > 0 ? { tools } : {}) };
    const response = await request.model.sendRequest(messages, options, token);
    const calls: vscode.LanguageModelToolCallPart[] = [];
    let said = '';
    for await (const part of response.stream) {
      if (token.isCancellationRequested) return;
      if (part instanceof vscode.LanguageModelTextPart) {
        said += part.value;
        await out.write(part.value);
      } else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    }
    if (calls.length === 0 || tools.length === 0) return;
    messages.push(vscode.LanguageModelChatMessage.Assistant([...(said ? [new vscode.LanguageModelTextPart(said)] : []), ...calls]));
    const results: vscode.LanguageModelToolResultPart[] = [];
    for (const call of calls) results.push(new vscode.LanguageModelToolResultPart(call.callId, await invoke(call, request, token)));
    messages.push(vscode.LanguageModelChatMessage.User(results));
  }
}

type ToolResultContent = (vscode.LanguageModelTextPart | vscode.LanguageModelPromptTsxPart | unknown)[];

async function invoke(call: vscode.LanguageModelToolCallPart, request: vscode.ChatRequest, token: vscode.CancellationToken): Promise<ToolResultContent> {
  try {
    const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
    return result.content;
  } catch (error) {
    // Declined in the confirmation, or failed: the model is told and answers without it.
    return [new vscode.LanguageModelTextPart(`The tool ${call.name} did not run: ${error instanceof Error ? error.message : String(error)}`)];
  }
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
