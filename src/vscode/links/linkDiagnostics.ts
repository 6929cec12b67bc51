/**
 * An unresolved wikilink is a diagnostic with a quick fix "Create note"; an ambiguous one says which
 * notes it could mean and which it goes to. Open notes only, refreshed as the graph changes.
 */
import * as vscode from 'vscode';
import type { GraphLink } from '../../core/kiln/links/linkGraph';
import type { EditorLinks } from './editorLinks';
import { linkRange, MARKDOWN } from './wikiLinkNavigation';

export const CREATE_NOTE_COMMAND = 'hearth.links.createNote';
const UNRESOLVED = 'hearth.unresolvedLink';
const AMBIGUOUS = 'hearth.ambiguousLink';

export function registerLinkDiagnostics(links: EditorLinks): vscode.Disposable[] {
  const collection = vscode.languages.createDiagnosticCollection('hearth-links');
  const refresh = async (document: vscode.TextDocument) => {
    const path = links.pathOf(document.uri);
    const graph = path ? await links.graph(document) : undefined;
    if (!path || !graph) return;
    collection.set(document.uri, graph.outgoing(path).filter((l) => l.kind === 'wiki').flatMap(diagnosticOf));
  };
  const refreshAll = () => vscode.workspace.textDocuments.forEach((d) => void refresh(d));
  return [
    collection,
    links.onDidChange(refreshAll),
    vscode.workspace.onDidOpenTextDocument((d) => void refresh(d)),
    vscode.workspace.onDidCloseTextDocument((d) => collection.delete(d.uri)),
    vscode.languages.registerCodeActionsProvider(
      MARKDOWN,
      {
        provideCodeActions(document, _range, context) {
          return context.diagnostics
            .filter((d) => d.code === UNRESOLVED && d.source === 'Hearth')
            .map((d) => {
              const target = document.getText(d.range).replace(/^!?\[\[/, '').replace(/\]\]$/, '').split(/[|#]/)[0].trim();
              const action = new vscode.CodeAction(`Create note "${target}"`, vscode.CodeActionKind.QuickFix);
              action.diagnostics = [d];
              action.isPreferred = true;
              action.command = { command: CREATE_NOTE_COMMAND, title: action.title, arguments: [target, document.uri] };
              return action;
            });
        },
      },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
    vscode.commands.registerCommand(CREATE_NOTE_COMMAND, async (target: string, from?: vscode.Uri) => {
      const root = links.kilnRoot;
      if (!root || typeof target !== 'string' || !target.trim()) return;
      const clean = target.trim().replace(/\\/g, '/').replace(/^\/+/, '');
      if (clean.split('/').some((s) => s === '..' || s === '.' || s.startsWith('.'))) {
        void vscode.window.showErrorMessage(`Hearth: "${target}" is not a note name inside the kiln.`);
        return;
      }
      const uri = links.uriOf(/\.md$/i.test(clean) ? clean : `${clean}.md`);
      const edit = new vscode.WorkspaceEdit();
      const title = clean.slice(clean.lastIndexOf('/') + 1).replace(/\.md$/i, '');
      edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(`# ${title}\n\n`) });
      if (!(await vscode.workspace.applyEdit(edit))) return;
      await vscode.window.showTextDocument(uri);
      if (from) void refresh(await vscode.workspace.openTextDocument(from));
    }),
  ];
}

function diagnosticOf(link: GraphLink): vscode.Diagnostic[] {
  if (link.ignored) return [];
  if (!link.path) {
    const message = link.outside ? `"${link.target}" points outside the kiln.` : `No note named "${link.target}".`;
    const diagnostic = new vscode.Diagnostic(linkRange(link), message, vscode.DiagnosticSeverity.Warning);
    diagnostic.code = UNRESOLVED;
    diagnostic.source = 'Hearth';
    return link.outside ? [Object.assign(diagnostic, { code: undefined })] : [diagnostic];
  }
  if (!link.ambiguous) return [];
  const diagnostic = new vscode.Diagnostic(
    linkRange(link),
    `"${link.target}" matches ${link.ambiguous.length} notes (${link.ambiguous.join(', ')}); it goes to ${link.path}. Write the path to choose another.`,
    vscode.DiagnosticSeverity.Information,
  );
  diagnostic.code = AMBIGUOUS;
  diagnostic.source = 'Hearth';
  return [diagnostic];
}
