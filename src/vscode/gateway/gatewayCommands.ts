import * as vscode from 'vscode';
import { describeError } from '../../core/errors';
import type { GatewayController } from './gatewayController';
import { describeState, SHOW_TOOL_SERVERS_COMMAND } from './gatewayStatus';
import { registerSignInCommands, signInToToolServer } from './gatewaySignIn';

export const RESTART_TOOL_SERVER_COMMAND = 'hearth.restartToolServer';

/**
 * "Hearth: Show Tool Servers", "Hearth: Restart Tool Server" and the OAuth sign-in/out commands. Registered at activation while the
 * gateway's code (the MCP SDK) is still loading: each command waits for the controller.
 */
export function registerGatewayCommands(loadController: () => Promise<GatewayController>): vscode.Disposable[] {
  const pickUpstream = async (placeHolder: string): Promise<string | undefined> => {
    const statuses = (await loadController()).gateway.statuses();
    if (statuses.length === 0) {
      void vscode.window.showInformationMessage('No tool servers are configured. Add [[mcp.servers]] entries to .hearth/config.toml.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      statuses.map((status) => ({
        label: `${status.state.kind === 'ready' ? '$(check)' : status.state.kind === 'down' ? '$(error)' : '$(sync)'} ${status.name}`,
        description: `${status.transport}, prefix ${status.prefix}`,
        detail: describeState(status),
        name: status.name,
      })),
      { placeHolder, matchOnDetail: true },
    );
    return picked?.name;
  };

  const restart = async (name?: unknown) => {
    const target = typeof name === 'string' ? name : await pickUpstream('Restart which tool server?');
    if (!target) return;
    try {
      const controller = await loadController();
      const gateway = controller.gateway;
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Restarting tool server "${target}"…` }, () => controller.restart(target));
      const status = gateway.statuses().find((s) => s.name === target);
      if (status?.state.kind === 'down') void vscode.window.showWarningMessage(`Tool server "${target}" is still down: ${status.state.error}`);
      else void vscode.window.showInformationMessage(`Tool server "${target}": ${status ? describeState(status) : 'restarted'}`);
    } catch (error) {
      void vscode.window.showErrorMessage(describeError(error));
    }
  };

  const show = async () => {
    const name = await pickUpstream('Hearth tool servers (select one to see its tools)');
    if (!name) return;
    const gateway = (await loadController()).gateway;
    const status = gateway.statuses().find((s) => s.name === name);
    if (!status) return;
    if (status.state.kind === 'down') {
      // A quick pick cuts the error to one line, and its end (the server's stderr) is what says why: a notification wraps.
      const again = 'Restart';
      const signIn = status.state.code === 'gateway.upstream_sign_in' ? ['Sign In'] : [];
      const action = await vscode.window.showWarningMessage(`Hearth: tool server "${name}" is ${describeState(status)}`, ...signIn, again, 'Show Log');
      if (action === 'Sign In') await signInToToolServer(await loadController(), name);
      else if (action === again) await restart(name);
      else if (action === 'Show Log') await vscode.commands.executeCommand('hearth.showLog');
      return;
    }
    const tools = gateway.allTools().filter((tool) => tool.upstream === name);
    const items: (vscode.QuickPickItem & { restart?: boolean })[] = [
      { label: '$(debug-restart) Restart this tool server', restart: true },
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      ...tools.map((tool) => ({
        label: tool.exposedName,
        description: tool.exposedName === status.prefix + tool.originalName ? undefined : `upstream name: ${tool.originalName}`,
        detail: tool.definition.description?.split('\n')[0],
      })),
    ];
    const picked = await vscode.window.showQuickPick(items, { placeHolder: `${name}: ${describeState(status)}`, matchOnDetail: true });
    if (picked?.restart) await restart(name);
  };

  return [
    vscode.commands.registerCommand(SHOW_TOOL_SERVERS_COMMAND, show),
    vscode.commands.registerCommand(RESTART_TOOL_SERVER_COMMAND, restart),
    ...registerSignInCommands(loadController),
  ];
}
