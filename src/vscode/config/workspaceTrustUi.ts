/**
 * Restricted Mode (DESIGN.md decision 14): each workspace key withheld until the folder is trusted
 * carries a diagnostic (code `config.untrusted_key`); this offers the way out on it, VS Code's own
 * "Manage Workspace Trust", and says once per window what waits. Granting trust reloads the
 * configuration (ConfigService), so nothing else is needed here.
 */
import * as vscode from 'vscode';
import type { LoadedConfig } from '../../core/config/load';
import { DIAGNOSTIC_SOURCE } from './configDiagnostics';

export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';

export class TrustCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(_document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const waiting = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && d.code === 'config.untrusted_key');
    if (waiting.length === 0) return [];
    const action = new vscode.CodeAction('Manage Workspace Trust…', vscode.CodeActionKind.QuickFix);
    action.command = { command: MANAGE_TRUST_COMMAND, title: 'Manage Workspace Trust' };
    action.diagnostics = waiting;
    action.isPreferred = true;
    return [action];
  }
}

/** On every `.hearth/config.toml`, whatever language mode the editor gives it. */
export function registerTrustCodeActions(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider({ scheme: 'file', pattern: '**/.hearth/config.toml' }, new TrustCodeActions(), { providedCodeActionKinds: TrustCodeActions.kinds });
}

/** One notification per window the first time keys are withheld; the diagnostics carry the detail. */
export function withheldNotifier(): (loaded: LoadedConfig) => void {
  let shown = false;
  return (loaded) => {
    if (shown || loaded.trusted || loaded.withheld.length === 0) return;
    shown = true;
    const keys = [...new Set(loaded.withheld.map((key) => key.keyPath))];
    const listed = keys.length > 3 ? `${keys.slice(0, 3).join(', ')} and ${keys.length - 3} more` : keys.join(', ');
    void vscode.window
      .showWarningMessage(`Hearth: Restricted Mode ignores ${listed} in this workspace's .hearth/config.toml until you trust it; until then those keys come from your global configuration or the defaults (the rest of the file applies).`, 'Manage Workspace Trust')
      .then((choice) => (choice ? vscode.commands.executeCommand(MANAGE_TRUST_COMMAND) : undefined));
  };
}
