/**
 * A member's links in the team database (`store = "postgres"`), kept in step with its graph: before
 * each answer only the notes whose links changed since the last one are sent (and the notes gone
 * are withdrawn), then the backlinks come back with every member's.
 */
import type { Backlink, GraphLink, LinkGraph } from './linkGraph';

/** The database side (postgresLinks.ts), opened for one answer and closed after it. */
export interface TeamLinkStore {
  publish(notes: readonly { path: string; links: readonly GraphLink[] }[]): Promise<void>;
  remove(source: string): Promise<void>;
  backlinks(path: string): Promise<Backlink[]>;
  dispose(): Promise<void>;
}

export class TeamLinks {
  /** Per published note: what its links resolved to when sent. */
  private readonly sent = new Map<string, string>();

  constructor(private readonly open: () => Promise<TeamLinkStore>) {}

  /** `path`'s backlinks: this member's graph, with the team's that it does not hold. */
  async backlinks(graph: LinkGraph, path: string): Promise<Backlink[]> {
    const store = await this.open();
    try {
      const changed: { path: string; links: readonly GraphLink[] }[] = [];
      const now = new Map<string, string>();
      for (const note of graph.allNotes()) {
        const print = fingerprint(note.links);
        now.set(note.path, print);
        if (this.sent.get(note.path) !== print) changed.push({ path: note.path, links: note.links });
      }
      if (changed.length > 0) await store.publish(changed);
      for (const gone of [...this.sent.keys()].filter((known) => !now.has(known))) await store.remove(gone);
      this.sent.clear();
      for (const [known, print] of now) this.sent.set(known, print);
      return mergeBacklinks(graph.backlinks(path), await store.backlinks(path));
    } finally {
      await store.dispose();
    }
  }
}

function fingerprint(links: readonly GraphLink[]): string {
  return links.map((link) => `${link.line}:${link.target}#${link.fragment ?? ''}>${link.path ?? ''}|${link.context}`).join('\n');
}

/** The backlinks this member's graph knows, with the team's from notes it does not hold (another member's). */
export function mergeBacklinks(local: readonly Backlink[], team: readonly Backlink[]): Backlink[] {
  const known = new Set(local.map((link) => link.source));
  return [...local, ...team.filter((link) => !known.has(link.source))].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.line - b.line));
}
