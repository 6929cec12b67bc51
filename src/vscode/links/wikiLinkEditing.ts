/**
 * Writing wikilinks: `[[` completes note titles, file names and aliases (then `#` headings, `#^`
 * blocks); F2 on a link's target renames the note, and renaming or moving a note in the explorer
 * rewrites every `[[link]]` to it, each as one WorkspaceEdit (undone as one).
 */
import * as vscode from 'vscode';
import { relative, sep } from 'node:path';
import { fragmentCompletions, wikiCompletions } from '../../core/kiln/links/linkCompletions';
import type { LinkGraph } from '../../core/kiln/links/linkGraph';
import { linkEditsForMove } from '../../core/kiln/links/linkRewrite';
import { folderOf } from '../../core/kiln/links/linkTargets';
import type { EditorLinks } from './editorLinks';
import { MARKDOWN, wikiLinkAt } from './wikiLinkNavigation';

const OPEN_NOTE = /\[\[([^\]|#\n]*)$/;
const OPEN_FRAGMENT = /\[\[([^\]|#\n]+)#([^\]|\n]*)$/;

export function registerWikiLinkEditing(links: EditorLinks): vscode.Disposable[] {
  // A rename from F2 carries its link edits itself; the file participant below must not add them twice.
  const renamingHere = new Set<string>();
  return [
    vscode.languages.registerCompletionItemProvider(
      MARKDOWN,
      {
        async provideCompletionItems(document, position) {
          const path = links.pathOf(document.uri);
          if (!path) return undefined;
          const before = document.lineAt(position.line).text.slice(0, position.character);
          const after = document.lineAt(position.line).text.slice(position.character);
          const closing = after.startsWith(']]') ? '' : ']]';
          const fragment = OPEN_FRAGMENT.exec(before);
          const graph = await links.graph();
          if (!graph) return undefined;
          if (fragment) {
            const target = graph.resolveTarget(fragment[1], path).path;
            if (!target) return undefined;
            const range = new vscode.Range(position.translate(0, -fragment[2].length), position);
            return fragmentCompletions(graph, target, fragment[2]).map((f, i) => {
              const item = new vscode.CompletionItem(f.label, f.level ? vscode.CompletionItemKind.Reference : vscode.CompletionItemKind.Constant);
              item.range = range;
              item.insertText = f.label + closing;
              item.detail = `${target}:${f.line}`;
              item.sortText = String(i).padStart(4, '0');
              item.filterText = f.label;
              return item;
            });
          }
          const open = OPEN_NOTE.exec(before);
          if (!open) return undefined;
          const range = new vscode.Range(position.translate(0, -open[1].length), position);
          const items = wikiCompletions(graph, open[1], 50).map((c, i) => {
            const item = new vscode.CompletionItem(c.label, vscode.CompletionItemKind.File);
            item.range = range;
            item.insertText = (c.alias ? `${c.insert}|${c.alias}` : c.insert) + closing;
            item.detail = c.alias ? `alias of ${c.path}` : c.path;
            // The ranking is already fuzzy: keep its order, and let every item match what was typed.
            item.sortText = String(i).padStart(4, '0');
            item.filterText = open[1];
            return item;
          });
          return new vscode.CompletionList(items, true);
        },
      },
      '[',
      '#',
      '^',
    ),
    vscode.languages.registerRenameProvider(MARKDOWN, {
      async prepareRename(document, position) {
        const at = await wikiLinkAt(links, document, position);
        if (!at) throw new Error('Rename a note from a [[wikilink]] to it.');
        if (!at.link.path) throw new Error(`"${at.link.target}" is no note yet: nothing to rename.`);
        const range = new vscode.Range(at.link.line - 1, at.link.targetColumn, at.link.line - 1, at.link.targetColumn + at.link.target.length);
        return { range, placeholder: at.link.path.replace(/\.md$/i, '') };
      },
      async provideRenameEdits(document, position, newName) {
        const at = await wikiLinkAt(links, document, position);
        if (!at?.link.path) return undefined;
        const from = at.link.path;
        const wanted = newName.trim().replace(/\\/g, '/').replace(/^\/+/, '');
        const to = `${wanted.includes('/') ? wanted : [folderOf(from), wanted].filter(Boolean).join('/')}`.replace(/(\.md)?$/i, '.md');
        if (to === from) return undefined;
        if (at.graph.has(to)) throw new Error(`A note already exists at ${to}.`);
        const edit = moveEdit(links, at.graph, from, to);
        edit.renameFile(links.uriOf(from), links.uriOf(to), { overwrite: false });
        renamingHere.add(from);
        setTimeout(() => renamingHere.delete(from), 10_000);
        return edit;
      },
    }),
    vscode.workspace.onWillRenameFiles((event) => {
      const graph = links.kilnLinks?.graph;
      if (!graph) return;
      const edit = new vscode.WorkspaceEdit();
      let any = false;
      for (const file of event.files) {
        const from = links.pathOf(file.oldUri);
        const to = links.pathOf(file.newUri);
        if (from && renamingHere.delete(from)) continue;
        const moves = from && to ? [[from, to]] : movesUnder(links, graph, file.oldUri, file.newUri);
        for (const [a, b] of moves) any = addMoveEdits(links, graph, a, b, edit) || any;
      }
      if (any) event.waitUntil(Promise.resolve(edit));
    }),
  ];
}

/** The text edits moving `from` to `to` makes in the notes linking to it, as one WorkspaceEdit. */
export function moveEdit(links: EditorLinks, graph: LinkGraph, from: string, to: string): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  addMoveEdits(links, graph, from, to, edit);
  return edit;
}

function addMoveEdits(links: EditorLinks, graph: LinkGraph, from: string, to: string, edit: vscode.WorkspaceEdit): boolean {
  let any = false;
  for (const [source, list] of linkEditsForMove(graph, from, to)) {
    for (const change of list) {
      edit.replace(links.uriOf(source), new vscode.Range(change.line - 1, change.column, change.line - 1, change.column + change.length), change.text, {
        label: `Update links to ${to}`,
        needsConfirmation: false,
      });
      any = true;
    }
  }
  return any;
}

/** A renamed folder: each note under it, old path and new. */
function movesUnder(links: EditorLinks, graph: LinkGraph, oldUri: vscode.Uri, newUri: vscode.Uri): [string, string][] {
  const root = links.kilnRoot;
  if (!root) return [];
  const rel = (uri: vscode.Uri) => {
    const path = relative(root, uri.fsPath).split(sep).join('/');
    return path && !path.startsWith('..') ? path : undefined;
  };
  const oldFolder = rel(oldUri);
  const newFolder = rel(newUri);
  if (!oldFolder || !newFolder) return [];
  const prefix = `${oldFolder}/`;
  return [...graph.paths()].filter((p) => p.startsWith(prefix)).map((p) => [p, `${newFolder}/${p.slice(prefix.length)}`]);
}
