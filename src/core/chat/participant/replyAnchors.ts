/**
 * A streamed reply cut into text and note citations, so the Chat view can show each citation
 * (`path.md:12`, `[[Note]]`, as noteReferences.ts finds them) as an anchor that opens the note at
 * the line. Text is held back only as long as a citation could still be cut in two: until a line
 * ends, or, in a line that does not end, up to the last space outside an open `[[`.
 */
import { findNoteReferences, type NoteReference } from '../context/noteReferences';

export type ReplySegment =
  | { kind: 'text'; text: string }
  /** `text` is what the reply said (the anchor's title); `target` a kiln-relative path or a wiki-link name. */
  | { kind: 'note'; text: string; target: string; wikilink: boolean; line?: number };

/** A line that does not end is passed on once it is this long (a reply without newlines still streams). */
const MAX_HELD = 400;

/** `text` cut into segments (a citation wrapped in backticks takes its backticks along). */
export function splitReply(text: string): ReplySegment[] {
  const out: ReplySegment[] = [];
  let at = 0;
  for (const ref of findNoteReferences(text)) {
    let { start, end } = ref;
    if (text[start - 1] === '`' && text[end] === '`') {
      start -= 1;
      end += 1;
    }
    if (start < at) continue;
    if (start > at) out.push({ kind: 'text', text: text.slice(at, start) });
    out.push(note(ref, text.slice(ref.start, ref.end)));
    at = end;
  }
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}

function note(ref: NoteReference, said: string): ReplySegment {
  return { kind: 'note', text: said, target: ref.target, wikilink: ref.kind === 'wikilink', ...(ref.line !== undefined ? { line: ref.line } : {}) };
}

/** Cuts a reply as it streams: push each chunk, flush at the end. */
export class ReplyAnchors {
  private held = '';

  push(chunk: string): ReplySegment[] {
    this.held += chunk;
    const cut = this.cutPoint();
    if (cut <= 0) return [];
    const ready = this.held.slice(0, cut);
    this.held = this.held.slice(cut);
    return splitReply(ready);
  }

  flush(): ReplySegment[] {
    const rest = this.held;
    this.held = '';
    return rest ? splitReply(rest) : [];
  }

  /** Where the held text may be cut without cutting a citation: after the last newline, else (when long) the last safe space. */
  private cutPoint(): number {
    const newline = this.held.lastIndexOf('\n');
    if (newline >= 0) return newline + 1;
    if (this.held.length < MAX_HELD) return 0;
    const open = this.held.lastIndexOf('[[');
    const limit = open > this.held.lastIndexOf(']]') ? open : this.held.length;
    const space = this.held.slice(0, limit).search(/\s\S*$/);
    return space > 0 ? space + 1 : limit === this.held.length ? 0 : limit;
  }
}
