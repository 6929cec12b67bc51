/**
 * The configuration commands (category "Hearth"): open the global or workspace file (creating it
 * from the commented template), show the effective configuration, show the log, and store an API
 * key in SecretStorage for `{secret:NAME}` references.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { configTemplate, type TemplateScope } from '../../core/config/template';
import { describeError } from '../../core/errors';
import type { Logger } from '../../core/host';
import type { Redactor } from '../../core/logging/redactingLogger';
import type { ConfigService } from './configService';
import type { EffectiveConfigDocument } from './effectiveConfigDocument';

export const COMMANDS = {
  openGlobalConfig: 'hearth.openGlobalConfig',
  openWorkspaceConfig: 'hearth.openWorkspaceConfig',
  showEffectiveConfig: 'hearth.showEffectiveConfig',
  showLog: 'hearth.showLog',
  setApiKey: 'hearth.setApiKey',
} as const;

export interface ConfigCommandDeps {
  configService: ConfigService;
  effectiveConfig: EffectiveConfigDocument;
  log: Logger;
  channel: vscode.OutputChannel;
  secrets: vscode.SecretStorage;
  redactor: Redactor;
}

/** A secret name: what `{secret:NAME}` may hold. */
const SECRET_NAME = /^[A-Za-z0-9_.-]+$/;

export function registerConfigCommands(deps: ConfigCommandDeps): vscode.Disposable[] {
  const { configService, log } = deps;
  // A command that fails shows its message and logs it; it never throws into the editor.
  const guarded = (id: string, run: () => Promise<unknown>) =>
    vscode.commands.registerCommand(id, async () => {
      try {
        await run();
      } catch (error) {
        log.error(`${id} failed: ${describeError(error)}`);
        void vscode.window.showErrorMessage(`Hearth: ${describeError(error)}`);
      }
    });

  return [
    guarded(COMMANDS.openGlobalConfig, async () => {
      const file = configService.globalConfigFile;
      if (!existsSync(file)) {
        const create = 'Create';
        const answer = await vscode.window.showInformationMessage(
          `The global Hearth config does not exist yet. Create ${file} from the commented template?`,
          { modal: true },
          create,
        );
        if (answer !== create) return;
        await createFromTemplate(file, 'global', log);
        configService.scheduleReload('global config created');
      }
      await vscode.window.showTextDocument(vscode.Uri.file(file));
      // Which file is "global" here (HEARTH_CONFIG_DIR under npm start, XDG elsewhere): the CLI reads the same one.
      vscode.window.setStatusBarMessage(`Hearth global config: ${file}`, 8_000);
    }),
    guarded(COMMANDS.openWorkspaceConfig, async () => {
      const file = configService.workspaceConfigFile;
      if (!file) {
        void vscode.window.showWarningMessage('Hearth: open a folder first; the workspace config lives in <folder>/.hearth/config.toml.');
        return;
      }
      if (!existsSync(file)) {
        await createFromTemplate(file, 'workspace', log);
        configService.scheduleReload('workspace config created');
      }
      await vscode.window.showTextDocument(vscode.Uri.file(file));
    }),
    guarded(COMMANDS.showEffectiveConfig, () => deps.effectiveConfig.show()),
    guarded(COMMANDS.showLog, async () => deps.channel.show(true)),
    guarded(COMMANDS.setApiKey, () => setApiKey(deps)),
  ];
}

async function createFromTemplate(file: string, scope: TemplateScope, log: Logger): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  // 'wx': never overwrite a file that appeared in the meantime.
  await writeFile(file, configTemplate(scope), { encoding: 'utf8', flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  log.info(`created ${file} from the template`);
}

async function setApiKey(deps: ConfigCommandDeps): Promise<void> {
  // Offer the names the configuration already refers to, so the common case is one pick.
  const referenced = [...new Set([...JSON.stringify(deps.configService.current.config).matchAll(/\{secret:([^}]+)\}/g)].map((m) => m[1].trim()))];
  let name: string | undefined;
  if (referenced.length > 0) {
    const other = '$(edit) Another name…';
    const picked = await vscode.window.showQuickPick([...referenced, other], { title: 'Hearth: Set API Key', placeHolder: 'Which {secret:NAME} to set' });
    if (picked === undefined) return;
    if (picked !== other) name = picked;
  }
  name ??= await vscode.window.showInputBox({
    title: 'Hearth: Set API Key',
    prompt: 'Name of the secret; refer to it in the config as api_key = "{secret:NAME}"',
    placeHolder: 'e.g. openai-key',
    validateInput: (value) => (SECRET_NAME.test(value.trim()) ? undefined : 'Use letters, digits, _ . and -'),
  });
  if (!name) return;
  name = name.trim();
  const value = await vscode.window.showInputBox({
    title: `Hearth: Set API Key "${name}"`,
    prompt: 'The key is kept in the editor\'s secret storage, never in a file. Leave empty to delete it.',
    password: true,
    ignoreFocusOut: true,
  });
  if (value === undefined) return;
  if (value.trim() === '') {
    await deps.secrets.delete(name);
    deps.log.info(`deleted the secret "${name}"`);
    void vscode.window.showInformationMessage(`Hearth: deleted the secret "${name}".`);
  } else {
    deps.redactor.add(value.trim());
    await deps.secrets.store(name, value.trim());
    deps.log.info(`stored the secret "${name}"`);
    void vscode.window.showInformationMessage(`Hearth: stored the secret "${name}". Use it with api_key = "{secret:${name}}".`);
  }
  await deps.configService.reload();
}
