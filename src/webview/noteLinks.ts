/**
 * Turns note references in a rendered reply (`[[Note]]`, `path.md:12`, an inline code span holding a
 * path, a markdown link to a `.md` file) into links that ask the host to open the note. The link
 * carries only data: the click posts one `openNote` message, which the host validates and confines
 * to the kiln. Code blocks and existing web links are left alone.
 */
import { findNoteReferences, MAX_NOTE_LINKS, wholeReference, type NoteReference } from '../core/chat/context/noteReferences';

export const NOTE_LINK_CLASS = 'note-link';

/** Makes a link element for a reference; `text` is what it shows. */
export function noteLink(doc: Document, target: string, line: number | undefined, text: string): HTMLAnchorElement {
  const link = doc.createElement('a');
  link.className = NOTE_LINK_CLASS;
  link.href = '#';
  link.textContent = text;
  link.dataset.target = target;
  if (line !== undefined) link.dataset.line = String(line);
  link.title = `Open ${target}${line !== undefined ? ` at line ${line}` : ''}`;
  return link;
}

/**
 * Links references under `root` in place; at most MAX_NOTE_LINKS per call. `known` are the kiln's
 * note paths with spaces or parentheses (the host sends them), linked whole where a reply cites them.
 */
export function linkNoteReferences(doc: Document, root: HTMLElement, known: readonly string[] = []): void {
  let budget = MAX_NOTE_LINKS - root.querySelectorAll(`a.${NOTE_LINK_CLASS}`).length;
  // Markdown links to notes (their href was kept aside by the sanitizer) become note links.
  for (const anchor of root.querySelectorAll<HTMLAnchorElement>('a[data-note-target]')) {
    if (budget-- <= 0) break;
    const link = noteLink(doc, anchor.dataset.noteTarget!, anchor.dataset.noteLine ? Number(anchor.dataset.noteLine) : undefined, anchor.textContent ?? '');
    anchor.replaceWith(link);
  }
  // An inline code span that is exactly a path (spaces allowed there) links as a whole.
  for (const code of root.querySelectorAll('code')) {
    if (budget <= 0) break;
    if (code.closest('pre, a')) continue;
    const ref = wholeReference(code.textContent ?? '');
    if (!ref) continue;
    budget--;
    const link = noteLink(doc, ref.target, ref.line, '');
    code.replaceWith(link);
    link.append(code);
  }
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = (node as Text).parentElement;
    if (parent && !parent.closest('pre, a, code')) texts.push(node as Text);
  }
  for (const text of texts) {
    if (budget <= 0) break;
    const refs = findNoteReferences(text.data, budget, known);
    if (refs.length === 0) continue;
    budget -= refs.length;
    text.replaceWith(...split(doc, text.data, refs));
  }
}

function split(doc: Document, data: string, refs: NoteReference[]): Node[] {
  const nodes: Node[] = [];
  let at = 0;
  for (const ref of refs) {
    if (ref.start > at) nodes.push(doc.createTextNode(data.slice(at, ref.start)));
    nodes.push(noteLink(doc, ref.target, ref.line, data.slice(ref.start, ref.end)));
    at = ref.end;
  }
  if (at < data.length) nodes.push(doc.createTextNode(data.slice(at)));
  return nodes;
}
