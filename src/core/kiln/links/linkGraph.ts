import type { NoteBlock, NoteHeading, NoteLink, ParsedNote } from '../note';
import { fragmentKey, markdownQuery, nameKey, wikiQuery, type LinkQuery } from './linkTargets';
import { addTo, NoteNames, removeFrom, type Resolution } from './noteNames';

/** The longest line of context kept with a link (a backlink shows it). */
const CONTEXT_CHARS = 240;
/** Notes per step of a bulk build: a few milliseconds of work between two yields. */
const BULK_BATCH = 128;

/** One outgoing link of a note, with where it leads. */
export interface GraphLink extends Omit<NoteLink, 'target'>, Resolution {
  target: string;
  /** The line holding the link, trimmed (at most 240 characters). */
  context: string;
  /** Links that cannot be notes (URLs, attachments): kept out of "unresolved". */
  ignored?: boolean;
}

/** What the graph keeps of a note (no text beyond each link's line). */
export interface GraphNote {
  path: string;
  title: string;
  aliases: string[];
  headings: NoteHeading[];
  blocks: NoteBlock[];
  links: GraphLink[];
}

/** A link into a note, from `source`. */
export interface Backlink extends GraphLink {
  source: string;
}

interface PendingLink {
  link: GraphLink;
  query: LinkQuery;
  /** The name key the link's resolution depends on. */
  name: string;
}

/**
 * The kiln's links as a graph: every note's outgoing links resolved (DESIGN.md decision 23),
 * backlinks, unresolved links. Kept current one note at a time: a change re-resolves only the
 * links whose answer it can change (those naming the note's file name or one of its aliases),
 * never the whole kiln.
 */
export class LinkGraph {
  private readonly notes = new Map<string, GraphNote>();
  private readonly queries = new Map<string, PendingLink[]>();
  private readonly names = new NoteNames();
  /** Name key → notes holding a link whose answer depends on it. */
  private readonly dependents = new Map<string, Set<string>>();
  /** Note path → notes linking to it (with how many links). */
  private readonly incoming = new Map<string, Map<string, number>>();
  /** Notes of a first build whose links are not resolved yet (stage, then resolveStaged). */
  private staged: string[] = [];
  /** The staged links' queries by kind and target, shared while staging. */
  private readonly stagedQueries = new Map<string, { query: LinkQuery; name: string }>();

  /** Counts changes: whoever caches something derived from the graph (completion entries) compares it. */
  private changes = 0;

  get version(): number {
    return this.changes;
  }

  get size(): number {
    return this.notes.size;
  }

  has(path: string): boolean {
    return this.notes.has(path);
  }

  note(path: string): GraphNote | undefined {
    return this.notes.get(path);
  }

  paths(): IterableIterator<string> {
    return this.notes.keys();
  }

  allNotes(): IterableIterator<GraphNote> {
    return this.notes.values();
  }

  /** Adds or replaces a note from its parse. */
  set(parsed: ParsedNote): void {
    this.changes++;
    const previous = this.notes.get(parsed.path);
    const entry = graphNote(parsed);
    const touched = new Set<string>();
    if (previous) {
      this.dropLinks(previous.path);
      if (!sameList(previous.aliases, entry.aliases)) {
        this.names.remove(previous.path, previous.aliases);
        this.names.add(entry.path, entry.aliases);
        for (const alias of [...previous.aliases, ...entry.aliases]) touched.add(alias.toLowerCase());
      }
    } else {
      this.names.add(entry.path, entry.aliases);
      touched.add(nameKey(entry.path));
      for (const alias of entry.aliases) touched.add(alias.toLowerCase());
    }
    this.notes.set(entry.path, entry);
    this.queries.set(entry.path, parsed.links.map((link, i) => pending(link, entry.links[i])));
    this.addLinks(entry.path);
    this.reresolve(touched, entry.path);
  }

  /**
   * Adds many notes at once (a kiln read from disk): into an empty graph every name is known before
   * any link resolves, so each link resolves once; otherwise one note at a time.
   */
  setAll(parsed: readonly ParsedNote[]): void {
    for (const _ of this.setAllSteps(parsed)) {
      // Run to the end in one go: the caller does not share the thread with anyone.
    }
  }

  /**
   * setAll in steps of at most `batch` notes, so a host sharing its thread (the editor) can yield
   * between them. Nothing else may change the graph until the last step (KilnLinks holds changes
   * back meanwhile). Into an empty graph every name is registered before any link resolves.
   */
  *setAllSteps(parsed: readonly ParsedNote[], batch = BULK_BATCH): Generator<number, void, void> {
    this.changes++;
    if (this.notes.size > 0) {
      for (let i = 0; i < parsed.length; i++) {
        this.set(parsed[i]);
        if ((i + 1) % batch === 0) yield i + 1;
      }
      return;
    }
    for (let i = 0; i < parsed.length; i++) {
      this.stage(parsed[i]);
      if ((i + 1) % batch === 0) yield i + 1;
    }
    for (const done of this.resolveStaged(batch)) yield parsed.length + done;
  }

