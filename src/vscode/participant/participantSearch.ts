/**
 * `@hearth /search QUERY` and `@hearth /related`: note-level hybrid search results, each an anchor
 * that opens the note at its best section. `/related` searches with the active editor's selection,
 * else its note, and leaves that note out.
 */
import * as vscode from 'vscode';
import { relative, sep } from 'node:path';
import { PARTICIPANT_RESULTS, relatedQuery, resultLines } from '../../core/chat/participant/participantCommands';
import type { SearchResult } from '../../core/index/search/searchResult';
import { indexUnavailable, type ParticipantDeps } from './participantDeps';
import { noteLocation } from './noteStream';

export async function searchNotes(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, signal: AbortSignal, deps: ParticipantDeps): Promise<vscode.ChatResult> {
  const query = request.prompt.trim();
  if (!query) {
    stream.markdown('Type what to look for after the command, for example `@hearth /search compost`.');
    return { metadata: { command: 'search' } };
  }
  const found = await search(query, stream, signal, deps, PARTICIPANT_RESULTS);
  if (!found) return { metadata: { command: 'search', prompt: query } };
  show(stream, found.kiln, found.results, `No notes match “${query}”.`);
  return { metadata: { command: 'search', prompt: query, results: found.results.length } };
}

export async function relatedNotes(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, signal: AbortSignal, deps: ParticipantDeps): Promise<vscode.ChatResult> {
  const editor = vscode.window.activeTextEditor;
  const kiln = deps.kilnRoot();
  const path = editor && kiln && editor.document.uri.scheme === 'file' ? relative(kiln, editor.document.uri.fsPath) : undefined;
  const inKiln = path !== undefined && path !== '' && !path.startsWith('..') && !path.startsWith(sep);
  const selection = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : undefined;
  const query = editor ? relatedQuery(selection ?? editor.document.getText(), request.prompt) : undefined;
  if (!query) {
    stream.markdown('Open a note (or select some text in it), then ask `@hearth /related` again.');
    return { metadata: { command: 'related' } };
  }
  const self = inKiln ? path.split(sep).join('/') : undefined;
  // The kiln's related notes (the note's title and body) where the tools are built, else a search of the text.
  const from = self && !selection ? { path: self } : { text: query };
  const found = deps.relatedNotes ? await related(from, stream, signal, deps) : await search(query, stream, signal, deps, PARTICIPANT_RESULTS + 1);
  if (!found) return { metadata: { command: 'related' } };
  const results = found.results.filter((r) => r.path !== self).slice(0, PARTICIPANT_RESULTS);
  stream.markdown(`Notes related to ${selection ? 'the selection in ' : ''}\`${self ?? editor!.document.fileName}\`:\n\n`);
  show(stream, found.kiln, results, 'No other note is related to it.');
  return { metadata: { command: 'related', results: results.length } };
}

/** Hybrid search of the open index; undefined (after saying why) when there is none to search. */
type Found = { kiln: string; results: SearchResult[] };

async function search(query: string, stream: vscode.ChatResponseStream, signal: AbortSignal, deps: ParticipantDeps, limit: number): Promise<Found | undefined> {
  await deps.whenIndexOpened();
  const index = deps.index();
  const why = await indexUnavailable(deps);
  if (!index || why) {
    stream.markdown(`Hearth cannot search: ${why ?? 'there is no index'}.`);
    return undefined;
  }
  stream.progress('Searching your notes…');
  const results = await index.search(query, { mode: 'hybrid', limit, signal });
  return { kiln: index.kilnRoot, results };
}

/** The kiln's related notes (the related_notes tool), after the same index checks as a search. */
async function related(from: { path?: string; text?: string }, stream: vscode.ChatResponseStream, signal: AbortSignal, deps: ParticipantDeps): Promise<Found | undefined> {
  await deps.whenIndexOpened();
  const index = deps.index();
  const why = await indexUnavailable(deps);
  if (!index || why || !deps.relatedNotes) {
    stream.markdown(`Hearth cannot search: ${why ?? 'there is no index'}.`);
    return undefined;
  }
  stream.progress('Looking for related notes…');
  return { kiln: index.kilnRoot, results: await deps.relatedNotes(from, PARTICIPANT_RESULTS, signal) };
}

function show(stream: vscode.ChatResponseStream, kiln: string, results: readonly SearchResult[], none: string): void {
  if (results.length === 0) {
    stream.markdown(none);
    return;
  }
  resultLines(results).forEach((line, i) => {
    stream.markdown(`${i + 1}. `);
    stream.anchor(noteLocation(kiln, line.path, line.line), line.path);
    stream.markdown(` — ${line.detail}\n`);
    stream.reference(noteLocation(kiln, line.path, line.line, line.endLine));
  });
}
