import * as z from 'zod';
import { defineKilnTool, jsonResult, type BoundKilnContext, type KilnTool } from './kilnTool';
import { KilnToolError } from './kilnToolErrors';
import { readNoteText } from './readTools';
import { splitNote } from '../note';
import type { Backlink, GraphLink, LinkGraph } from '../links/linkGraph';
import { mentionNames } from '../links/unlinkedMentions';
import { joinHeading, roundScore, withoutZeroRelevance, type SearchResult } from '../../index/search/searchResult';
import { makeSnippet } from '../../index/search/snippet';
import { centroidsOf, type NearNote } from '../links/noteCentroids';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const notePathSchema = z.string().min(1).describe('Path of the note relative to the kiln, e.g. "projects/plan.md"');
/** How much of a note stands for it as a related-notes query: its title and opening, as a reader sees it first. */
const RELATED_QUERY_CHARS = 800;
/** A related note's section as agents get search hits (semanticSearchFn asks the index for as many characters). */
const RELATED_SNIPPET_CHARS = 1200;

/** An outgoing link as `get_links` and `hearth links --json` report it (types, not interfaces: JSON results need index signatures). */
export type LinkRow = {
  kind: 'wiki' | 'markdown';
  target: string;
  fragment?: string;
  alias?: string;
  embed?: boolean;
  line: number;
  path: string | null;
  ambiguous?: string[];
  outside_kiln?: boolean;
};

export type BacklinkRow = { source: string; line: number; context: string; kind: 'wiki' | 'markdown'; fragment?: string };

export type NoteLinksReport = { path: string; title: string; aliases: string[]; outgoing: LinkRow[]; backlinks: BacklinkRow[]; unresolved: LinkRow[] };

function outgoingRow(link: GraphLink): LinkRow {
  return {
    kind: link.kind,
    target: link.target,
    ...(link.fragment ? { fragment: link.fragment } : {}),
    ...(link.alias ? { alias: link.alias } : {}),
    ...(link.embed ? { embed: true } : {}),
    line: link.line,
    path: link.path ?? null,
    ...(link.ambiguous ? { ambiguous: link.ambiguous } : {}),
    ...(link.outside ? { outside_kiln: true } : {}),
  };
}

export function backlinkRows(links: readonly Backlink[]): BacklinkRow[] {
  return links.map(backlinkRow);
}

function backlinkRow(link: Backlink): BacklinkRow {
  return { source: link.source, line: link.line, context: link.context, kind: link.kind, ...(link.fragment ? { fragment: link.fragment } : {}) };
}

/** Links of one note (outgoing, backlinks with their line, unresolved), the shape of `get_links` and `hearth links --json`. */
export function noteLinks(graph: LinkGraph, path: string): NoteLinksReport {
  const note = graph.note(path);
  if (!note) throw new KilnToolError('kiln.not_found', `No note at "${path}"; use list_notes to see what exists`);
  const outgoing = note.links.filter((link) => !link.ignored);
  return {
    path,
    title: note.title,
    aliases: note.aliases,
    outgoing: outgoing.filter((link) => link.path).map(outgoingRow),
    backlinks: graph.backlinks(path).map(backlinkRow),
    unresolved: outgoing.filter((link) => !link.path).map(outgoingRow),
  };
}

