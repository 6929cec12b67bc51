/**
 * What `[[` completes to in a note: note titles, file names and aliases ranked by the chat
 * composer's fuzzy match (one ranking for both places), then, after `#`, the headings of the note
 * named before it (and `^` its blocks).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fuzzyScore, MAX_COMPLETIONS, rankNotes, type NoteEntry } from '../noteRanking';
import type { GraphNote, LinkGraph } from './linkGraph';

export interface WikiCompletion {
  /** The note it links to. */
  path: string;
  /** What is shown: the title, file name or alias that matched. */
  label: string;
  /** What goes between `[[` and `]]` (before any `|alias`). */
  insert: string;
  /** Set when `label` is an alias: the completion inserts `name|alias`. */
  alias?: string;
}

export interface FragmentCompletion {
  /** A heading's text, or `^id` for a block. */
  label: string;
  line: number;
  level?: number;
}

type NameEntry = NoteEntry & { alias?: string };

/**
 * The names to complete, per graph and version: typing ranks the same names on every key. A change
 * (one note typed into) rebuilds the list from the entries of the notes that did not change, the
 * same objects as before, so their folded names are not folded again.
 */
const namesCache = new WeakMap<LinkGraph, { version: number; entries: NameEntry[]; byNote: Map<string, { note: GraphNote; entries: NameEntry[] }> }>();

function nameEntries(graph: LinkGraph): NameEntry[] {
  const cached = namesCache.get(graph);
  if (cached?.version === graph.version) return cached.entries;
  const before = cached?.byNote;
  const byNote = new Map<string, { note: GraphNote; entries: NameEntry[] }>();
  const entries: NameEntry[] = [];
  for (const note of graph.allNotes()) {
    let kept = before?.get(note.path);
    if (kept?.note !== note) kept = { note, entries: noteEntries(note) };
    byNote.set(note.path, kept);
    for (const entry of kept.entries) entries.push(entry);
  }
  namesCache.set(graph, { version: graph.version, entries, byNote });
  return entries;
}

/** The longest warmWikiCompletions holds the thread before it yields (the editor's 20 ms budget, with room). */
const SLICE_MS = 8;

/**
 * Lists (and folds) the names to complete ahead of the first `[[`, a slice at a time, so that
 * first ask ranks at once instead of holding the editor's thread while every name of the kiln is
 * listed. Gives up when the graph changes meanwhile (the first ask then lists them itself).
 */
export async function warmWikiCompletions(graph: LinkGraph): Promise<void> {
  const version = graph.version;
  if (namesCache.get(graph)?.version === version) return;
  const byNote = new Map<string, { note: GraphNote; entries: NameEntry[] }>();
  const entries: NameEntry[] = [];
  let since = performance.now();
  for (const note of [...graph.allNotes()]) {
    const kept = { note, entries: noteEntries(note) };
    byNote.set(note.path, kept);
    for (const entry of kept.entries) entries.push(entry);
    // Ranking folds each entry's names once (kept with the entry): the first ask finds them folded.
    rankNotes(kept.entries, '', 1);
    if (performance.now() - since < SLICE_MS) continue;
    await nextTurn();
    if (graph.version !== version) return;
    since = performance.now();
  }
  namesCache.set(graph, { version, entries, byNote });
}

/** A note's names as completion entries: its file name, its title when different, its aliases. */
function noteEntries(note: GraphNote): NameEntry[] {
  const name = note.path.slice(note.path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
  const entries: NameEntry[] = [{ path: note.path, title: name, mtime: 0 }];
  if (note.title !== name) entries.push({ path: note.path, title: note.title, mtime: 0 });
  for (const alias of note.aliases) entries.push({ path: note.path, title: alias, mtime: 0, alias });
  return entries;
}

/** Notes matching what was typed after `[[`, best first; each note once, under its best-matching name. */
export function wikiCompletions(graph: LinkGraph, typed: string, limit = MAX_COMPLETIONS): WikiCompletion[] {
  const seen = new Set<string>();
  const out: WikiCompletion[] = [];
  for (const entry of rankNotes(nameEntries(graph), typed, limit * 3)) {
    if (seen.has(entry.path)) continue;
    seen.add(entry.path);
    const insert = graph.linkName(entry.path);
    out.push({ path: entry.path, label: entry.title, insert, ...(entry.alias ? { alias: entry.alias } : {}) });
    if (out.length >= limit) break;
  }
  return out;
}

/** Headings (or, after `^`, blocks) of `path` matching what was typed after `#`. */
export function fragmentCompletions(graph: LinkGraph, path: string, typed: string, limit = MAX_COMPLETIONS): FragmentCompletion[] {
  const note = graph.note(path);
  if (!note) return [];
  if (typed.startsWith('^')) {
    return note.blocks.filter((b) => fuzzyScore(typed.slice(1), b.id) !== undefined).slice(0, limit).map((b) => ({ label: `^${b.id}`, line: b.line }));
  }
  return note.headings
    .map((h) => ({ h, score: fuzzyScore(typed, h.text) }))
    .filter((x) => x.score !== undefined)
    .sort((a, b) => b.score! - a.score! || a.h.line - b.h.line)
    .slice(0, limit)
    .map(({ h }) => ({ label: h.text, line: h.line, level: h.level }));
}
