/**
 * "Hearth: Show Effective Config": a read-only virtual TOML document with the merged configuration
 * and each value's source, re-rendered whenever the configuration reloads.
 */
import * as vscode from 'vscode';
import { formatEffectiveConfig } from '../../core/config/describeConfig';
import { describeError } from '../../core/errors';
import type { ConfigService } from './configService';

export const EFFECTIVE_CONFIG_SCHEME = 'hearth-effective';
const EFFECTIVE_CONFIG_URI = vscode.Uri.from({ scheme: EFFECTIVE_CONFIG_SCHEME, path: '/effective-config.toml' });

export class EffectiveConfigDocument implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly configService: ConfigService) {
    // Virtual documents from a content provider are read-only by construction.
    this.disposables = [
      vscode.workspace.registerTextDocumentContentProvider(EFFECTIVE_CONFIG_SCHEME, this),
      configService.onDidChange(() => this._onDidChange.fire(EFFECTIVE_CONFIG_URI)),
    ];
  }

  provideTextDocumentContent(): string {
    try {
      return formatEffectiveConfig(this.configService.current);
    } catch (error) {
      return `# Hearth could not format the effective configuration: ${describeError(error)}\n`;
    }
  }

  async show(): Promise<void> {
    const document = await vscode.workspace.openTextDocument(EFFECTIVE_CONFIG_URI);
    await vscode.window.showTextDocument(document, { preview: false });
    // TOML highlighting needs a TOML extension; without one the language id is unknown and refused.
    if (document.languageId !== 'toml') await vscode.languages.setTextDocumentLanguage(document, 'toml').then(undefined, () => undefined);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this._onDidChange.dispose();
  }
}