  /**
   * Takes a note of a first build in: its names count at once, its links resolve in resolveStaged,
   * and only what the graph keeps of it is held (a reader hands notes over as it parses them, and
   * their whole parses are left for the collector). Into a graph holding resolved notes it is set.
   */
  stage(parsed: ParsedNote): void {
    if (this.notes.size !== this.staged.length) {
      this.set(parsed);
      return;
    }
    const entry = graphNote(parsed);
    const previous = this.notes.get(entry.path);
    // Staged twice: the later text replaces the earlier, still unresolved.
    if (previous) this.names.remove(previous.path, previous.aliases);
    else this.staged.push(entry.path);
    this.changes++;
    this.notes.set(entry.path, entry);
    this.queries.set(entry.path, parsed.links.map((link, k) => pending(link, entry.links[k], this.stagedQueries)));
    this.names.add(entry.path, entry.aliases);
  }

  /** Resolves the staged notes' links, `batch` notes a step; a target name is resolved once for all the links naming it. */
  *resolveStaged(batch = BULK_BATCH): Generator<number, void, void> {
    const staged = this.staged;
    const memo = new Map<string, Resolution>();
    for (let i = 0; i < staged.length; i++) {
      this.addLinks(staged[i], memo);
      if ((i + 1) % batch === 0) yield i + 1;
    }
    this.staged = [];
    this.stagedQueries.clear();
    this.changes++;
  }

  remove(path: string): boolean {
    const entry = this.notes.get(path);
    if (!entry) return false;
    this.changes++;
    this.dropLinks(path);
    this.notes.delete(path);
    this.queries.delete(path);
    this.names.remove(path, entry.aliases);
    this.reresolve(new Set([nameKey(path), ...entry.aliases.map((a) => a.toLowerCase())]));
    return true;
  }

  /** Moves a note; with `parsed` (the text at the new path) its content is replaced too. */
  rename(from: string, to: string, parsed?: ParsedNote): void {
    const entry = this.notes.get(from);
    this.remove(from);
    if (parsed) this.set({ ...parsed, path: to });
    else if (entry) this.setEntry({ ...entry, path: to }, this.queriesOf(from, entry));
  }

  outgoing(path: string): GraphLink[] {
    return this.notes.get(path)?.links ?? [];
  }

  /** Links into `path` from other notes (and itself), in source path order then line. */
  backlinks(path: string): Backlink[] {
    const sources = this.incoming.get(path);
    if (!sources) return [];
    const out: Backlink[] = [];
    for (const source of [...sources.keys()].sort()) {
      for (const link of this.notes.get(source)?.links ?? []) if (link.path === path) out.push({ ...link, source });
    }
    return out;
  }

  /** Links that lead nowhere (URLs and attachments aside), of one note or of the whole kiln. */
  unresolved(path?: string): Backlink[] {
    const out: Backlink[] = [];
    const sources = path === undefined ? [...this.notes.keys()].sort() : [path];
    for (const source of sources) for (const link of this.notes.get(source)?.links ?? []) if (!link.path && !link.ignored) out.push({ ...link, source });
    return out;
  }

  /** The 1-based line a `#heading` or `#^block` fragment points at in `path`, when it exists. */
  fragmentLine(path: string, fragment: string): number | undefined {
    const note = this.notes.get(path);
    if (!note) return undefined;
    const key = fragmentKey(fragment);
    if (key.startsWith('^')) return note.blocks.find((b) => b.id.toLowerCase() === key.slice(1))?.line;
    return note.headings.find((h) => fragmentKey(h.text) === key)?.line;
  }

  /** The shortest wikilink text naming `path` unambiguously: its file name, else its path (no `.md`). */
  linkName(path: string): string {
    const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
    return this.names.named(nameKey(path)).length <= 1 ? name : path.replace(/\.md$/i, '');
  }

  resolveTarget(target: string, source: string): Resolution {
    return this.names.resolve(wikiQuery(target), source);
  }

  private queriesOf(path: string, entry: GraphNote): PendingLink[] {
    return this.queries.get(path) ?? entry.links.map((link) => pending(link, link));
  }

