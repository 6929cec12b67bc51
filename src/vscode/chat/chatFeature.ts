/**
 * Wires the chat: the panels, their controllers (agents, history in workspaceState, model
 * switching through LlmRuntime, notes from the editor), the commands and keybindings' targets, and
 * the agent status item. Called once from activate().
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { signInToAgent } from './agentSignIn';
import type { AgentCatalog } from '../../core/agents/agentSession';
import { ChatController, type ChatModels } from '../../core/chat/chatController';
import type { ChatReviews } from '../../core/chat/reviews/chatReviews';
import { gatherAutoContext } from '../../core/chat/context/autoContext';
import { HistoryStore } from '../../core/chat/conversation/historyStore';
import { providerKeysWaitingForTrust } from '../../core/chat/editorRemedies';
import type { SearchHitView } from '../../core/chat/protocol';
import type { Host } from '../../core/host';
import type { KilnIndex } from '../../core/index/kilnIndex';
import type { LlmRuntime } from '../../core/llm/llmRuntime';
import { formatModelId } from '../../core/llm/modelId';
import { switchModelChecked } from '../../core/llm/modelSwitch';
import type { ConfigService } from '../config/configService';
import { SWITCH_MODEL_COMMAND } from '../status/statusModel';
import type { AgentControlsView } from '../../core/agents/agentControls';
import { AgentTerminalMirror } from './agentTerminalMirror';
import { AgentStatusItem, pickAgentModel, PICK_AGENT_COMMAND_ID } from './agentStatusItem';
import { ChatPanels } from './chatPanels';
import { EditorNotes } from './editorNotes';
import { UnansweredProvider } from './unansweredProvider';
import type { Redactor } from '../../core/logging/redactor';
import type { Disposable } from '../../core/lifecycle/disposable';

export const CHAT_COMMANDS = {
  newChat: 'hearth.newChat',
  focusChat: 'hearth.focusChat',
  askAboutSelection: 'hearth.askAboutSelection',
  openChatInEditor: 'hearth.openChatInEditor',
} as const;

export interface ChatFeatureDeps {
  context: vscode.ExtensionContext;
  configService: ConfigService;
  host: Host;
  llm: LlmRuntime;
  catalog: AgentCatalog;
  /** The kiln index, once built (search hits to attach); undefined before. */
  index: () => KilnIndex | undefined;
  redactor: Redactor;
  /** Agent edits waiting for review, as cards in the panel (the editor's reviewer). */
  reviews?: ChatReviews;
}

/** Hybrid search (meaning + words) over the index, as hits the panel lists to attach. */
function indexSearch(index: () => KilnIndex | undefined): (query: string) => Promise<SearchHitView[]> {
  return async (query) => {
    const current = index();
    if (!current) throw new Error('No index yet: run "Hearth: Reindex" (or `hearth index`) first.');
    const results = await current.search(query, { mode: 'hybrid', limit: 10, snippetChars: 240 });
    return results.map((r) => ({ path: r.path, title: r.title, ...(r.heading ? { heading: r.heading } : {}), startLine: r.startLine, endLine: r.endLine, snippet: r.snippet }));
  };
}

