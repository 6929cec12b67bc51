/**
 * The checks behind the Getting Started walkthrough: is the configuration valid, does the local
 * runner answer, is there an index. Each reports in a notification with what to do next; the
 * walkthrough marks its step done when the command ran.
 */
import { runnerReport } from '../../core/llm/runnerCheck';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LlmRuntime } from '../../core/llm/llmRuntime';
import type { ConfigService } from '../config/configService';
import { onPath, RUNNER_PROGRAM } from './unansweredProvider';

function runnerProgramNote(installed: boolean): string {
  return installed ? ` ${RUNNER_PROGRAM} is installed here: start it with \`${RUNNER_PROGRAM} serve\`.` : ` ${RUNNER_PROGRAM} is not installed here (https://ollama.com/download).`;
}
import { describeConfigFiles } from '../walkthrough/configFiles';

export const SETUP_COMMANDS = {
  checkConfig: 'hearth.checkConfig',
  checkLocalRunner: 'hearth.checkLocalRunner',
  checkIndex: 'hearth.checkIndex',
} as const;

/** `checkIndex`: the editor's index answers (IndexController.check); without one, the kiln's index folder is looked at. */
export function registerSetupChecks(configService: ConfigService, llm: () => LlmRuntime | undefined, checkIndex?: () => Promise<void>): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(SETUP_COMMANDS.checkConfig, async () => {
      const { problems } = configService.current;
      const errors = problems.filter((p) => p.severity === 'error').length;
      // The files in use, by path: under `npm start` the global one is the user's own (HEARTH_CONFIG_DIR), not a fixed path.
      const workspace = configService.workspaceConfigFile;
      const global = configService.globalConfigFile;
      const files = describeConfigFiles({ global, globalExists: existsSync(global), workspace, workspaceExists: workspace !== undefined && existsSync(workspace) });
      if (errors > 0) {
        const open = 'Show Problems';
        if ((await vscode.window.showWarningMessage(`Hearth: the configuration has ${errors} error${errors === 1 ? '' : 's'}. ${files}`, open)) === open) await vscode.commands.executeCommand('workbench.actions.view.problems');
        return;
      }
      const openGlobal = 'Open Global Config';
      const create = 'Open Workspace Config';
      const answer = await vscode.window.showInformationMessage(
        `Hearth: the configuration is valid${problems.length ? ` (${problems.length} warning${problems.length === 1 ? '' : 's'})` : ''}. Kiln: ${configService.current.config.kiln_path ?? configService.workspaceRoot ?? '(none)'}. ${files}`,
        openGlobal,
        create,
      );
      if (answer === openGlobal) await vscode.commands.executeCommand('hearth.openGlobalConfig');
      if (answer === create) await vscode.commands.executeCommand('hearth.openWorkspaceConfig');
    }),
    vscode.commands.registerCommand(SETUP_COMMANDS.checkLocalRunner, async () => {
      const runtime = llm();
      if (!runtime) return void vscode.window.showErrorMessage('Hearth: the chat models could not start; see "Hearth: Show Log".');
      // The provider chat actually uses (whatever its type), not the local runner regardless.
      const active = runtime.selection.current();
      const listing = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Hearth: asking ${active.name}` }, () => runtime.catalog.list({ refresh: true }));
      const entry = listing.find((e) => e.provider === active.name);
      const report = entry ? runnerReport(entry, active.model) : { line: `${active.name} did not answer the model listing`, problem: true };
      // What the chat's "did not answer" choices offer too: start the runner, or install it.
      const installed = report.problem && active.type === 'local_runner' && !entry?.models.length ? runnerProgramNote(onPath(RUNNER_PROGRAM, process.env)) : '';
      const text = `Hearth: chat uses ${runtime.selection.currentId()} (${active.type}). ${report.line}${installed}`;
      void (report.problem ? vscode.window.showWarningMessage : vscode.window.showInformationMessage)(text);
    }),
    vscode.commands.registerCommand(SETUP_COMMANDS.checkIndex, async () => {
      if (checkIndex) return checkIndex();
      const kiln = configService.current.config.kiln_path ?? configService.workspaceRoot;
      const dir = kiln ? join(kiln, '.hearth', 'index') : undefined;
      const built = dir !== undefined && existsSync(dir) && readdirSync(dir).length > 0;
      void vscode.window.showInformationMessage(
        built ? `Hearth: an index exists in ${dir}. Search hits can be attached in the chat (Search notes).` : `Hearth: no index yet${dir ? ` in ${dir}` : ''}. Build it with "Hearth: Reindex" (Command Palette) or \`hearth index\` in a terminal.`,
      );
    }),
  ];
}
