/**
 * Every surface that shows the chat (the side view, the panel beside the editor) shows the same
 * live conversation: one ChatController for all of them, its messages broadcast to each attached
 * webview. Two controllers over one saved conversation would run it twice and drift apart (two
 * agent sessions, two histories written over each other). The controller lives while at least one
 * surface does; the next surface after the last one closed starts a new one on the saved history.
 */
import type { ChatController } from './chatController';
import type { HostMessage } from './protocol';
import { Emitter } from '../lifecycle/emitter';

export type PostToSurface = (message: HostMessage) => void;

/** One attached webview's handle on the shared conversation. */
export interface ChatSurface {
  readonly controller: ChatController;
  /** A message from this surface's webview; replies meant only for it come back to it alone. */
  handle(raw: unknown): Promise<void>;
  /** Posts to this surface only (focusing its input, say). */
  post(message: HostMessage): void;
  /** The webview is gone: it gets nothing more; the last one to go ends the conversation's session. */
  detach(): Promise<void>;
}

export class ChatSurfaces {
  private controller: ChatController | undefined;
  private readonly targets = new Set<PostToSurface>();
  private readonly _onDidChangeController = new Emitter<ChatController | undefined>();
  /** Fires when the shared controller is created or ended (the status bar follows it). */
  readonly onDidChangeController = this._onDidChangeController.event;

  constructor(
    /** Makes the shared controller; `post` reaches every attached surface. */
    private readonly create: (post: PostToSurface) => ChatController,
  ) {}

  /** The shared controller; undefined while no surface is attached. */
  get current(): ChatController | undefined {
    return this.controller;
  }

  get size(): number {
    return this.targets.size;
  }

  attach(post: PostToSurface): ChatSurface {
    this.targets.add(post);
    let controller = this.controller;
    if (!controller) {
      controller = this.create((message) => this.broadcast(message));
      this.controller = controller;
      this.fire();
    }
    const owner = controller;
    let attached = true;
    return {
      controller: owner,
      handle: (raw) => (attached ? owner.handle(raw, post) : Promise.resolve()),
      post: (message) => attached && post(message),
      detach: async () => {
        if (!attached) return;
        attached = false;
        this.targets.delete(post);
        if (this.targets.size > 0 || this.controller !== owner) return;
        this.controller = undefined;
        this.fire();
        await owner.dispose();
      },
    };
  }

  async dispose(): Promise<void> {
    const controller = this.controller;
    this.controller = undefined;
    this.targets.clear();
    this._onDidChangeController.dispose();
    await controller?.dispose();
  }

  private broadcast(message: HostMessage): void {
    for (const post of [...this.targets]) post(message);
  }

  private fire(): void {
    this._onDidChangeController.fire(this.controller);
  }
}
