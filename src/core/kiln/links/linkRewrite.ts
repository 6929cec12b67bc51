import { folderOf, nameKey, wikiQuery } from './linkTargets';
import type { GraphLink, LinkGraph } from './linkGraph';

/** One replacement in a note's text: `length` characters at 1-based `line`, 0-based `column`. */
export interface LinkEdit {
  line: number;
  column: number;
  length: number;
  text: string;
}

/**
 * What moving `from` to `to` changes in the notes linking to it: each wikilink's target becomes the
 * moved note's shortest unambiguous name (heading, block and alias kept; a link by alias is left
 * alone, it still works), each markdown link its new relative path. Keyed by linking note; a note
 * linking to itself is keyed by `from` (its text moves with it).
 */
export function linkEditsForMove(graph: LinkGraph, from: string, to: string): Map<string, LinkEdit[]> {
  const edits = new Map<string, LinkEdit[]>();
  const name = linkNameAfterMove(graph, from, to);
  for (const link of graph.backlinks(from)) {
    const edit = link.kind === 'wiki' ? wikiEdit(link, from, name) : markdownEdit(link, link.source === from ? to : link.source, to);
    if (!edit) continue;
    const list = edits.get(link.source) ?? [];
    list.push(edit);
    edits.set(link.source, list);
  }
  return edits;
}

/** The moved note's file name when no other note shares it, else its path; without `.md`. */
export function linkNameAfterMove(graph: LinkGraph, from: string, to: string): string {
  const others = [...graph.paths()].filter((path) => path !== from && path !== to && nameKey(path) === nameKey(to));
  return (others.length === 0 ? to.slice(to.lastIndexOf('/') + 1) : to).replace(/\.md$/i, '');
}

function wikiEdit(link: GraphLink, from: string, name: string): LinkEdit | undefined {
  const key = wikiQuery(link.target).key;
  // A link by alias names no file: it keeps working wherever the note goes.
  if (key.slice(key.lastIndexOf('/') + 1) !== nameKey(from)) return undefined;
  const text = /\.md$/i.test(link.target) ? `${name}.md` : name;
  if (text === link.target) return undefined;
  return { line: link.line, column: link.targetColumn, length: link.target.length, text };
}

function markdownEdit(link: GraphLink, sourceAfter: string, to: string): LinkEdit | undefined {
  const hash = link.target.indexOf('#');
  const fragment = hash < 0 ? '' : link.target.slice(hash);
  const text = relativePath(folderOf(sourceAfter), to).replace(/ /g, '%20') + fragment;
  if (text === link.target) return undefined;
  return { line: link.line, column: link.targetColumn, length: link.target.length, text };
}

/** `to` as seen from `folder`, with `../` where needed. */
export function relativePath(folder: string, to: string): string {
  const base = folder ? folder.split('/') : [];
  const target = to.split('/');
  let common = 0;
  while (common < base.length && common < target.length - 1 && base[common] === target[common]) common++;
  return [...base.slice(common).map(() => '..'), ...target.slice(common)].join('/');
}

/**
 * Applies edits to a note's text, keeping its line endings and byte order mark. Edits are by line
 * and column of the text as the note parser saw it (BOM removed), applied from the last backwards.
 */
export function applyLinkEdits(text: string, edits: readonly LinkEdit[]): string {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = bom ? text.slice(1) : text;
  const starts = [0];
  for (const m of body.matchAll(/\r\n|\r|\n/g)) starts.push(m.index + m[0].length);
  let out = body;
  const sorted = [...edits].sort((a, b) => b.line - a.line || b.column - a.column);
  for (const edit of sorted) {
    const at = starts[edit.line - 1];
    if (at === undefined) continue;
    out = out.slice(0, at + edit.column) + edit.text + out.slice(at + edit.column + edit.length);
  }
  return bom + out;
}
