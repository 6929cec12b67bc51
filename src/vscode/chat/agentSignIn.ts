/**
 * Signing in to an external agent in the editor: its methods in a quick pick; a key method asks
 * for the key in a password box (kept in VS Code's secret storage by the ACP side, never in a
 * config file or log); a terminal method runs the agent's own login command in a VS Code terminal
 * and signs in once it exits with 0; an agent method lets the agent do it (`authenticate`).
 */
import * as vscode from 'vscode';
import type { SignInChoice, SignInRequest } from '../../core/agents/agentControls';

export async function signInToAgent(request: SignInRequest, signal: AbortSignal): Promise<SignInChoice | undefined> {
  const items = request.methods.map((method) => ({
    label: method.name,
    description: method.kind === 'key' ? `API key (${method.variable})` : method.kind === 'terminal' ? 'in a terminal' : undefined,
    detail: method.description,
    method,
  }));
  const picked = await vscode.window.showQuickPick(items, { title: `Sign in to ${request.agent}`, placeHolder: `${request.agent}: ${request.reason}`, ignoreFocusOut: true });
  if (!picked || signal.aborted) return undefined;
  const { method } = picked;
  if (method.kind === 'key') {
    const key = await vscode.window.showInputBox({
      title: `${request.agent}: ${method.name}`,
      prompt: `The key the agent reads from ${method.variable}. Hearth keeps it in VS Code's secret storage and asks only once.`,
      password: true,
      ignoreFocusOut: true,
    });
    return key ? { methodId: method.id, key } : undefined;
  }
  if (method.kind === 'terminal' && method.command) {
    const terminal = vscode.window.createTerminal({ name: `Sign in: ${request.agent}`, shellPath: method.command.command, shellArgs: method.command.args, env: method.command.env });
    terminal.show();
    const code = await new Promise<number | undefined>((done) => {
      const closed = vscode.window.onDidCloseTerminal((t) => {
        if (t !== terminal) return;
        closed.dispose();
        done(t.exitStatus?.code);
      });
      signal.addEventListener('abort', () => (closed.dispose(), terminal.dispose(), done(undefined)), { once: true });
    });
    return code === 0 ? { methodId: method.id } : undefined;
  }
  return { methodId: method.id };
}
