import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';

export const CHANGE_SCHEME = 'hearth-change';

/**
 * Read-only documents holding one version of a note (before / proposed / journaled) for the diff
 * editor: `hearth-change:/<id>/<path>` (the path keeps the file's name, so the diff gets its language).
 */
export class ChangeSnapshots implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(CHANGE_SCHEME, this);

  put(path: string, bytes: Uint8Array | null): vscode.Uri {
    const id = randomUUID();
    this.texts.set(id, bytes === null ? '' : Buffer.from(bytes).toString('utf8'));
    return vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `/${id}/${path}` });
  }

  drop(...uris: vscode.Uri[]): void {
    for (const uri of uris) this.texts.delete(uri.path.split('/')[1]);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path.split('/')[1]) ?? '(no longer available)';
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
