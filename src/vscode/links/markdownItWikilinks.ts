/**
 * The Markdown preview's wikilinks (`markdown.markdownItPlugins`): `[[Note]]`, `[[Note#Heading]]`,
 * `[[Note|text]]` and `![[Note]]` render as links to the note they resolve to (the link graph's
 * resolution, so the preview and F12 agree); an unresolved one renders as a link marked unresolved.
 */
import { dirname, relative, sep } from 'node:path';
import { scanWikiLinks } from '../../core/kiln/linkScan';
import type { LinkGraph } from '../../core/kiln/links/linkGraph';

/** The parts of markdown-it this plugin touches (VS Code hands its instance in; no dependency on the package). */
interface MarkdownIt {
  inline: { ruler: { before(name: string, rule: string, fn: (state: InlineState, silent: boolean) => boolean): void } };
  renderer: { rules: Record<string, (tokens: Token[], index: number, options: unknown, env: RenderEnv) => string> };
  utils: { escapeHtml(text: string): string };
}

interface InlineState {
  src: string;
  pos: number;
  posMax: number;
  push(type: string, tag: string, nesting: number): Token;
}

interface Token {
  meta: unknown;
  content: string;
}

interface RenderEnv {
  currentDocument?: { fsPath?: string; scheme?: string };
}

interface WikiMeta {
  target: string;
  fragment?: string;
  alias?: string;
}

export interface WikilinkPreviewDeps {
  graph(): LinkGraph | undefined;
  kilnRoot(): string | undefined;
}

const MAX_LINK_CHARS = 2048;

export function wikilinkPlugin(deps: WikilinkPreviewDeps): (md: MarkdownIt) => MarkdownIt {
  return (md) => {
    md.inline.ruler.before('link', 'hearth_wikilink', (state, silent) => {
      const start = state.pos;
      const embed = state.src[start] === '!' && state.src.startsWith('[[', start + 1);
      if (!embed && !state.src.startsWith('[[', start)) return false;
      const window = state.src.slice(start, Math.min(state.posMax, start + MAX_LINK_CHARS));
      const found = scanWikiLinks(window)[0];
      if (!found || found.index !== 0) return false;
      if (!silent) {
        const token = state.push('hearth_wikilink', 'a', 0);
        token.meta = { target: found.target, fragment: found.fragment, alias: found.alias } satisfies WikiMeta;
        token.content = window.slice(0, found.end);
      }
      state.pos = start + found.end;
      return true;
    });
    md.renderer.rules.hearth_wikilink = (tokens, index, _options, env) => {
      const meta = tokens[index].meta as WikiMeta;
      const escape = md.utils.escapeHtml;
      const text = meta.alias || (meta.fragment ? `${meta.target} › ${meta.fragment}` : meta.target);
      const href = hrefOf(deps, meta, env);
      if (!href.resolved) return `<a class="hearth-wikilink hearth-unresolved" href="${escape(href.href)}" title="${escape(`No note named "${meta.target}"`)}">${escape(text)}</a>`;
      return `<a class="hearth-wikilink" href="${escape(href.href)}" data-href="${escape(href.href)}">${escape(text)}</a>`;
    };
    return md;
  };
}

/** The link's target relative to the previewed document, with the heading's anchor as the preview slugs it. */
function hrefOf(deps: WikilinkPreviewDeps, meta: WikiMeta, env: RenderEnv): { href: string; resolved: boolean } {
  const root = deps.kilnRoot();
  const doc = env?.currentDocument?.fsPath;
  const source = root && doc ? relative(root, doc).split(sep).join('/') : '';
  const resolved = deps.graph()?.resolveTarget(meta.target, source).path;
  const targetPath = resolved ?? (/\.md$/i.test(meta.target) ? meta.target : `${meta.target}.md`);
  const from = root && doc ? relative(dirname(doc), `${root}/${targetPath}`).split(sep).join('/') : targetPath;
  const anchor = meta.fragment && !meta.fragment.startsWith('^') ? `#${slug(meta.fragment)}` : '';
  return { href: encodeURI(from) + anchor, resolved: resolved !== undefined };
}

/** The preview's heading ids, as GitHub makes them: lowercase, punctuation dropped, each blank a hyphen ("A & b" → "a--b"). */
function slug(heading: string): string {
  return encodeURIComponent(heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-'));
}
