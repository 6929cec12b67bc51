/**
 * Where the chat lives: a webview view in the "Hearth" activity bar container, and (on request) a
 * panel beside the editor. Both show the same live conversation: one ChatController (ChatSurfaces)
 * broadcasting to every open webview, so a turn started in one streams in the other and they never
 * diverge. The surface used last is "active": Focus Chat and Ask About Selection go to it.
 */
import * as vscode from 'vscode';
import type { ChatController } from '../../core/chat/chatController';
import { ChatSurfaces, type ChatSurface } from '../../core/chat/chatSurfaces';
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
  private readonly surfaces: ChatSurfaces;
  private current: ChatSurface | undefined;
  private viewSurface: ChatSurface | undefined;
  private viewWaiters: ((surface: ChatSurface) => void)[] = [];
  private readonly _onDidChangeActive = new vscode.EventEmitter<ChatController | undefined>();
  readonly onDidChangeActive = this._onDidChangeActive.event;
  private readonly disposables: vscode.Disposable[] = [this._onDidChangeActive];

  constructor(private readonly deps: ChatPanelsDeps) {
    this.surfaces = new ChatSurfaces((post) => deps.createController(post));
    const following = this.surfaces.onDidChangeController((controller) => this._onDidChangeActive.fire(controller));
    this.disposables.push(
      { dispose: () => following.dispose() },
      vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, this, { webviewOptions: { retainContextWhenHidden: true } }),
      vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, {
        // A chat panel left open beside the editor comes back after a reload, on the last conversation.
        deserializeWebviewPanel: async (panel) => {
          this.adoptPanel(panel);
        },
      }),
    );
  }

  /** The conversation every surface shows; undefined while none is open. */
  get active(): ChatController | undefined {
    return this.surfaces.current;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    const surface = this.attach(view.webview, view.onDidDispose);
    this.viewSurface = surface;
    view.onDidChangeVisibility(() => view.visible && (this.current = surface));
    view.onDidDispose(() => this.viewSurface === surface && (this.viewSurface = undefined));
    for (const waiter of this.viewWaiters.splice(0)) waiter(surface);
  }

  /** Reveals the side view and returns the conversation once its webview exists. */
  async focusView(): Promise<ChatController> {
    const ready = this.viewSurface ? Promise.resolve(this.viewSurface) : new Promise<ChatSurface>((resolve) => this.viewWaiters.push(resolve));
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    const surface = await ready;
    this.current = surface;
    surface.post({ type: 'focusInput' });
    return surface.controller;
  }

  /** The surface used last (the side view when none was used yet), focused. */
  async focusActive(): Promise<ChatController> {
    if (this.current && this.current !== this.viewSurface) {
      this.current.post({ type: 'focusInput' });
      return this.current.controller;
    }
    return this.focusView();
  }

  /** Opens a chat panel beside the editor, on the same conversation as the side view. */
  openInEditor(): ChatController {
    const panel = vscode.window.createWebviewPanel(CHAT_PANEL_TYPE, 'Hearth Chat', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, { retainContextWhenHidden: true });
    return this.adoptPanel(panel).controller;
  }

  private adoptPanel(panel: vscode.WebviewPanel): ChatSurface {
    panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'hearth.svg');
    const surface = this.attach(panel.webview, panel.onDidDispose);
    panel.onDidChangeViewState(() => panel.active && (this.current = surface));
    this.current = surface;
    return surface;
  }

  private attach(webview: vscode.Webview, onDidDispose: vscode.Event<void>): ChatSurface {
    const { extensionUri } = this.deps;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')] };
    const surface = this.surfaces.attach((message: HostMessage) => {
      webview.postMessage(message).then(undefined, (error) => this.deps.log.child('chat').debug(`posting to the panel failed: ${describeError(error)}`));
    });
    const subscription = webview.onDidReceiveMessage((message) => {
      this.current = surface;
      void surface.handle(message);
    });
    onDidDispose(() => {
      subscription.dispose();
      if (this.current === surface) this.current = undefined;
      void surface.detach();
    });
    webview.html = chatHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'chat.css')).toString(),
    });
    this.current ??= surface;
    return surface;
  }

  /** The open conversation, for a model switch or a config reload to show in every surface. */
  all(): ChatController[] {
    return this.surfaces.current ? [this.surfaces.current] : [];
  }

  /** Ends the open conversation (and its agent session), then the views; deactivate() awaits it. */
  async dispose(): Promise<void> {
    for (const d of this.disposables) d.dispose();
    await this.surfaces.dispose();
  }
}
