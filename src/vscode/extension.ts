/**
 * The composition root: every service is constructed here by hand and every disposable is added to
 * one DisposableStore, which deactivate() awaits. No singletons, no service locator.
 *
 * Activation must succeed whatever the configuration holds (DESIGN.md decision 3): loading never
 * throws, each reaction to a reload is guarded on its own, and anything unexpected is logged.
 */
import * as vscode from 'vscode';
import type { LoadedConfig } from '../core/config/load';
import { describeError } from '../core/errors';
import type { Logger, LogLevel } from '../core/host';
import { effectiveLogLevel, levelFilteredLogger, redactingLogger, Redactor } from '../core/logging/redactingLogger';
import { channelLogger } from './host/channelLogger';
import type { Disposable } from '../core/lifecycle/disposable';
import { DisposableStore } from '../core/lifecycle/disposableStore';
import { registerConfigCommands } from './config/configCommands';
import { ConfigDiagnostics } from './config/configDiagnostics';
import { registerDidYouMeanActions } from './config/didYouMeanActions';
import { ConfigService } from './config/configService';
import { registerTrustCodeActions, withheldNotifier } from './config/workspaceTrustUi';
import { EditorHost } from './host/editorHost';
import { EffectiveConfigDocument } from './config/effectiveConfigDocument';
import { registerGatewayCommands } from './gateway/gatewayCommands';
import type { GatewayController } from './gateway/gatewayController';
import { HearthStatusBar } from './status/statusBar';
import { LlmRuntime } from '../core/llm/llmRuntime';
import type { ProviderFactories } from '../core/llm/createProvider';
import { EditorLmProvider } from './models/editorLmProvider';
import { ModelStatus } from './models/modelStatus';
import { ModelSwitcher } from './models/modelSwitcher';
import { configuredModelId, RememberedModel } from '../core/chat/rememberedModel';
import { registerHearthLanguageModels } from './models/registerLanguageModels';
import { IndexController, SEMANTIC_SEARCH_COMMAND } from './index/indexController';
import { showSemanticSearch } from './index/semanticSearchPick';
import { indexSemanticSearch } from '../core/index/semanticSearchFn';
import { startChatFeature } from './chat/chatFeature';
import { EditorAgentCatalog } from './chat/editorAgentCatalog';
import { registerSetupChecks } from './chat/setupChecks';
import { openWalkthroughOnFirstStart, WALKTHROUGH_ID } from './walkthrough/firstStart';
import { registerHearthParticipant } from './participant/hearthParticipant';
import { registerKilnLanguageModelTools } from './tools/kilnLanguageModelTools';
import { describeEditorContributions, editorContributions, hasChatParticipantApi } from './api/editorContributions';
import type { KilnTool } from '../core/kiln/tools/kilnTool';
import type { SearchResult } from '../core/index/search/searchResult';
import { openChangeJournal } from '../core/changes/changeJournal';
import { kilnProtection } from '../core/fs/kilnProtection';
import type { ProtectedWriteRequest } from '../core/fs/writeGate';
import { ChangeSnapshots } from './changes/changeSnapshots';
import { EditorReviewer } from './changes/editorReviewer';
import { chatReviews } from './changes/chatReviewBridge';
import type { ChatReviews } from '../core/chat/reviews/chatReviews';
import { UNDO_LAST_AGENT_CHANGE_COMMAND, undoLastAgentChange } from './changes/undoLastChange';
import { startLinksFeature, type LinksFeature } from './links/linksFeature';

/**
 * Everything activate() built, ended by deactivate() in reverse order of creation with each end
 * awaited (agent and tool-server process trees, an index write in progress). VS Code disposes
 * context.subscriptions only after deactivate's promise settles and without awaiting them, so this
 * store is the one place the extension shuts down.
 */
let owned: DisposableStore | undefined;

/** How long loading the extension's code took before activate() ran (measured by dist/extension.js). */
export interface ActivationTiming {
  codeLoadingMs?: number;
}

