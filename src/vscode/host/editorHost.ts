/**
 * The Host the core runs against inside the editor (DESIGN.md decision 13): the "Hearth" log,
 * notification progress when `[cli].show_progress`, a modal confirmation when
 * `[cli].confirm_destructive`, and VS Code's SecretStorage. Config is read at each call, so a live
 * reload changes behaviour at once.
 */
import * as vscode from 'vscode';
import type { CliConfig } from '../../core/config/schema';
import { protectedQuestion, type ProtectedWriteRequest } from '../../core/fs/writeGate';
import type { Host, Logger, Progress, ProgressOptions, SecretStore } from '../../core/host';

export class EditorHost implements Host {
  readonly secrets: SecretStore;

  constructor(
    readonly log: Logger,
    storage: vscode.SecretStorage,
    private readonly cliConfig: () => CliConfig,
  ) {
    this.secrets = {
      get: async (name) => (await storage.get(name)) ?? undefined,
      store: (name, value) => Promise.resolve(storage.store(name, value)),
    };
  }

  async withProgress<T>(options: ProgressOptions, work: (progress: Progress, signal: AbortSignal) => Promise<T>): Promise<T> {
    if (!this.cliConfig().show_progress) return work({ report() {} }, new AbortController().signal);
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: options.title, cancellable: options.cancellable ?? false },
      async (progress, token) => {
        const controller = new AbortController();
        const subscription = token.onCancellationRequested(() => controller.abort());
        try {
          return await work(progress, controller.signal);
        } finally {
          subscription.dispose();
        }
      },
    );
  }

  async confirm(message: string, detail?: string, action?: string): Promise<boolean> {
    if (!this.cliConfig().confirm_destructive) return true;
    // The button names what happens ("Clear Index"); "Continue" only where the caller names nothing.
    const proceed = action ?? 'Continue';
    const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, proceed);
    return answer === proceed;
  }

  /** Always a modal question naming the path and why it matters, whatever confirm_destructive says. */
  async confirmProtected(request: ProtectedWriteRequest): Promise<boolean> {
    const { message, detail } = protectedQuestion(request);
    const allow = `Allow ${request.action === 'delete' ? 'Delete' : 'Write'}`;
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, allow)) === allow;
  }
}
