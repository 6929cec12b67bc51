/**
 * The quick fix of a config diagnostic that says "Did you mean …" with one answer (a misspelt key,
 * an `[llm].default` naming a provider that is spelt otherwise): it writes the suggestion in place.
 */
import * as vscode from 'vscode';
import type { ConfigDiagnostics } from './configDiagnostics';

export class DidYouMeanActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: ConfigDiagnostics) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    return this.diagnostics.fixesFor(document.uri.fsPath, context.diagnostics).map(({ diagnostic, range, text }) => {
      const action = new vscode.CodeAction(`Change to "${text}"`, vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      action.edit.replace(document.uri, range, text);
      action.diagnostics = [diagnostic];
      action.isPreferred = true;
      return action;
    });
  }
}

/** On every Hearth config file (`.hearth/config.toml` and the global `config.toml`). */
export function registerDidYouMeanActions(diagnostics: ConfigDiagnostics): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider({ scheme: 'file', pattern: '**/config.toml' }, new DidYouMeanActions(diagnostics), { providedCodeActionKinds: DidYouMeanActions.kinds });
}
