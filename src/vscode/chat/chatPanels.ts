/**
 * Where the chat lives: a webview view in the "Hearth" activity bar container, and (on request) a
 * panel beside the editor. Each surface gets its own ChatController; both share the workspace's
 * history. The one used last is "active": the commands (New Chat, Ask About Selection) and the
 * status bar's agent item follow it.
 */
import * as vscode from 'vscode';
import type { ChatController } from '../../core/chat/chatController';
import type { HostMessage } from '../../core/chat/protocol';
import { describeError } from '../../core/errors';
import type { Logger } from '../../core/host';
import { chatHtml } from './chatHtml';

export const CHAT_VIEW_ID = 'hearth.chatView';
export const CHAT_PANEL_TYPE = 'hearth.chatPanel';

export interface ChatPanelsDeps {
  extensionUri: vscode.Uri;
  /** A controller for a new surface, posting to it through `post`. */
  createController(post: (message: HostMessage) => void): ChatController;
  log: Logger;
}

export class ChatPanels implements vscode.WebviewViewProvider, vscode.Disposable {
  private readonly controllers = new Set<ChatController>();
  private current: ChatController | undefined;
  private viewController: ChatController | undefined;
  private viewWaiters: ((controller: ChatController) => void)[] = [];
  private readonly _onDidChangeActive = new vscode.EventEmitter<ChatController | undefined>();
  readonly onDidChangeActive = this._onDidChangeActive.event;
  private readonly disposables: vscode.Disposable[] = [this._onDidChangeActive];

  constructor(private readonly deps: ChatPanelsDeps) {
    this.disposables.push(
      vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, this, { webviewOptions: { retainContextWhenHidden: true } }),
      vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, {
        // A chat panel left open beside the editor comes back after a reload, on the last conversation.
        deserializeWebviewPanel: async (panel) => {
          this.adoptPanel(panel);
        },
      }),
    );
  }

  get active(): ChatController | undefined {
    return this.current;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    const controller = this.attach(view.webview, view.onDidDispose);
    this.viewController = controller;
    view.onDidChangeVisibility(() => view.visible && this.setActive(controller));
    view.onDidDispose(() => (this.viewController = undefined));
    for (const waiter of this.viewWaiters.splice(0)) waiter(controller);
  }

  /** Reveals the side view and returns its controller once the webview exists. */
  async focusView(): Promise<ChatController> {
    const ready = this.viewController ? Promise.resolve(this.viewController) : new Promise<ChatController>((resolve) => this.viewWaiters.push(resolve));
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    const controller = await ready;
    this.setActive(controller);
    controller.focusInput();
    return controller;
  }

  /** The active surface (the side view when none was used yet), focused. */
  async focusActive(): Promise<ChatController> {
    if (this.current && this.current !== this.viewController) {
      this.current.focusInput();
      return this.current;
    }
    return this.focusView();
  }

  /** Opens a chat panel beside the editor. */
  openInEditor(): ChatController {
    const panel = vscode.window.createWebviewPanel(CHAT_PANEL_TYPE, 'Hearth Chat', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, { retainContextWhenHidden: true });
    return this.adoptPanel(panel);
  }

  private adoptPanel(panel: vscode.WebviewPanel): ChatController {
    panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'hearth.svg');
    const controller = this.attach(panel.webview, panel.onDidDispose);
    panel.onDidChangeViewState(() => panel.active && this.setActive(controller));
    this.setActive(controller);
    return controller;
  }

  private attach(webview: vscode.Webview, onDidDispose: vscode.Event<void>): ChatController {
    const { extensionUri } = this.deps;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')] };
    const controller = this.deps.createController((message) => {
      webview.postMessage(message).then(undefined, (error) => this.deps.log.debug(`chat: posting to the panel failed: ${describeError(error)}`));
    });
    this.controllers.add(controller);
    const subscription = webview.onDidReceiveMessage((message) => {
      this.setActive(controller);
      void controller.handle(message);
    });
    onDidDispose(() => {
      subscription.dispose();
      this.controllers.delete(controller);
      if (this.current === controller) this.setActive([...this.controllers][0]);
      void controller.dispose();
    });
    webview.html = chatHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'chat.css')).toString(),
    });
    if (!this.current) this.setActive(controller);
    return controller;
  }

  private setActive(controller: ChatController | undefined): void {
    if (this.current === controller) return;
    this.current = controller;
    this._onDidChangeActive.fire(controller);
  }

  /** Every open surface (a model switch or a config reload is shown in all of them). */
  all(): ChatController[] {
    return [...this.controllers];
  }

  dispose(): void {
    for (const controller of this.controllers) void controller.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
