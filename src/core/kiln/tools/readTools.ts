import * as z from 'zod';
import { defineKilnTool, jsonResult, type BoundKilnContext, type KilnTool } from './kilnTool';
import { asKilnToolError, confineToolPath, type KilnPath } from './kilnPath';
import { KilnToolError } from './kilnToolErrors';
import { listNotePaths } from '../kilnWalk';
import { isNotePath } from '../notePaths';
import { parseNote, wikiLinkTargets } from '../note';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const notePathSchema = z.string().min(1).describe('Path of the note relative to the kiln, e.g. "projects/plan.md"');

/**
 * Reads an existing note inside the kiln, opened confined (no link followed, the descriptor checked
 * inside the kiln); the size limit keeps a huge file from flooding a model's context.
 */
export async function readNoteText(ctx: BoundKilnContext, path: string): Promise<{ where: KilnPath; text: string; bytes: Buffer; size: number; modified: Date }> {
  const where = await confineToolPath(ctx.kilnRoot, path);
  if (!isNotePath(where.relative)) throw new KilnToolError('kiln.not_a_note', `"${where.relative}" is not a markdown note`);
  try {
    const read = await ctx.files.readText(where.relative, { maxBytes: ctx.scanRules.max_file_size_kb * 1024 });
    return { where, text: read.text, bytes: read.bytes, size: read.size, modified: read.modified };
  } catch (error) {
    throw asKilnToolError(error, path);
  }
}

export function readTools(ctx: BoundKilnContext): KilnTool[] {
  const readNote = defineKilnTool({
    name: 'read_note',
    title: 'Read note',
    description: 'Read a markdown note from the kiln. Optionally only lines start_line..end_line (1-based, inclusive).',
    schema: z.strictObject({
      path: notePathSchema,
      start_line: z.number().int().min(1).optional().describe('First line to return (1-based)'),
      end_line: z.number().int().min(1).optional().describe('Last line to return (inclusive)'),
    }),
    annotations: READ_ONLY,
    async handler(args) {
      const { where, text } = await readNoteText(ctx, args.path);
      if (args.start_line === undefined && args.end_line === undefined) return text;
      const lines = text.split('\n');
      const start = args.start_line ?? 1;
      const end = Math.min(args.end_line ?? lines.length, lines.length);
      if (start > end) throw new KilnToolError('kiln.invalid_arguments', `"${where.relative}" has ${lines.length} lines; start_line ${start} is past end_line ${end}`);
      return lines.slice(start - 1, end).join('\n');
    },
  });

  const readMetadata = defineKilnTool({
    name: 'read_metadata',
    title: 'Read note metadata',
    description: "A note's frontmatter, title, tags, wikilinks, size and modification time, without its body.",
    schema: z.strictObject({ path: notePathSchema }),
    annotations: READ_ONLY,
    async handler(args) {
      const { where, text, size, modified } = await readNoteText(ctx, args.path);
      const note = parseNote(where.relative, text);
      return jsonResult({
        path: where.relative,
        title: note.title,
        frontmatter: note.frontmatter,
        tags: note.tags,
        links: wikiLinkTargets(note),
        lines: text.split('\n').length,
        size,
        modified: modified.toISOString(),
      });
    },
  });

  const listNotes = defineKilnTool({
    name: 'list_notes',
    title: 'List notes',
    description: 'List the markdown notes in the kiln, or in one folder of it (recursive by default).',
    schema: z.strictObject({
      folder: z.string().optional().describe('Folder relative to the kiln; the whole kiln when omitted'),
      recursive: z.boolean().optional().describe('Include sub-folders (default true)'),
    }),
    annotations: READ_ONLY,
    async handler(args) {
      const folder = await confineToolPath(ctx.kilnRoot, args.folder ?? '', { allowRoot: true });
      const info = await ctx.files.stat(folder.relative).catch((error: unknown) => Promise.reject(asKilnToolError(error, args.folder ?? '')));
      if (!info?.isDirectory()) throw new KilnToolError('kiln.not_found', `No folder "${folder.relative}" in the kiln`);
      const notes = await listNotePaths(ctx.files, folder.relative, { recursive: args.recursive ?? true, exclude: ctx.exclude });
      return jsonResult({ folder: folder.relative || '.', count: notes.length, notes });
    },
  });

  const kilnInfo = defineKilnTool({
    name: 'get_kiln_info',
    title: 'Kiln info',
    description: 'Where the kiln is, how many notes it holds, and whether semantic search is available.',
    schema: z.strictObject({}),
    annotations: READ_ONLY,
    async handler() {
      const notes = await listNotePaths(ctx.files, '', { recursive: true, exclude: ctx.exclude });
      const folders = new Set(notes.map((note) => note.split('/').slice(0, -1).join('/')).filter(Boolean));
      return jsonResult({ root: ctx.kilnRoot, notes: notes.length, folders: folders.size, semantic_search: ctx.semanticSearch !== undefined });
    },
  });

  return [readNote, readMetadata, listNotes, kilnInfo];
}
