/**
 * The composition root: every service is constructed here by hand and every disposable is pushed to
 * context.subscriptions. No singletons, no service locator.
 */
import * as vscode from 'vscode';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Hearth', { log: true });
  context.subscriptions.push(log);
  log.info('Hearth activated');
}

export function deactivate(): void {}
