/**
 * The "Hearth" status bar item (id hearth.status): the active provider and model, or a warning
 * state when the config has errors that opens the Problems view. The rules are in statusModel.ts.
 */
import * as vscode from 'vscode';
import { statusPresentation, type StatusInput } from './statusModel';

export const STATUS_ITEM_ID = 'hearth.status';

export class HearthStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(STATUS_ITEM_ID, vscode.StatusBarAlignment.Right, 100);

  constructor() {
    this.item.name = 'Hearth';
  }

  update(input: StatusInput): void {
    const status = statusPresentation(input);
    this.item.text = status.text;
    this.item.tooltip = status.tooltip;
    this.item.command = status.command;
    this.item.backgroundColor = status.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
