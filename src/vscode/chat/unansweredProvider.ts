/**
 * The editor's side of "the provider did not answer" (issue 29): it gathers what this machine has —
 * the local runner's program on PATH, configured providers that answer, the editor's own chat
 * models (`vscode.lm`, any vendor), hosted providers without a key — for unansweredChoices.ts to
 * plan the chat's choices, and carries out the one the user clicks.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { unansweredChoices, type ChoiceAction, type ProviderChoice, type UnansweredFacts } from '../../core/chat/unansweredChoices';
import { setConfigValues } from '../../core/config/edit';
import { describeError } from '../../core/errors';
import type { Logger } from '../../core/host';
import type { LlmRuntime } from '../../core/llm/llmRuntime';
import { formatModelId } from '../../core/llm/modelId';
import { switchModelChecked } from '../../core/llm/modelSwitch';
import type { ConfigService } from '../config/configService';
import { editorModelId, HEARTH_VENDOR } from '../models/editorLmProvider';

/** The local runner's program, as Check Local Runner and the README name it. */
export const RUNNER_PROGRAM = 'ollama';
const RUNNER_DOWNLOAD = 'https://ollama.com/download';
/** How long the choices may wait for the other providers' model lists. */
const LISTING_CAP_MS = 5_000;
/** Types that need no key (apiKey.ts): never offered a Set API Key. */
const KEYLESS = new Set(['local_runner', 'custom', 'githubcopilot']);

export interface UnansweredProviderDeps {
  llm: LlmRuntime;
  configService: ConfigService;
  log: Logger;
  env?: NodeJS.ProcessEnv;
}

export class UnansweredProvider {
  private offered = new Map<string, ChoiceAction>();

  constructor(private readonly deps: UnansweredProviderDeps) {}

  /** The choices for the provider chat uses now; remembered so a click can be carried out. */
  async choices(): Promise<ProviderChoice[]> {
    const facts = await this.facts();
    const planned = unansweredChoices(facts);
    this.deps.log.info(`provider "${facts.active.name}" did not answer: offering ${planned.map((p) => p.choice.label).join(', ') || 'nothing'} (answering: ${facts.answering.join(', ') || 'none'})`);
    this.offered = new Map(planned.map((p) => [p.choice.id, p.action]));
    return planned.map((p) => p.choice);
  }

  async choose(id: string): Promise<void> {
    const action = this.offered.get(id);
    if (!action) return;
    try {
      await this.run(action);
    } catch (error) {
      void vscode.window.showErrorMessage(`Hearth: ${describeError(error)}`);
    }
  }

  private async facts(): Promise<UnansweredFacts> {
    const { llm } = this.deps;
    const active = llm.selection.current();
    const providers = llm.selection.providers();
    const [answering, editorModels] = await Promise.all([this.answering(active.name), this.editorModels()]);
    const editorProvider = providers.find((p) => p.type === 'githubcopilot')?.name;
    return {
      active: { name: active.name, type: active.type, ...(active.endpoint ? { endpoint: active.endpoint } : {}) },
      ...(active.type === 'local_runner' ? { runnerInstalled: onPath(RUNNER_PROGRAM, this.deps.env ?? process.env) } : {}),
      answering,
      editorModels,
      ...(editorProvider ? { editorProvider } : {}),
      keyless: providers.filter((p) => p.name !== active.name && !KEYLESS.has(p.type) && !p.apiKey).map((p) => p.name),
    };
  }

  /**
   * Other configured providers that listed chat models, at the configured model when listed, else
   * the first. Each is asked on its own, capped: the provider that just failed (its client may
   * still be retrying) or one slow runner must not hide the ones that answer.
   */
  private async answering(activeName: string): Promise<string[]> {
    const { llm, log } = this.deps;
    const others = llm.selection.providers().filter((p) => p.name !== activeName && p.type !== 'githubcopilot');
    const capped = new Promise<undefined>((done) => setTimeout(() => done(undefined), LISTING_CAP_MS).unref?.());
    const listed = await Promise.all(
      others.map(async (settings) => {
        const listing = Promise.resolve().then(() => llm.catalog.forProvider(llm.provider(settings)));
        const entry = await Promise.race([listing.catch(() => undefined), capped]);
        if (!entry) log.info(`provider "${settings.name}" did not list its models within ${LISTING_CAP_MS / 1000} s; not offered`);
        return { settings, entry };
      }),
    );
    return listed.flatMap(({ settings, entry }) => {
      if (!entry || entry.error) return [];
      const chat = entry.models.filter((m) => m.kind !== 'embedding');
      const model = chat.find((m) => m.id === settings.model) ?? chat[0];
      return model ? [formatModelId(settings.name, model.id)] : [];
    });
  }

