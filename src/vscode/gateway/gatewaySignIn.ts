/**
 * OAuth sign-in to http/sse tool servers in the editor: "Hearth: Sign In to Tool Server" and
 * "Hearth: Sign Out of Tool Server", and a notification with a Sign In button when a server's
 * state turns to "needs sign-in" (once per time it does). The browser opens through the host's
 * `openExternal`; the answer comes back to a loopback redirect on 127.0.0.1, as for
 * `hearth mcp login`; tokens live in the editor's secret storage (the controller's OAuth store).
 */
import * as vscode from 'vscode';
import { describeError } from '../../core/errors';
import { signIn, signOut } from '../../core/gateway/oauth/oauthLogin';
import type { GatewayController } from './gatewayController';

export const SIGN_IN_TOOL_SERVER_COMMAND = 'hearth.signInToolServer';
export const SIGN_OUT_TOOL_SERVER_COMMAND = 'hearth.signOutToolServer';

/** The http/sse servers, those waiting for sign-in first; `undefined` when the user picked none. */
async function pickOAuthServer(controller: GatewayController, placeHolder: string): Promise<string | undefined> {
  const statuses = controller.gateway.statuses().filter((status) => status.transport !== 'stdio');
  if (statuses.length === 0) {
    void vscode.window.showInformationMessage('No http or sse tool servers are configured: OAuth sign-in is for those ([[mcp.servers]] with transport type "http" or "sse").');
    return undefined;
  }
  const needs = (code: unknown) => code === 'gateway.upstream_sign_in';
  const sorted = [...statuses].sort((a, b) => Number(needs(b.state.kind === 'down' && b.state.code)) - Number(needs(a.state.kind === 'down' && a.state.code)));
  const picked = await vscode.window.showQuickPick(
    sorted.map((status) => ({ label: status.name, description: status.state.kind === 'down' && needs(status.state.code) ? 'needs sign-in' : status.state.kind, name: status.name })),
    { placeHolder },
  );
  return picked?.name;
}

export async function signInToToolServer(controller: GatewayController, name: string): Promise<void> {
  const upstream = controller.oauthUpstream(name);
  if (!upstream) {
    void vscode.window.showWarningMessage(`Tool server "${name}" is not an http or sse server of [[mcp.servers]]: nothing to sign in to.`);
    return;
  }
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Signing in to tool server "${name}" in your browser…` }, () =>
      signIn(upstream, {
        store: controller.oauthStore,
        redactor: controller.redactor,
        open: async (url) => {
          const opened = await vscode.env.openExternal(vscode.Uri.parse(url.href, true));
          if (!opened) throw new Error('the browser could not be opened');
        },
      }),
    );
    await controller.restart(name);
    const state = controller.gateway.statuses().find((status) => status.name === name)?.state;
    if (state?.kind === 'ready') void vscode.window.showInformationMessage(`Signed in to tool server "${name}": ${state.toolCount} tools.`);
    else if (state?.kind === 'down') void vscode.window.showWarningMessage(`Signed in to "${name}", but it is still down: ${state.error}`);
  } catch (error) {
    void vscode.window.showErrorMessage(controller.redactor.redact(describeError(error)));
  }
}

export function registerSignInCommands(loadController: () => Promise<GatewayController>): vscode.Disposable[] {
  const signInCommand = async (name?: unknown) => {
    const controller = await loadController();
    const target = typeof name === 'string' ? name : await pickOAuthServer(controller, 'Sign in to which tool server?');
    if (target) await signInToToolServer(controller, target);
  };
  const signOutCommand = async (name?: unknown) => {
    const controller = await loadController();
    const target = typeof name === 'string' ? name : await pickOAuthServer(controller, 'Sign out of which tool server?');
    const upstream = target ? controller.oauthUpstream(target) : undefined;
    if (!target || !upstream) return;
    const confirm = await vscode.window.showWarningMessage(`Sign out of tool server "${target}"? Its tokens are removed; its tools stop until you sign in again.`, { modal: true }, 'Sign Out');
    if (confirm !== 'Sign Out') return;
    await signOut(upstream, controller.oauthStore);
    await controller.restart(target);
    void vscode.window.showInformationMessage(`Signed out of tool server "${target}".`);
  };
  return [vscode.commands.registerCommand(SIGN_IN_TOOL_SERVER_COMMAND, signInCommand), vscode.commands.registerCommand(SIGN_OUT_TOOL_SERVER_COMMAND, signOutCommand)];
}

/**
 * Says so once when a server comes to need sign-in (not at every status change), with a Sign In
 * button; asked again only after it was ready in between. Never silent: the status item shows it too.
 */
export function notifySignInNeeded(controller: GatewayController): vscode.Disposable {
  const asked = new Set<string>();
  const check = () => {
    for (const status of controller.gateway.statuses()) {
      const waiting = status.state.kind === 'down' && status.state.code === 'gateway.upstream_sign_in';
      if (!waiting) {
        if (status.state.kind === 'ready') asked.delete(status.name);
        continue;
      }
      if (asked.has(status.name)) continue;
      asked.add(status.name);
      void vscode.window.showWarningMessage(`Hearth: tool server "${status.name}" needs you to sign in.`, 'Sign In').then((action) => {
        if (action === 'Sign In') void signInToToolServer(controller, status.name);
      });
    }
  };
  const subscription = controller.gateway.onDidChange(check);
  check();
  return { dispose: () => subscription.dispose() };
}
