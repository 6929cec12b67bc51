/**
 * The last line of defence between rendered markdown and the panel's DOM: an allow-list of the
 * elements and attributes markdown produces. markdown-it already runs with `html: false` (raw HTML
 * in a reply or a note is shown as text) and the CSP forbids inline script; this pass makes sure
 * that whatever slips through a renderer bug still cannot carry a handler, a script or a remote load.
 */
import { wholeReference } from '../core/chat/context/noteReferences';

const ALLOWED_TAGS = new Set([
  'P', 'BR', 'HR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'UL', 'OL', 'LI', 'BLOCKQUOTE', 'PRE', 'CODE', 'SPAN',
  'EM', 'STRONG', 'S', 'DEL', 'A', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD', 'SUP', 'SUB', 'KBD',
]);
/** Elements whose content is never shown, even as text. */
const DROPPED_WITH_CONTENT = new Set(['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'TEMPLATE', 'NOSCRIPT']);
const SAFE_HREF = /^(https?:|mailto:|#)/i;

/** A relative `.md` href (`notes/a%20b.md`, `a.md:12`) as a kiln note reference; anything else undefined. */
function noteHref(href: string): { target: string; line?: number } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(href.trim());
  } catch {
    return undefined;
  }
  const ref = wholeReference(decoded.replace(/^\.\//, '').replace(/#.*$/, ''));
  return ref ? { target: ref.target, ...(ref.line !== undefined ? { line: ref.line } : {}) } : undefined;
}

/** Parses `html` inertly (a template runs no script and loads nothing) and returns a clean fragment. */
export function sanitizeHtml(doc: Document, html: string): DocumentFragment {
  const template = doc.createElement('template');
  template.innerHTML = html;
  cleanChildren(doc, template.content);
  return template.content;
}

function cleanChildren(doc: Document, parent: ParentNode): void {
  for (const node of [...parent.childNodes]) {
    if (node.nodeType === 3) continue; // text
    if (node.nodeType !== 1) {
      node.remove(); // comments, processing instructions
      continue;
    }
    const element = node as Element;
    if (DROPPED_WITH_CONTENT.has(element.tagName)) {
      element.remove();
      continue;
    }
    if (!ALLOWED_TAGS.has(element.tagName)) {
      // Keep what it said, as text; an image becomes its alt text.
      const text = element.tagName === 'IMG' ? (element.getAttribute('alt') ?? '') : (element.textContent ?? '');
      element.replaceWith(doc.createTextNode(text));
      continue;
    }
    const noteRef = element.tagName === 'A' ? noteHref(element.getAttribute('href') ?? '') : undefined;
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      const keep =
        (name === 'class' && (element.tagName === 'CODE' || element.tagName === 'SPAN' || element.tagName === 'PRE')) ||
        (name === 'href' && element.tagName === 'A' && SAFE_HREF.test(attribute.value.trim())) ||
        (name === 'start' && element.tagName === 'OL') ||
        name === 'title';
      if (!keep) element.removeAttribute(attribute.name);
    }
    if (element.tagName === 'A') element.setAttribute('rel', 'noopener noreferrer');
    // A markdown link to a note keeps its target as data only; noteLinks.ts makes it a note link.
    if (noteRef) {
      element.setAttribute('data-note-target', noteRef.target);
      if (noteRef.line !== undefined) element.setAttribute('data-note-line', String(noteRef.line));
    }
    cleanChildren(doc, element);
  }
}
