/**
 * Wikilinks as VS Code serves markdown links (DESIGN.md decision 23): Ctrl+click and F12 go to the
 * note (its heading or block), hover previews the note's opening or that section, and Find All
 * References on a link or a heading lists the wikilinks to it. `[text](…)` links are left to VS
 * Code's own markdown support.
 */
import * as vscode from 'vscode';
import type { GraphLink, LinkGraph } from '../../core/kiln/links/linkGraph';
import { fragmentKey } from '../../core/kiln/links/linkTargets';
import type { EditorLinks } from './editorLinks';

export const MARKDOWN: vscode.DocumentSelector = { language: 'markdown', scheme: 'file' };
/** Lines of a note a hover shows at most. */
const HOVER_LINES = 16;
const HOVER_CHARS = 1500;

export interface LinkAt {
  graph: LinkGraph;
  /** The kiln path of the document. */
  path: string;
  link: GraphLink;
}

/** The wikilink under `position` in a note of the kiln (as the editor holds it now). */
export async function wikiLinkAt(links: EditorLinks, document: vscode.TextDocument, position: vscode.Position): Promise<LinkAt | undefined> {
  const path = links.pathOf(document.uri);
  const graph = path ? await links.graph(document) : undefined;
  if (!path || !graph) return undefined;
  const character = position.character;
  const link = graph.outgoing(path).find((l) => l.kind === 'wiki' && l.line === position.line + 1 && character >= l.column && character <= l.column + l.length);
  return link ? { graph, path, link } : undefined;
}

export function linkRange(link: GraphLink): vscode.Range {
  return new vscode.Range(link.line - 1, link.column, link.line - 1, link.column + link.length);
}

/** Where a resolved link leads: the note, at its heading or block when the link names one. */
export function linkTarget(links: EditorLinks, graph: LinkGraph, link: GraphLink): vscode.Location | undefined {
  if (!link.path) return undefined;
  const line = link.fragment ? (graph.fragmentLine(link.path, link.fragment) ?? 1) : 1;
  return new vscode.Location(links.uriOf(link.path), new vscode.Position(line - 1, 0));
}

export function registerWikiLinkNavigation(links: EditorLinks): vscode.Disposable[] {
  return [
    vscode.languages.registerDefinitionProvider(MARKDOWN, {
      async provideDefinition(document, position) {
        const at = await wikiLinkAt(links, document, position);
        const target = at && linkTarget(links, at.graph, at.link);
        if (!at || !target) return undefined;
        return [{ originSelectionRange: linkRange(at.link), targetUri: target.uri, targetRange: target.range, targetSelectionRange: target.range }];
      },
    }),
    vscode.languages.registerDocumentLinkProvider(MARKDOWN, {
      async provideDocumentLinks(document) {
        const path = links.pathOf(document.uri);
        const graph = path ? await links.graph(document) : undefined;
        if (!path || !graph) return [];
        const out: vscode.DocumentLink[] = [];
        for (const link of graph.outgoing(path)) {
          const target = link.kind === 'wiki' ? linkTarget(links, graph, link) : undefined;
          if (!target) continue;
          const documentLink = new vscode.DocumentLink(linkRange(link), target.uri.with({ fragment: `L${target.range.start.line + 1}` }));
          documentLink.tooltip = `Go to ${link.path}${link.fragment ? `#${link.fragment}` : ''}`;
          out.push(documentLink);
        }
        return out;
      },
    }),
    vscode.languages.registerHoverProvider(MARKDOWN, {
      async provideHover(document, position) {
        const at = await wikiLinkAt(links, document, position);
        if (!at) return undefined;
        if (!at.link.path) return new vscode.Hover(unresolvedText(at.link), linkRange(at.link));
        const text = await links.kilnLinks?.text(at.link.path);
        if (text === undefined) return undefined;
        const preview = new vscode.MarkdownString(`**${at.link.path}**${at.link.ambiguous ? ` (also: ${at.link.ambiguous.slice(1).join(', ')})` : ''}\n\n---\n\n${previewOf(at.graph, at.link, text)}`);
        return new vscode.Hover(preview, linkRange(at.link));
      },
    }),
    vscode.languages.registerReferenceProvider(MARKDOWN, {
      async provideReferences(document, position) {
        const at = await wikiLinkAt(links, document, position);
        const path = links.pathOf(document.uri);
        const graph = await links.graph(document);
        if (!graph || !path) return [];
        let target: string | undefined;
        let fragment: string | undefined;
        if (at?.link.path) {
          target = at.link.path;
          fragment = at.link.fragment;
        } else {
          // On a heading of this note: the links to that heading.
          const heading = graph.note(path)?.headings.find((h) => h.line === position.line + 1);
          if (!heading) return [];
          target = path;
          fragment = heading.text;
        }
        const wanted = fragment ? fragmentKey(fragment) : undefined;
        return graph
          .backlinks(target)
          .filter((link) => link.kind === 'wiki' && (!wanted || (link.fragment !== undefined && fragmentKey(link.fragment) === wanted)))
          .map((link) => new vscode.Location(links.uriOf(link.source), linkRange(link)));
      },
    }),
  ];
}

function unresolvedText(link: GraphLink): vscode.MarkdownString {
  const text = new vscode.MarkdownString();
  text.appendText(link.outside ? `"${link.target}" points outside the kiln.` : `No note named "${link.target}" yet.`);
  return text;
}

/** The section a link names (heading to the next heading of its level or above, or the block's line), else the note's opening. */
function previewOf(graph: LinkGraph, link: GraphLink, text: string): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const note = graph.note(link.path!);
  const start = link.fragment ? (graph.fragmentLine(link.path!, link.fragment) ?? 0) : 0;
  let from = start > 0 ? start - 1 : 0;
  if (from === 0 && lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (end > 0) from = end + 1;
  }
  let to = Math.min(lines.length, from + HOVER_LINES);
  const heading = note?.headings.find((h) => h.line === start);
  if (heading) {
    const next = note!.headings.find((h) => h.line > heading.line && h.level <= heading.level);
    if (next) to = Math.min(to, next.line - 1);
  } else if (link.fragment?.startsWith('^')) to = from + 1;
  const body = lines.slice(from, to).join('\n').trim();
  return body.length > HOVER_CHARS ? `${body.slice(0, HOVER_CHARS)}…` : body;
}