  private async editorModels(): Promise<UnansweredFacts['editorModels']> {
    if (typeof vscode.lm?.selectChatModels !== 'function') return [];
    try {
      // Capped like the providers' lists: asking the editor also asks every model provider it has.
      const capped = new Promise<undefined>((done) => setTimeout(() => done(undefined), LISTING_CAP_MS).unref?.());
      const all = await Promise.race([vscode.lm.selectChatModels(), capped]);
      if (!all) {
        this.deps.log.info(`the editor did not list its models within ${LISTING_CAP_MS / 1000} s; none offered`);
        return [];
      }
      const models = all.filter((m) => m.vendor !== HEARTH_VENDOR);
      return models.map((m) => ({ id: editorModelId(m), name: m.name || m.id, vendor: m.vendor }));
    } catch (error) {
      this.deps.log.info(`the editor's models could not be listed: ${describeError(error)}`);
      return [];
    }
  }

  private async run(action: ChoiceAction): Promise<void> {
    const { llm } = this.deps;
    const switchTo = async (id: string) => {
      const selected = await switchModelChecked({ selection: llm.selection, catalog: llm.catalog, provider: (s) => llm.provider(s) }, id);
      void vscode.window.showInformationMessage(`Hearth: chat now uses ${formatModelId(selected.name, selected.model)}; Retry the message.`);
    };
    switch (action.kind) {
      case 'startRunner': {
        const terminal = vscode.window.createTerminal({ name: 'Local runner' });
        terminal.show();
        terminal.sendText(`${RUNNER_PROGRAM} serve`);
        void vscode.window.showInformationMessage('Hearth: starting the local runner in a terminal; Retry the message once it is up ("Hearth: Check Local Runner" tells).');
        return;
      }
      case 'installRunner':
        await vscode.env.openExternal(vscode.Uri.parse(RUNNER_DOWNLOAD));
        return;
      case 'switch':
        return switchTo(action.id);
      case 'editorModel': {
        const provider = action.provider ?? (await this.addEditorProvider(action.model));
        if (provider) await switchTo(formatModelId(provider, action.model));
        return;
      }
      case 'setKey': {
        await vscode.commands.executeCommand('hearth.setApiKey');
        if (llm.selection.providers().find((p) => p.name === action.provider)?.apiKey) await switchTo(`${action.provider}/`);
        return;
      }
    }
  }

  /**
   * The editor's models need a `githubcopilot` provider in the configuration: added to the user
   * config (after asking), never to the workspace's (a teammate's editor may have other models).
   */
  private async addEditorProvider(model: string): Promise<string | undefined> {
    const { configService } = this.deps;
    const taken = new Set(this.deps.llm.selection.providers().map((p) => p.name));
    const name = ['editor', 'editor_lm', 'vscode_lm'].find((candidate) => !taken.has(candidate));
    if (!name) throw new Error('no free provider name for the editor\'s models (editor, editor_lm and vscode_lm are taken)');
    const file = configService.current.files.global;
    const add = 'Add and Use';
    // With [llm.providers] configured, [chat] no longer describes a provider of its own (DESIGN.md decision 4).
    const implicit = this.deps.llm.selection.current().implicit ? ' The provider described by [chat] then no longer applies: chat uses the configured providers.' : '';
    const answer = await vscode.window.showInformationMessage(
      `Use the editor's model ${model} for Hearth's chat?`,
      { modal: true, detail: `Adds [llm.providers.${name}] with type = "githubcopilot" (every model the editor has) to your user config, ${file}.${implicit}` },
      add,
    );
    if (answer !== add) return undefined;
    await setConfigValues(file, [
      { keyPath: ['llm', 'providers', name, 'type'], value: 'githubcopilot' },
      { keyPath: ['llm', 'providers', name, 'default_model'], value: model },
    ]);
    await configService.reload();
    return name;
  }
}

/** Whether `program` is an existing file in one of PATH's folders (with Windows' extensions). */
export function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  return (env.PATH ?? '').split(path.delimiter).filter(Boolean).some((dir) => extensions.some((ext) => existsSync(path.join(dir, program + ext))));
}