export function startChatFeature(deps: ChatFeatureDeps): vscode.Disposable[] {
  const { context, configService, host, llm } = deps;
  const store = new HistoryStore(context.workspaceState, deps.redactor);
  const notes = new EditorNotes(() => configService.current.config.kiln_path ?? configService.workspaceRoot ?? homedir(), indexSearch(deps.index));
  const unanswered = new UnansweredProvider({ llm, configService, log: host.log });
  const models: ChatModels = {
    currentId: () => llm.selection.currentId(),
    waitingForTrust: () => providerKeysWaitingForTrust(configService.current.withheld, llm.selection.current().name),
    switchTo: async (id) => {
      const selected = await switchModelChecked({ selection: llm.selection, catalog: llm.catalog, provider: (s) => llm.provider(s) }, id);
      return formatModelId(selected.name, selected.model);
    },
    list: async () => {
      const listing = await llm.catalog.list();
      return {
        // Embedding models cannot chat: `:model` completion and `:models` leave them out.
        ids: listing.flatMap((entry) => entry.models.filter((m) => m.kind !== 'embedding').map((m) => formatModelId(entry.provider, m.id))),
        errors: listing.filter((entry) => entry.error).map((entry) => `${entry.provider}: ${entry.error!.message}`),
      };
    },
    contextTokens: async () => {
      // The local runner reports its model's window (/api/show); other providers do not say.
      const current = llm.selection.current();
      const provider = llm.provider(current) as { numCtx?(model: string, signal: AbortSignal): Promise<number | undefined> };
      return current.model && provider.numCtx ? provider.numCtx(current.model, AbortSignal.timeout(3_000)) : undefined;
    },
    openSwitcher: async () => {
      await vscode.commands.executeCommand(SWITCH_MODEL_COMMAND);
    },
    // The provider did not answer: what this machine offers instead (start the runner, the editor's models, a key).
    unanswered: () => unanswered.choices(),
    choose: (id) => unanswered.choose(id),
  };
  // An agent's commands are also readable in VS Code terminals, mirrored from the chat's own events.
  const terminals = new AgentTerminalMirror();
  const panels = new ChatPanels({
    extensionUri: context.extensionUri,
    log: host.log,
    createController: (post) =>
      new ChatController({
        catalog: deps.catalog,
        redactor: deps.redactor,
        post: (message) => {
          terminals.handle(message);
          post(message);
        },
        store,
        // An external agent's picked mode, model and options are remembered per agent, across workspaces.
        preferences: context.globalState,
        signIn: signInToAgent,
        models,
        notes,
        confirm: (message, detail) => host.confirm(message, detail),
        settings: () => {
          const { chat, acp } = configService.current.config;
          return { enableMarkdown: chat.enable_markdown, lazyAgentSelection: acp.lazy_agent_selection, autoContext: chat.auto_context };
        },
        autoContext: (text, signal, attached = []) =>
          gatherAutoContext(text, deps.index(), { signal, exclude: [...attached, ...configService.current.config.context.rules_files] }),
        cwd: () => configService.workspaceRoot ?? homedir(),
        kilnRoot: () => configService.current.config.kiln_path,
        log: host.log,
        ...(deps.reviews ? { reviews: deps.reviews } : {}),
      }),
  });

  const status = new AgentStatusItem();
  let agentSubscription: Disposable | undefined;
  let controlsSubscription: Disposable | undefined;
  // The running external agent's controls: its model shows in the item, and a click offers its models.
  let controls: AgentControlsView | undefined;
  const follow = (controller: ChatController | undefined) => {
    agentSubscription?.dispose();
    controlsSubscription?.dispose();
    controls = undefined;
    status.update(controller?.activeAgent);
    agentSubscription = controller?.onDidChangeAgent((agent) => status.update(agent, controls));
    controlsSubscription = controller?.onDidChangeAgentControls((view) => status.update(controller.activeAgent, (controls = view)));
  };

  return [
    panels,
    terminals,
    status,
    { dispose: () => (agentSubscription?.dispose(), controlsSubscription?.dispose()) },
    panels.onDidChangeActive(follow),
    // A switch from anywhere (status bar, palette, `:model`) shows in every open chat.
    llm.selection.onDidChange(() => panels.all().forEach((c) => c.modelChanged())),
    // A reload can move the provider under the same model id (trusting the folder applies its endpoint
    // and key; an edited endpoint or temperature): an open conversation's internal agent starts over on
    // it at the next turn, seeded with the conversation, instead of talking to the old settings.
    configService.onDidChange(() => panels.all().forEach((c) => (c.modelChanged(), c.postState()))),
    // The composer offers the active note (and selection) as a one-click chip.
    vscode.window.onDidChangeActiveTextEditor(() => panels.all().forEach((c) => c.activeNoteChanged())),
    vscode.window.onDidChangeTextEditorSelection(() => panels.all().forEach((c) => c.activeNoteChanged())),
    vscode.commands.registerCommand(CHAT_COMMANDS.focusChat, () => panels.focusActive()),
    vscode.commands.registerCommand(CHAT_COMMANDS.openChatInEditor, () => panels.openInEditor()),
    vscode.commands.registerCommand(CHAT_COMMANDS.newChat, async () => (await panels.focusActive()).newChat()),
    vscode.commands.registerCommand(PICK_AGENT_COMMAND_ID, async () => {
      // The models' quick pick comes before focusing the chat: a webview taking focus would close it.
      const agent = panels.active?.activeAgent;
      const picked = agent ? await pickAgentModel(agent, controls) : 'agents';
      const controller = await panels.focusActive();
      if (picked === 'agents') await controller.showPicker();
      else if (picked) await controller.switchAgentModel(picked);
    }),
    vscode.commands.registerCommand(CHAT_COMMANDS.askAboutSelection, async () => {
      const selection = notes.selection();
      const controller = await panels.focusActive();
      if (!selection) return void vscode.window.showInformationMessage('Hearth: select some text in an editor to ask about it.');
      controller.attach(selection.ref, selection.text);
      controller.focusInput();
    }),
  ];
}
