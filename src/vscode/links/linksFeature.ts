/**
 * Linked notes in the editor (DESIGN.md decision 23): the link graph, the wikilink providers, the
 * unresolved-link diagnostics, the Connections and Related Notes views, and the Markdown preview's
 * wikilinks. Started by activate() as one feature.
 */
import * as vscode from 'vscode';
import type { LoadedConfig } from '../../core/config/load';
import { describeError } from '../../core/errors';
import type { Host, Logger } from '../../core/host';
import type { KilnIndex } from '../../core/index/kilnIndex';
import { indexSemanticSearch } from '../../core/index/semanticSearchFn';
import { kilnToolContext, teamLinksFor } from '../../core/kiln/tools/kilnToolContext';
import type { TeamLinks } from '../../core/kiln/links/teamLinks';
import { bindKilnContext } from '../../core/kiln/tools/kilnTools';
import type { BoundKilnContext } from '../../core/kiln/tools/kilnTool';
import { linkMention } from '../../core/kiln/tools/mentionEdit';
import type { IndexState } from '../index/indexState';
import { ConnectionsView, CONNECTIONS_VIEW, LINK_MENTION_COMMAND, type ConnectionNode } from './connectionsView';
import { EditorLinks } from './editorLinks';
import { registerLinkDiagnostics } from './linkDiagnostics';
import { wikilinkPlugin } from './markdownItWikilinks';
import { insertLinkTo, INSERT_LINK_COMMAND, RELATED_VIEW, RelatedNotesView, type RelatedNode } from './relatedNotesView';
import { registerWikiLinkEditing } from './wikiLinkEditing';
import { registerWikiLinkNavigation } from './wikiLinkNavigation';

export interface LinksFeatureDeps {
  log: Logger;
  host: Pick<Host, 'log' | 'confirm' | 'confirmProtected'>;
  config(): LoadedConfig;
  workspaceRoot(): string | undefined;
  index(): KilnIndex | undefined;
  indexState(): IndexState | undefined;
  onDidChangeIndex: vscode.Event<unknown>;
}

export interface LinksFeature {
  disposables: vscode.Disposable[];
  /** Re-opens the graph when the kiln or its rules change. */
  apply(loaded: LoadedConfig, workspaceRoot: string | undefined): void;
  /** For activate()'s return value: VS Code's Markdown preview calls it with its markdown-it. */
  extendMarkdownIt: ReturnType<typeof wikilinkPlugin>;
}

export function startLinksFeature(deps: LinksFeatureDeps): LinksFeature {
  const log = deps.log.child('links');
  const links = new EditorLinks(log);
  let openedFor = '';
  // A user's own "Link" click is journaled like an agent's edit (undo reverts it) but not reviewed: they asked for it.
  const context = (): BoundKilnContext | undefined => {
    const root = links.kilnRoot;
    const workspaceRoot = deps.workspaceRoot();
    if (!root || !workspaceRoot || !links.kilnLinks) return undefined;
    const search = deps.index() ? indexSemanticSearch(() => deps.index()) : undefined;
    const ctx = kilnToolContext(deps.config().config, deps.host, workspaceRoot, search);
    return bindKilnContext({ ...ctx, confirmDestructive: false, links: links.kilnLinks, files: links.kilnLinks.files, teamLinks: teamLinks() });
  };
  // One TeamLinks per config and kiln: it remembers what it sent, so each answer sends only changes.
  let team: { loaded: LoadedConfig; root: string; links: TeamLinks | undefined } | undefined;
  const teamLinks = (): TeamLinks | undefined => {
    const loaded = deps.config();
    const root = links.kilnRoot;
    if (!root) return undefined;
    if (team?.loaded !== loaded || team.root !== root) team = { loaded, root, links: teamLinksFor(loaded.config, deps.host, root) };
    return team.links;
  };
  const connections = new ConnectionsView(links, (graph, path) => teamLinks()?.backlinks(graph, path));
  const related = new RelatedNotesView({ links, context, indexState: deps.indexState, onDidChangeIndex: deps.onDidChangeIndex });
  const disposables: vscode.Disposable[] = [
    links,
    connections,
    related,
    ...registerWikiLinkNavigation(links),
    ...registerWikiLinkEditing(links),
    ...registerLinkDiagnostics(links),
    vscode.window.createTreeView(CONNECTIONS_VIEW, { treeDataProvider: connections, showCollapseAll: true }),
    vscode.window.createTreeView(RELATED_VIEW, { treeDataProvider: related }),
    vscode.commands.registerCommand(LINK_MENTION_COMMAND, async (node?: ConnectionNode) => {
      if (node?.kind !== 'mention') return;
      const ctx = context();
      if (!ctx) return;
      try {
        const link = await linkMention(ctx, node.target, node.mention, { client: 'vscode' });
        await links.kilnLinks?.update([node.mention.source]);
        connections.refresh();
        vscode.window.setStatusBarMessage(`Hearth: linked "${node.mention.text}" in ${node.mention.source} as ${link} (undo: Hearth: Undo Last Agent Change)`, 5000);
      } catch (error) {
        void vscode.window.showErrorMessage(`Hearth: ${describeError(error)}`);
      }
    }),
    vscode.commands.registerCommand(INSERT_LINK_COMMAND, (node?: RelatedNode) => insertLinkTo(links, node)),
    vscode.commands.registerCommand('hearth.links.refresh', () => {
      void links.kilnLinks?.refresh().then(() => connections.refresh());
      related.refresh(0);
    }),
  ];
  return {
    disposables,
    apply(loaded, workspaceRoot) {
      const root = loaded.config.kiln_path ?? workspaceRoot;
      const rules = { exclude: loaded.config.processing.exclude, max_file_size_kb: loaded.config.processing.max_file_size_kb };
      const key = JSON.stringify([root, rules]);
      if (key === openedFor) return;
      openedFor = key;
      links.open(root, rules);
      log.debug(`link graph opened for ${root ?? 'no kiln'}`);
    },
    extendMarkdownIt: wikilinkPlugin({ graph: () => links.kilnLinks?.graph, kilnRoot: () => links.kilnRoot }),
  };
}