export async function activate(context: vscode.ExtensionContext, timing: ActivationTiming = {}): Promise<HearthExtensionApi> {
  // The Markdown preview asks for this once it opens; the links feature fills it in.
  const api: HearthExtensionApi = { extendMarkdownIt: (md) => md };
  const activationStarted = performance.now();
  // Logging first, so everything after it can report: the "Hearth" channel, filtered by
  // [logging].level ([cli].verbose = debug), with every known secret redacted.
  const channel = vscode.window.createOutputChannel('Hearth', { log: true });
  const redactor = new Redactor();
  let logLevel: LogLevel = 'info';
  const log = redactingLogger(levelFilteredLogger(channelLogger(channel), () => logLevel), redactor);
  void owned?.dispose();
  const store = new DisposableStore(log.child('shutdown'));
  owned = store;
  // Only a fallback: deactivate() has ended the store by the time VS Code disposes this.
  context.subscriptions.push(store);
  const own = (...members: Disposable[]) => members.forEach((member) => store.add(member));
  // The channel goes last, so the rest can still log while they end.
  own(channel);

  try {
    // Configuration: loaded from both files, reloaded live.
    const configService = new ConfigService(log, process.env, { secrets: context.secrets, redactor });
    own(configService);
    const host = new EditorHost(log, context.secrets, () => configService.current.config.cli);

    // What the user sees of the configuration. Every reaction to a reload is registered with
    // onConfig and runs guarded, so one failing reaction never stops the others.
    const diagnostics = new ConfigDiagnostics(log);
    const statusBar = new HearthStatusBar();
    const effectiveConfig = new EffectiveConfigDocument(configService);
    own(diagnostics, statusBar, effectiveConfig, registerTrustCodeActions(), registerDidYouMeanActions(diagnostics));
    const reactions: [string, (loaded: LoadedConfig) => void][] = [];
    const onConfig = (what: string, react: (loaded: LoadedConfig) => void) => reactions.push([what, react]);
    own(configService.onDidChange((loaded) => reactions.forEach(([what, react]) => guard(log, what, () => react(loaded)))));

    onConfig('log level', (loaded) => (logLevel = effectiveLogLevel(loaded.config)));
    onConfig('diagnostics', (loaded) => diagnostics.update(loaded.problems));
    onConfig('restricted mode', withheldNotifier());
    // The chat models feature takes the status bar over (it follows the session's selection).
    let refreshStatus = (loaded: LoadedConfig) => statusBar.update(loaded);
    onConfig('status bar', (loaded) => refreshStatus(loaded));
    own(...registerConfigCommands({ configService, effectiveConfig, log, channel, secrets: context.secrets, redactor }));

    // Features start one by one; one that fails to start is logged and the rest still run.
    const version = String(context.extension.packageJSON.version ?? '0.1.0');
    let reviewer: EditorReviewer | undefined;
    let chatReviewCards: ChatReviews | undefined;
    startFeature(log, 'agent edits', () => {
      // Agent edits open as diffs to accept or reject; the journal's newest turn can be undone.
      const kilnRoot = () => configService.current.config.kiln_path ?? configService.workspaceRoot;
      const snapshots = new ChangeSnapshots();
      reviewer = new EditorReviewer(snapshots, kilnRoot, log);
      // One journal per kiln and config: the chat's cards ask it often, and what it ignored is said once.
      let opened: { root: string; config: object; value: ReturnType<typeof openChangeJournal> } | undefined;
      const journal = () => {
        const root = kilnRoot();
        if (!root) return undefined;
        const { config } = configService.current;
        if (opened?.root === root && opened.config === config) return opened.value;
        // An undo of a protected path asks its own question, even with confirm_destructive off.
        const rules = kilnProtection(config, { kilnRoot: root, workspaceRoot: configService.workspaceRoot ?? root });
        const value = openChangeJournal(root, config.changes, log, { rules, confirmProtected: (request: ProtectedWriteRequest) => host.confirmProtected(request) });
        opened = { root, config, value };
        return value;
      };
      chatReviewCards = chatReviews(reviewer, () => journal()?.journal);
      own(
        snapshots,
        reviewer,
        vscode.commands.registerCommand(UNDO_LAST_AGENT_CHANGE_COMMAND, () => {
          const confirmDestructive = () => configService.current.config.cli.confirm_destructive;
          return undoLastAgentChange({ journal, snapshots, confirmDestructive, changed: () => reviewer?.notifyChanged(), log });
        }),
      );
    });
    let gateway: GatewayController | undefined;
    let gatewaySemanticSearch = (): void => undefined;
    startFeature(log, 'MCP gateway', () => {
      // [mcp] upstreams + kiln tools on 127.0.0.1 (bearer token), offered to VS Code's MCP support.
      // Its code (the MCP SDK, the HTTP server, JSON Schema validation) loads after activation
      // returns: nothing the editor shows first waits for it.
      const loading = import('./gateway/gatewayController').then(({ GatewayController }) => {
        const controller = new GatewayController(host, redactor, version, reviewer, () => llmRuntime);
        gateway = controller;
        gatewaySemanticSearch();
        return controller;
      });
      loading.catch((error) => log.error(`Hearth: the MCP gateway could not start: ${describeError(error)}`, error));
      own({ dispose: async () => (await loading.catch(() => undefined))?.dispose() }, ...registerGatewayCommands(() => loading));
      // Only the [[mcp.servers]] entries that changed restart; reloads apply in order once it loaded.
      onConfig('gateway', (loaded) => {
        void loading.then((controller) => controller.apply(loaded, configService.workspaceRoot)).catch((error) => log.error(`updating the gateway failed: ${describeError(error)}`));
      });
    });

    // The kiln tools of the current config (built by the language model tools feature, on first use).
    let kilnToolsNow: (() => Promise<KilnTool[] | undefined>) | undefined;
    let llmRuntime: LlmRuntime | undefined;
    startFeature(log, 'chat models', () => {
      // The session's selection (status bar, Switch Model, chat), the catalog of every provider's
      // models, and githubcopilot served through VS Code's language model API (every vendor's models).
      const editorProviders: ProviderFactories = { githubcopilot: (settings) => new EditorLmProvider(settings) };
      const llm = new LlmRuntime(() => configService.current, { redactor, log }, editorProviders);
      llmRuntime = llm;
      const modelSwitcher = new ModelSwitcher({
        runtime: llm,
        workspaceRoot: () => configService.workspaceRoot,
        config: () => configService.current,
        reload: () => configService.reload(),
        log,
      });
      const modelStatus = new ModelStatus(llm, configService, statusBar, log);
      // The model picked in this workspace outlives a reload until the configured default changes.
      const remembered = new RememberedModel({ selection: llm.selection, configuredId: () => configuredModelId(configService.current), storage: context.workspaceState, log });
      onConfig('remembered model', () => remembered.configLoaded());
      own(modelSwitcher, modelStatus, remembered, vscode.lm.onDidChangeChatModels(() => llm.catalog.invalidate()));
      refreshStatus = () => modelStatus.refresh();
      const languageModels = registerHearthLanguageModels({ runtime: llm, withheld: () => configService.current.withheld, redactor, log });
      if (languageModels) {
        own(...languageModels.disposables);
        onConfig('language models', () => languageModels.refresh());
      }
    });

    let kilnIndex: IndexController | undefined;
    startFeature(log, 'kiln index', () => {
      // Indexed on activation and kept fresh by a file watcher; models fetched into global storage.
      const modelCache = vscode.Uri.joinPath(context.globalStorageUri, 'models').fsPath;
      const index = new IndexController(host, log, modelCache, redactor);
      kilnIndex = index;
      own(
        index,
        vscode.commands.registerCommand(SEMANTIC_SEARCH_COMMAND, async () => {
          await index.whenOpened();
          return showSemanticSearch(index, log);
        }),
        vscode.commands.registerCommand('hearth.reindex', () => index.reindex()),
        vscode.commands.registerCommand('hearth.rebuildIndex', () => index.rebuild()),
        vscode.commands.registerCommand('hearth.clearIndex', () => index.clear()),
        index.onDidChangeIndex(() => gatewaySemanticSearch()),
      );
      // The gateway (loaded after activation) and every index change hand semantic_search the index.
      gatewaySemanticSearch = () => gateway?.setSemanticSearch(index.current ? indexSemanticSearch(() => index.current) : undefined);
      onConfig('kiln index', (loaded) => {
        void index.apply(loaded, configService.workspaceRoot).catch((error) => log.error(`updating the index failed: ${describeError(error)}`));
      });
    });

    startFeature(log, 'linked notes', () => {
      // Wikilinks in the editor and the preview, backlinks, Connections and Related Notes (DESIGN.md decision 23).
      const index = kilnIndex;
      const feature = startLinksFeature({
        log, host, config: () => configService.current, workspaceRoot: () => configService.workspaceRoot,
        index: () => index?.current, indexState: () => index?.state, onDidChangeIndex: index ? index.onDidChangeState : new vscode.EventEmitter<unknown>().event,
      });
      own(...feature.disposables);
      api.extendMarkdownIt = feature.extendMarkdownIt;
      onConfig('linked notes', (loaded) => feature.apply(loaded, configService.workspaceRoot));
    });

    startFeature(log, 'chat', () => {
      // The chat view and panel, its commands and the agent status item, over the agent catalog
      // (internal cards + ACP agents offered the gateway); the walkthrough's checks beside it.
      const index = kilnIndex;
      own(...registerSetupChecks(configService, () => llmRuntime, index ? () => index.check() : undefined));
      if (!llmRuntime) throw new Error('the chat models did not start');
      const runtime = llmRuntime;
      const search = kilnIndex ? indexSemanticSearch(() => kilnIndex?.current) : undefined;
      const catalog = new EditorAgentCatalog({
        config: () => configService.current,
        workspaceRoot: () => configService.workspaceRoot,
        runtime,
        host,
        redactor,
        gatewayEndpoint: () => gateway?.endpoint,
        gateway: () => gateway?.gateway,
        cliPath: context.asAbsolutePath('dist/cli.js'),
        storageDir: (context.storageUri ?? context.globalStorageUri).fsPath,
        version,
        semanticSearch: () => (kilnIndex?.current ? search : undefined),
        reviewer,
      });
      const reviews = chatReviewCards ? { reviews: chatReviewCards } : {};
      own(catalog, ...startChatFeature({ context, configService, host, llm: runtime, catalog, index: () => kilnIndex?.current, redactor, ...reviews }));
      // @hearth in VS Code's Chat view, grounded as this chat is (where the editor has chat participants).
      if (hasChatParticipantApi()) {
        own(
          registerHearthParticipant(
            {
              kilnRoot: () => configService.current.config.kiln_path ?? configService.workspaceRoot,
              workspaceRoot: () => configService.workspaceRoot,
              index: () => kilnIndex?.current,
              indexState: () => kilnIndex?.state,
              whenIndexOpened: async () => kilnIndex?.whenOpened(),
              autoContext: () => configService.current.config.chat.auto_context !== false,
              catalog,
              relatedNotes: async (from, limit, signal) => {
                const tool = (await kilnToolsNow?.())?.find((t) => t.name === 'related_notes');
                if (!tool) return [];
                const result = await tool.call({ ...from, limit }, signal);
                const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
                if (result.isError) throw new Error(text);
                return (JSON.parse(text) as { results: SearchResult[] }).results;
              },
              redactor,
              log,
            },
            context.extensionUri,
          ),
        );
      }
    });

    startFeature(log, 'language model tools', () => {
      // The kiln tools for every agent in the editor (hearth_<tool>), through the same write gate,
      // review and journal as the internal agents' (rebuilt when the configuration changes).
      const contributed = ((context.extension.packageJSON.contributes?.languageModelTools ?? []) as { name: string }[]).map((tool) => tool.name);
      const search = indexSemanticSearch(() => kilnIndex?.current);
      let built: { loaded: LoadedConfig; root: string; tools: KilnTool[] } | undefined;
      // The tools' code (zod schemas, the journal) loads on the first call, not at activation.
      const tools = async () => {
        const loaded = configService.current;
        const root = configService.workspaceRoot ?? loaded.config.kiln_path;
        if (!root) return undefined;
        if (built?.loaded !== loaded || built.root !== root) {
          const [{ createKilnTools }, { kilnToolContext }] = await Promise.all([import('../core/kiln/tools/kilnTools'), import('../core/kiln/tools/kilnToolContext')]);
          built = { loaded, root, tools: createKilnTools(kilnToolContext(loaded.config, host, root, search, reviewer)) };
        }
        return built.tools;
      };
      kilnToolsNow = tools;
      own(...registerKilnLanguageModelTools({ tools, contributed, log }));
    });

    await configService.start();
    // A newcomer's first start opens Getting Started (once per install; not awaited: activation goes on).
    void openWalkthroughOnFirstStart({
      state: context.globalState,
      // VS Code keeps openOnInstall application-scoped, so a remote extension host (code-server,
      // SSH, containers) only ever sees its default; a startup editor turned off says "show me
      // nothing at start" in a setting every extension host sees.
      openOnInstall:
        vscode.workspace.getConfiguration('workbench.welcomePage').get<boolean>('walkthroughs.openOnInstall', true) &&
        vscode.workspace.getConfiguration('workbench').get<string>('startupEditor') !== 'none',
      open: () => vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false),
      log,
    });
    // What of VS Code's chat this editor takes (each feature registers only where its API exists).
    log.info(describeEditorContributions(vscode.version, editorContributions()));
    const activateMs = performance.now() - activationStarted;
    const loading = timing.codeLoadingMs;
    const parts = loading === undefined ? '' : `: code loading ${Math.round(loading)} ms, activate ${Math.round(activateMs)} ms`;
    log.info(`Hearth activated in ${Math.round((loading ?? 0) + activateMs)} ms${parts} (workspace: ${configService.workspaceRoot ?? 'none'})`);
  } catch (error) {
    log.error(`Hearth could not start completely: ${describeError(error)}`, error);
  }
  return api;
}

/** What activate() returns: VS Code's Markdown preview calls `extendMarkdownIt` (`markdown.markdownItPlugins`). */
export interface HearthExtensionApi {
  extendMarkdownIt(md: Parameters<LinksFeature['extendMarkdownIt']>[0]): unknown;
}

export async function deactivate(): Promise<void> {
  const store = owned;
  owned = undefined;
  await store?.dispose();
}

/** Runs one reaction to a config reload; a failure is logged and does not stop the others. */
function guard(log: Logger, what: string, run: () => void): void {
  try {
    run();
  } catch (error) {
    log.error(`updating the ${what} failed: ${describeError(error)}`);
  }
}

/** Wires one feature; if it throws, the editor keeps the configuration essentials and the other features. */
function startFeature(log: Logger, name: string, start: () => void): void {
  try {
    start();
  } catch (error) {
    log.error(`Hearth: the ${name} could not start: ${describeError(error)}`, error);
  }
}
