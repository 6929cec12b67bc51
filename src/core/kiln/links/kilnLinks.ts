import { setImmediate as nextTurn } from 'node:timers/promises';
import { ConfinedRoot } from '../../fs/confinedRoot';
import { mapLimit, scanKiln, scanPaths, type ScanRules, type ScannedNote } from '../kilnScanner';
import { isNotePath } from '../notePaths';
import { parseNote } from '../note';
import { LinkGraph } from './linkGraph';
import { mentionNames, mentionPattern, mentionsIn, type Mention } from './unlinkedMentions';

const READS_IN_FLIGHT = 16;
/** The longest the first build of a kiln's graph holds the thread before it yields (the editor's 20 ms budget, with room). */
const SLICE_MS = 8;

/**
 * A kiln's link graph kept in step with its files. Every note is read through the confined reader
 * (no link followed, nothing outside the kiln, `max_file_size_kb` honoured); a refresh re-reads only
 * the notes whose size or time changed, and the editor hands over single changes as they happen.
 */
export class KilnLinks {
  readonly graph = new LinkGraph();
  private readonly stamps = new Map<string, string>();
  private running: Promise<LinkGraph> | undefined;
  private scanned = false;
  /** While the first read's notes go into the graph in slices: changes wait for it (the graph takes none meanwhile). */
  private bulk: Promise<void> | undefined;
  /** Texts handed over by setText during the bulk build, applied after it. */
  private readonly heldTexts = new Map<string, string>();

  constructor(
    readonly files: ConfinedRoot,
    private readonly rules: ScanRules,
  ) {}

  /** Whether the whole kiln has been read once. */
  get ready(): boolean {
    return this.scanned;
  }

  /** Brings the graph up to date with the kiln (concurrent callers share one walk). */
  refresh(): Promise<LinkGraph> {
    this.running ??= this.walk().finally(() => (this.running = undefined));
    return this.running;
  }

  /** The graph, read once if it never was; later changes come through `update`. */
  async current(): Promise<LinkGraph> {
    return this.scanned ? this.graph : this.refresh();
  }

  /** Re-reads the given kiln-relative paths (a watcher's events): gone or excluded paths leave the graph. */
  async update(paths: readonly string[]): Promise<void> {
    await this.bulk;
    const scan = await scanPaths(this.files, paths, this.rules);
    const present = new Set(scan.notes.map((note) => note.path));
    for (const path of paths) {
      if (present.has(path)) continue;
      const prefix = `${path}/`;
      for (const known of [...this.graph.paths()]) if (known === path || known.startsWith(prefix)) this.forget(known);
    }
    await this.read(scan.notes);
  }

  /** Sets a note from text the caller holds (an editor's unsaved buffer). */
  setText(path: string, text: string): void {
    if (!isNotePath(path)) return;
    if (this.bulk) {
      this.heldTexts.set(path, text);
      return;
    }
    this.graph.set(parseNote(path, text));
    this.stamps.delete(path);
  }

  forget(path: string): void {
    this.graph.remove(path);
    this.stamps.delete(path);
  }

  /** Other notes naming `path`'s title, file name or an alias in plain text; at most `limit`. */
  async unlinkedMentions(path: string, limit = 100): Promise<Mention[]> {
    const graph = await this.current();
    const target = graph.note(path);
    if (!target) return [];
    const names = mentionNames(target);
    const pattern = mentionPattern(names);
    if (!pattern) return [];
    const lower = names.map((name) => name.toLowerCase());
    const found: Mention[] = [];
    const sources = [...graph.paths()].filter((source) => source !== path).sort();
    await mapLimit(sources, READS_IN_FLIGHT, async (source) => {
      if (found.length >= limit) return;
      const text = await this.text(source);
      if (text === undefined) return;
      const folded = text.toLowerCase();
      if (!lower.some((name) => folded.includes(name.split(/\s+/)[0]))) return;
      found.push(...mentionsIn(parseNote(source, text), new RegExp(pattern), limit - found.length));
    });
    return found.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.line - b.line || a.column - b.column)).slice(0, limit);
  }

  /** A note's text through the confined reader; undefined when it cannot be read (gone, a link, too large). */
  async text(path: string): Promise<string | undefined> {
    try {
      return (await this.files.readText(path, { maxBytes: this.rules.max_file_size_kb * 1024 })).text;
    } catch {
      return undefined;
    }
  }

  private async walk(): Promise<LinkGraph> {
    // The first walk fills an empty graph: changes handed over meanwhile wait for it, so an open
    // buffer's text is not overwritten by the file read after it.
    const first = this.graph.size === 0 && !this.bulk ? this.holdChanges() : undefined;
    try {
      const scan = await scanKiln(this.files, this.rules);
      const present = new Set(scan.notes.map((note) => note.path));
      for (const known of [...this.graph.paths()]) if (!present.has(known)) this.forget(known);
      await this.read(scan.notes.filter((note) => this.stamps.get(note.path) !== stamp(note)), first !== undefined);
      this.scanned = true;
    } finally {
      first?.();
    }
    return this.graph;
  }

  private async read(notes: readonly ScannedNote[], bulk = false): Promise<void> {
    // The first read of a kiln stages every note as it is parsed, then resolves their links in
    // slices: every name is known by then, so each link resolves once.
    await mapLimit(notes, READS_IN_FLIGHT, async (note) => {
      const text = await this.text(note.path);
      if (text === undefined) {
        this.forget(note.path);
        return;
      }
      const parsed = parseNote(note.path, text);
      if (bulk) this.graph.stage(parsed);
      else this.graph.set(parsed);
      this.stamps.set(note.path, stamp(note));
    });
    if (!bulk) return;
    let since = performance.now();
    for (const _ of this.graph.resolveStaged()) {
      if (performance.now() - since < SLICE_MS) continue;
      await nextTurn();
      since = performance.now();
    }
  }

  /** Holds setText and update back until the returned function is called, then applies the held texts. */
  private holdChanges(): () => void {
    let release!: () => void;
    this.bulk = new Promise((resolve) => (release = resolve));
    return () => {
      this.bulk = undefined;
      release();
      for (const [path, text] of this.heldTexts) this.setText(path, text);
      this.heldTexts.clear();
    };
  }
}

function stamp(note: ScannedNote): string {
  return `${note.size}:${note.mtimeMs}`;
}

/** The link graph of the kiln at `root`, read once. */
export async function readKilnLinks(root: string | ConfinedRoot, rules: ScanRules): Promise<KilnLinks> {
  const links = new KilnLinks(typeof root === 'string' ? new ConfinedRoot(root) : root, rules);
  await links.refresh();
  return links;
}