/** The kiln path of a note as a tool or command names it (".md" optional). */
export function notePathIn(graph: LinkGraph, path: string): string {
  const clean = path.replace(/\\/g, '/').replace(/^\.\//, '');
  if (graph.has(clean)) return clean;
  if (graph.has(`${clean}.md`)) return `${clean}.md`;
  throw new KilnToolError('kiln.not_found', `No note at "${path}"; use list_notes to see what exists`);
}

/** One related note: a search hit's note-level fields, and whether the note asked about already links to it. */
export type RelatedNote = Omit<SearchResult, 'sections'> & { linked: boolean };

/**
 * Notes related to a note or to a text, one result per note with its best section. A note's are the
 * notes whose meaning as a whole (the centroid of their chunks' vectors) is nearest to its own,
 * where the index hands out vectors (the flat store); elsewhere, and for a text, the index's hybrid
 * ranking with the note's title and opening (or the text) as the query. The note itself is left out.
 */
export async function relatedNotes(
  ctx: BoundKilnContext,
  from: { path?: string; text?: string },
  limit: number,
  signal?: AbortSignal,
): Promise<Record<string, unknown> & { results: RelatedNote[] }> {
  if (!ctx.semanticSearch) {
    throw new KilnToolError('kiln.index_unavailable', 'Related notes need the kiln index, and there is none yet (run `hearth index`). Use get_links or text_search meanwhile.');
  }
  let query = from.text ?? '';
  let linked = new Set<string>();
  let results: RelatedNote[] | undefined;
  if (from.path) {
    const { where, text } = await readNoteText(ctx, from.path);
    const graph = await ctx.links.current();
    linked = new Set(graph.outgoing(where.relative).flatMap((link) => (link.path ? [link.path] : [])));
    const title = graph.note(where.relative)?.title ?? '';
    query = `${title}\n${splitNote(text).body}`.slice(0, RELATED_QUERY_CHARS);
    from = { path: where.relative };
    const source = await ctx.semanticSearch.notes?.();
    const near = source && (await centroidsOf(source).nearest(where.relative, limit, signal));
    results = near && near.map((note) => relatedByMeaning(note, linked));
  }
  if (!query.trim()) throw new KilnToolError('kiln.invalid_arguments', 'Give a note path or a text to find related notes for');
  if (!results) {
    const hits: SearchResult[] = await ctx.semanticSearch(query, limit + 1, signal);
    results = hits
      .filter((hit) => hit.path !== from.path)
      .slice(0, limit)
      .map((hit): RelatedNote => ({
        path: hit.path, title: hit.title, heading: hit.heading, startLine: hit.startLine, endLine: hit.endLine,
        score: hit.score, snippet: hit.snippet, linked: linked.has(hit.path),
      }));
  }
  results = withoutZeroRelevance(results);
  const indexing = ctx.semanticSearch.indexing?.();
  return { ...(from.path ? { path: from.path } : { text: query.slice(0, 200) }), count: results.length, results, ...(indexing ? { indexing } : {}) };
}

/** A note near in meaning as a result: its section nearest to the note asked about, as search shows one. */
function relatedByMeaning(note: NearNote, linked: ReadonlySet<string>): RelatedNote {
  const { chunk } = note;
  return {
    path: note.path, title: chunk.title, heading: joinHeading(chunk.headingPath), startLine: chunk.startLine, endLine: chunk.endLine,
    score: roundScore(note.score), snippet: makeSnippet(chunk.text, '', RELATED_SNIPPET_CHARS), linked: linked.has(note.path),
  };
}

export function linkTools(ctx: BoundKilnContext): KilnTool[] {
  const getLinks = defineKilnTool({
    name: 'get_links',
    title: 'Get links',
    description:
      "A note's links: outgoing (wikilinks [[…]], embeds and markdown links to notes, each with the note it leads to; ambiguous names list every candidate), backlinks (other notes linking to it, each with its line of text), and unresolved links (targets that are no note).",
    schema: z.strictObject({ path: notePathSchema }),
    annotations: READ_ONLY,
    async handler(args) {
      const { where } = await readNoteText(ctx, args.path);
      const graph = await ctx.links.refresh();
      const report = noteLinks(graph, notePathIn(graph, where.relative));
      if (ctx.teamLinks) report.backlinks = backlinkRows(await ctx.teamLinks.backlinks(graph, report.path));
      return jsonResult(report);
    },
  });

  const related = defineKilnTool({
    name: 'related_notes',
    title: 'Related notes',
    description:
      'The notes nearest in meaning to a note as a whole (by path: the mean of its sections\' vectors), or in meaning and words to a text, from the kiln index: one result per note with its best section and a relevance from 0 to 1; `linked` says whether the note already links to it.',
    schema: z
      .strictObject({
        path: z.string().min(1).optional().describe('Note to find related notes for'),
        text: z.string().min(1).max(10_000).optional().describe('Or a text (a paragraph, a selection) to find related notes for'),
        limit: z.number().int().min(1).max(50).optional().describe('Maximum number of notes (default 10)'),
      })
      .refine((args) => (args.path === undefined) !== (args.text === undefined), 'give either path or text'),
    annotations: READ_ONLY,
    async handler(args, signal) {
      return jsonResult(await relatedNotes(ctx, { path: args.path, text: args.text }, args.limit ?? 10, signal));
    },
  });

  const mentions = defineKilnTool({
    name: 'unlinked_mentions',
    title: 'Unlinked mentions',
    description:
      "Places in other notes that name a note's title, file name or an alias in plain text without linking to it (whole words, case-insensitive; code and existing links are skipped): candidates for a [[link]].",
    schema: z.strictObject({ path: notePathSchema, limit: z.number().int().min(1).max(500).optional().describe('Maximum number of mentions (default 50)') }),
    annotations: READ_ONLY,
    async handler(args) {
      const { where } = await readNoteText(ctx, args.path);
      const graph = await ctx.links.refresh();
      const path = notePathIn(graph, where.relative);
      const found = await ctx.links.unlinkedMentions(path, args.limit ?? 50);
      return jsonResult({ path, names: mentionNames(graph.note(path)!), count: found.length, mentions: found });
    },
  });

  return [getLinks, related, mentions];
}
