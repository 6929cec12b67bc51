/**
 * The webview's entry point (bundled to dist/webview.js): connects the chat app to the host's
 * messages and tells the host it is ready, upon which the host sends the whole state.
 */
import type { HostMessage, WebviewMessage } from '../core/chat/protocol';
import { ChatApp } from './chatApp';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
const app = new ChatApp({
  doc: document,
  root: document.getElementById('app')!,
  post: (message: WebviewMessage) => vscode.postMessage(message),
  schedule: (work) => requestAnimationFrame(work),
});
window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  // Only the host posts into a webview; anything without a type is not ours.
  if (event.data && typeof event.data === 'object' && typeof event.data.type === 'string') app.receive(event.data);
});
vscode.postMessage({ type: 'ready' } satisfies WebviewMessage);