  private setEntry(entry: GraphNote, queries: PendingLink[]): void {
    this.notes.set(entry.path, entry);
    this.queries.set(entry.path, queries);
    this.names.add(entry.path, entry.aliases);
    this.addLinks(entry.path);
    this.reresolve(new Set([nameKey(entry.path), ...entry.aliases.map((a) => a.toLowerCase())]), entry.path);
  }

  /** Resolves a note's links and records it as depending on their names and linking to their notes. */
  private addLinks(path: string, memo?: Map<string, Resolution>): void {
    for (const item of this.queries.get(path) ?? []) {
      if (item.name) addTo(this.dependents, item.name, path);
      this.resolveItem(path, item, memo);
    }
  }

  private dropLinks(path: string): void {
    for (const item of this.queries.get(path) ?? []) {
      if (item.name) removeFrom(this.dependents, item.name, path);
      this.unlinkItem(path, item);
    }
  }

  /** `memo`: answers by name during a bulk build, when no name changes between two lookups. */
  private resolveItem(path: string, item: PendingLink, memo?: Map<string, Resolution>): void {
    let found: Resolution;
    if (memo && !item.query.relative) {
      const known = memo.get(item.query.key);
      if (known) found = known;
      else memo.set(item.query.key, (found = this.names.resolve(item.query, path)));
    } else found = this.names.resolve(item.query, path);
    item.link.path = found.path;
    item.link.ambiguous = found.ambiguous;
    item.link.outside = found.outside;
    if (!found.path) return;
    let sources = this.incoming.get(found.path);
    if (!sources) this.incoming.set(found.path, (sources = new Map()));
    sources.set(path, (sources.get(path) ?? 0) + 1);
  }

  private unlinkItem(path: string, item: PendingLink): void {
    const target = item.link.path;
    const sources = target ? this.incoming.get(target) : undefined;
    if (!sources) return;
    const left = (sources.get(path) ?? 1) - 1;
    if (left > 0) sources.set(path, left);
    else sources.delete(path);
    if (sources.size === 0) this.incoming.delete(target!);
  }

  /** Re-resolves the links naming one of `names` in every note holding one (except `skip`, just resolved). */
  private reresolve(names: ReadonlySet<string>, skip?: string): void {
    for (const name of names) {
      for (const source of this.dependents.get(name) ?? []) {
        if (source === skip) continue;
        for (const item of this.queries.get(source) ?? []) {
          if (item.name !== name) continue;
          this.unlinkItem(source, item);
          this.resolveItem(source, item);
        }
      }
    }
  }
}

function graphNote(parsed: ParsedNote): GraphNote {
  return {
    path: parsed.path,
    title: parsed.title,
    aliases: aliasesOf(parsed.frontmatter),
    headings: parsed.headings,
    blocks: parsed.blocks,
    links: parsed.links.map((link) => graphLink(link, parsed.lines[link.line - 1] ?? '')),
  };
}

/** Every field present, in one order: the graph holds many of these, and one object shape keeps them small and fast. */
function graphLink(link: NoteLink, line: string): GraphLink {
  return {
    kind: link.kind, target: link.target, line: link.line, column: link.column, length: link.length, targetColumn: link.targetColumn,
    fragment: link.fragment, alias: link.alias, embed: link.embed,
    context: line.length > CONTEXT_CHARS ? line.trim().slice(0, CONTEXT_CHARS) : line.trim(),
    path: undefined, ambiguous: undefined, outside: undefined, ignored: undefined,
  };
}

/**
 * A link with its query. `shared` (a first build): links with the same kind and target share one
 * query and name, which are pure functions of them (most targets are named by many notes).
 */
function pending(source: NoteLink | GraphLink, link: GraphLink, shared?: Map<string, { query: LinkQuery; name: string }>): PendingLink {
  const id = shared && `${source.kind}\0${source.target}`;
  let asked = id === undefined ? undefined : shared!.get(id);
  if (!asked) {
    const query = source.kind === 'wiki' ? wikiQuery(source.target) : markdownQuery(source.target);
    asked = { query, name: query.key.slice(query.key.lastIndexOf('/') + 1) };
    if (id !== undefined) shared!.set(id, asked);
  }
  const { query, name } = asked;
  if (query.ignored) link.ignored = true;
  if (query.fragment && link.fragment === undefined) link.fragment = query.fragment;
  return { link, query, name };
}

/** Frontmatter `aliases` (or `alias`): a list or one string, as Obsidian reads them. */
export function aliasesOf(frontmatter: Record<string, unknown>): string[] {
  const value = frontmatter.aliases ?? frontmatter.alias;
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return [...new Set(list.filter((a): a is string => typeof a === 'string').map((a) => a.trim()).filter((a) => a.length > 0 && a.length <= 200))];
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
