/**
 * Writes a reply to the Chat view with its note citations as anchors: each citation the reply
 * makes (`path.md:12`, `[[Note]]`) opens the note at the line; one that names no note of the kiln
 * stays text. Sources become `stream.reference`s with their line ranges.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import { resolveKilnNote } from '../../core/chat/context/kilnNoteTarget';
import { ReplyAnchors, type ReplySegment } from '../../core/chat/participant/replyAnchors';
import type { Source } from '../../core/chat/context/sources';

/** A kiln-relative note at a 1-based line (range) as a Location. */
export function noteLocation(kiln: string, path: string, line = 1, endLine = line): vscode.Location {
  const uri = vscode.Uri.file(join(kiln, ...path.split('/')));
  return new vscode.Location(uri, new vscode.Range(Math.max(0, line - 1), 0, Math.max(0, endLine - 1), 0));
}

export function streamSources(stream: vscode.ChatResponseStream, kiln: string, sources: readonly Source[]): void {
  for (const source of sources) stream.reference(noteLocation(kiln, source.path, source.startLine, source.endLine));
}

export class NoteStream {
  private readonly anchors = new ReplyAnchors();

  constructor(
    private readonly stream: vscode.ChatResponseStream,
    private readonly kiln: string | undefined,
  ) {}

  async write(chunk: string): Promise<void> {
    await this.emit(this.anchors.push(chunk));
  }

  async end(): Promise<void> {
    await this.emit(this.anchors.flush());
  }

  private async emit(segments: ReplySegment[]): Promise<void> {
    for (const segment of segments) {
      if (segment.kind === 'text') {
        this.stream.markdown(segment.text);
        continue;
      }
      const location = await this.locate(segment);
      // The Chat view writes an anchor as a markdown link: brackets in its title would break it.
      if (location) this.stream.anchor(location, segment.text.replace(/[[\]]/g, ''));
      else this.stream.markdown(segment.text);
    }
  }

  /** The note a citation names, confined to the kiln (never `..`, absolute or a link out); undefined when none. */
  private async locate(segment: Extract<ReplySegment, { kind: 'note' }>): Promise<vscode.Location | undefined> {
    if (!this.kiln) return undefined;
    try {
      const note = await resolveKilnNote(this.kiln, segment.target);
      const line = segment.line ?? 1;
      return new vscode.Location(vscode.Uri.file(note.absolute), new vscode.Position(line - 1, 0));
    } catch {
      return undefined;
    }
  }
}
