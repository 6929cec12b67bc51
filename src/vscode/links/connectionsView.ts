/**
 * The Connections view: for the note in the active editor, its backlinks (each with its line), its
 * outgoing links, its unresolved links and its unlinked mentions, each mention with a "Link" action
 * that turns it into a wikilink through the journaled edit path (undone by "Undo Last Agent Change").
 */
import * as vscode from 'vscode';
import type { Backlink, GraphLink, LinkGraph } from '../../core/kiln/links/linkGraph';
import type { Mention } from '../../core/kiln/links/unlinkedMentions';
import type { EditorLinks } from './editorLinks';

export const CONNECTIONS_VIEW = 'hearth.connections';
export const LINK_MENTION_COMMAND = 'hearth.links.linkMention';
const MAX_MENTIONS = 50;

export type ConnectionNode =
  | { kind: 'group'; label: string; children: ConnectionNode[]; empty: string }
  | { kind: 'link'; label: string; description: string; path: string; line: number; tooltip?: string }
  | { kind: 'mention'; target: string; mention: Mention }
  | { kind: 'message'; label: string };

export class ConnectionsView implements vscode.TreeDataProvider<ConnectionNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  private timer: NodeJS.Timeout | undefined;
  /** The note shown; kept while the focus is in a non-note editor (the view itself, output). */
  private current: string | undefined;

  /** `teamBacklinks`: with the team database, every member's backlinks (undefined: this kiln's only). */
  constructor(
    private readonly links: EditorLinks,
    private readonly teamBacklinks?: (graph: LinkGraph, path: string) => Promise<Backlink[]> | undefined,
  ) {
    this.subscriptions = [
      this.changed,
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      links.onDidChange(() => this.refresh()),
    ];
  }

  /** The note shown now (its kiln path). */
  get note(): string | undefined {
    return this.current;
  }

  refresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changed.fire(), 150);
  }

  dispose(): void {
    clearTimeout(this.timer);
    vscode.Disposable.from(...this.subscriptions).dispose();
  }

  getTreeItem(node: ConnectionNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.contextValue = 'hearth.connectionGroup';
        return item;
      }
      case 'message':
        return new vscode.TreeItem(node.label);
      case 'link': {
        const item = new vscode.TreeItem(node.label);
        item.description = node.description;
        item.tooltip = node.tooltip ?? `${node.path}:${node.line}`;
        item.resourceUri = this.links.uriOf(node.path);
        item.iconPath = vscode.ThemeIcon.File;
        item.command = openCommand(this.links.uriOf(node.path), node.line);
        return item;
      }
      case 'mention': {
        const { mention } = node;
        const item = new vscode.TreeItem(`${mention.source}:${mention.line}`);
        item.description = mention.context;
        item.tooltip = `"${mention.text}" in ${mention.source}, line ${mention.line}: link it to ${node.target}`;
        item.contextValue = 'hearth.mention';
        item.iconPath = new vscode.ThemeIcon('mention');
        item.command = openCommand(this.links.uriOf(mention.source), mention.line, mention.column, mention.text.length);
        return item;
      }
    }
  }

  async getChildren(node?: ConnectionNode): Promise<ConnectionNode[]> {
    if (node) return node.kind === 'group' ? (node.children.length ? node.children : [{ kind: 'message', label: node.empty }]) : [];
    const editor = vscode.window.activeTextEditor;
    const path = editor ? this.links.pathOf(editor.document.uri) : undefined;
    if (path) this.current = path;
    else if (editor || !this.current) this.current = undefined;
    const links = this.links.kilnLinks;
    if (!links) return [{ kind: 'message', label: 'No kiln is open.' }];
    if (!this.current) return [{ kind: 'message', label: 'Open a note of the kiln to see its connections.' }];
    const graph = await this.links.graph(editor?.document);
    const note = this.current;
    if (!graph?.has(note)) return [{ kind: 'message', label: `Reading the kiln's links…` }];
    const outgoing = graph.outgoing(note).filter((l) => !l.ignored);
    const mentions = await links.unlinkedMentions(note, MAX_MENTIONS).catch(() => [] as Mention[]);
    const backlinks = (await this.teamBacklinks?.(graph, note)?.catch(() => undefined)) ?? graph.backlinks(note);
    return [
      group(`Backlinks (${backlinks.length})`, backlinks.map(backlinkNode), 'No note links here yet.'),
      group(`Outgoing (${outgoing.filter((l) => l.path).length})`, outgoing.filter((l) => l.path).map((l) => outgoingNode(note, l)), 'No links to other notes.'),
      group(`Unresolved (${outgoing.filter((l) => !l.path).length})`, outgoing.filter((l) => !l.path).map((l) => unresolvedNode(note, l)), 'Every link resolves.'),
      group(`Unlinked mentions (${mentions.length})`, mentions.map((mention) => ({ kind: 'mention', target: note, mention })), 'No unlinked mentions.'),
    ];
  }
}

function group(label: string, children: ConnectionNode[], empty: string): ConnectionNode {
  return { kind: 'group', label, children, empty };
}

function backlinkNode(link: Backlink): ConnectionNode {
  return { kind: 'link', label: `${link.source}:${link.line}`, description: link.context, path: link.source, line: link.line };
}

function outgoingNode(note: string, link: GraphLink): ConnectionNode {
  const ambiguous = link.ambiguous ? ` (ambiguous: ${link.ambiguous.length} notes)` : '';
  return { kind: 'link', label: link.path!, description: `line ${link.line}${link.fragment ? ` · #${link.fragment}` : ''}${ambiguous}`, path: link.path!, line: 1, tooltip: `${note}:${link.line}: ${link.context}` };
}

function unresolvedNode(note: string, link: GraphLink): ConnectionNode {
  return { kind: 'link', label: link.target, description: `line ${link.line}${link.outside ? ' · outside the kiln' : ''}`, path: note, line: link.line, tooltip: link.context };
}

export function openCommand(uri: vscode.Uri, line: number, column = 0, length = 0): vscode.Command {
  const range = new vscode.Range(line - 1, column, line - 1, column + length);
  return { command: 'vscode.open', title: 'Open', arguments: [uri, { selection: range, preview: true } satisfies vscode.TextDocumentShowOptions] };
}
