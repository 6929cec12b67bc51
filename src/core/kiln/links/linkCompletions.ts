/**
 * What `[[` completes to in a note: note titles, file names and aliases ranked by the chat
 * composer's fuzzy match (one ranking for both places), then, after `#`, the headings of the note
 * named before it (and `^` its blocks).
 */
import { fuzzyScore, MAX_COMPLETIONS, rankNotes, type NoteEntry } from '../../chat/context/noteCompletions';
import type { LinkGraph } from './linkGraph';

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

/** The names to complete, per graph and version: typing ranks the same names on every key. */
const namesCache = new WeakMap<LinkGraph, { version: number; entries: NameEntry[] }>();

function nameEntries(graph: LinkGraph): NameEntry[] {
  const cached = namesCache.get(graph);
  if (cached?.version === graph.version) return cached.entries;
  const entries: NameEntry[] = [];
  for (const note of graph.allNotes()) {
    const name = note.path.slice(note.path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
    entries.push({ path: note.path, title: name, mtime: 0 });
    if (note.title !== name) entries.push({ path: note.path, title: note.title, mtime: 0 });
    for (const alias of note.aliases) entries.push({ path: note.path, title: alias, mtime: 0, alias });
  }
  namesCache.set(graph, { version: graph.version, entries });
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
