import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { ChangeOrigin } from '../../changes/changeRecord';
import { defineKilnTool, type BoundKilnContext, type KilnTool } from './kilnTool';
import { readNoteText } from './readTools';
import { applySpanEdits } from './spanEdits';
import { actorOf, gated, journaledBy, notePathForWrite } from './writeTools';
import { KilnToolError } from './kilnToolErrors';
import { applyLinkEdits, linkEditsForMove, relativePath, type LinkEdit } from '../links/linkRewrite';
import { folderOf } from '../links/linkTargets';
import type { LinkGraph } from '../links/linkGraph';

const notePathSchema = z.string().min(1).describe('Path of the note relative to the kiln; ".md" is added when there is no extension');

/** The outcome of a move, as `move_note` reports it and the editor shows it. */
export interface MoveOutcome {
  from: string;
  to: string;
  /** Notes whose links were rewritten (the moved note itself not counted), with how many links each. */
  updated: { path: string; links: number }[];
}

/**
 * Moves a note and rewrites the links to it, every write through the gate, reviewed and journaled
 * under one turn, so one undo puts every file back. The new note is written first and the old one
 * removed last: a refusal half-way leaves both, never neither.
 */
export async function moveNote(
  ctx: BoundKilnContext, fromInput: string, toInput: string, options: { updateLinks: boolean; origin?: ChangeOrigin; signal?: AbortSignal },
): Promise<MoveOutcome> {
  const from = await notePathForWrite(ctx, fromInput);
  const to = await notePathForWrite(ctx, toInput);
  if (from.relative === to.relative) throw new KilnToolError('kiln.invalid_arguments', `"${from.relative}" is already there`);
  const { text, bytes } = await readNoteText(ctx, from.relative);
  const graph = await ctx.links.refresh();
  const edits = options.updateLinks ? linkEditsForMove(graph, from.relative, to.relative) : new Map<string, LinkEdit[]>();
  const own = [...(edits.get(from.relative) ?? []), ...ownMarkdownEdits(graph, from.relative, to.relative)];
  edits.delete(from.relative);
  const origin: ChangeOrigin = { ...options.origin, turn: options.origin?.turn ?? `call-${randomUUID()}` };
  const hook = journaledBy(ctx, 'move_note', origin, options.signal);
  const actor = actorOf(origin);
  await gated(toInput, () => ctx.gate.write(to.relative, applyLinkEdits(text, own), { mode: 'create', actor, beforeWrite: hook }));
  const updated: MoveOutcome['updated'] = [];
  for (const [source, list] of [...edits].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const current = await readNoteText(ctx, source);
    const next = applyLinkEdits(current.text, list);
    if (next === current.text) continue;
    await gated(source, () => ctx.gate.write(source, next, { mode: 'replace', before: current.bytes, actor, beforeWrite: hook }));
    updated.push({ path: source, links: list.length });
  }
  await gated(fromInput, () => ctx.gate.remove(from.relative, { before: bytes, actor, beforeWrite: hook }));
  return { from: from.relative, to: to.relative, updated };
}

/** The moved note's own markdown links to other notes, re-pointed from its new folder. */
function ownMarkdownEdits(graph: LinkGraph, from: string, to: string): LinkEdit[] {
  if (folderOf(from) === folderOf(to)) return [];
  const out: LinkEdit[] = [];
  for (const link of graph.outgoing(from)) {
    if (link.kind !== 'markdown' || !link.path || link.path === from) continue;
    const hash = link.target.indexOf('#');
    const text = relativePath(folderOf(to), link.path).replace(/ /g, '%20') + (hash < 0 ? '' : link.target.slice(hash));
    if (text !== link.target) out.push({ line: link.line, column: link.targetColumn, length: link.target.length, text });
  }
  return out;
}

export function noteEditTools(ctx: BoundKilnContext): KilnTool[] {
  const editNote = defineKilnTool({
    name: 'edit_note',
    title: 'Edit note',
    description:
      'Change parts of a note without resending it: each edit replaces the exact text `old` with `new`. Every `old` must occur exactly once in the note (as it is before the edits; include surrounding words to make it unique), else nothing changes and the error lists the matches. Line endings and a byte order mark are kept.',
    schema: z.strictObject({
      path: notePathSchema,
      edits: z
        .array(z.strictObject({ old: z.string().min(1).describe('Exact text to replace (must occur once)'), new: z.string().describe('Text to put in its place') }))
        .min(1)
        .max(100)
        .describe('The replacements, applied together'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async handler(args, signal, origin) {
      const where = await notePathForWrite(ctx, args.path);
      const { text, bytes } = await readNoteText(ctx, where.relative);
      const next = applySpanEdits(where.relative, text, args.edits);
      if (next === text) return `No change to ${where.relative}`;
      await gated(args.path, () => ctx.gate.write(where.relative, next, { mode: 'replace', before: bytes, actor: actorOf(origin), beforeWrite: journaledBy(ctx, 'edit_note', origin, signal) }));
      return `Edited ${where.relative} (${args.edits.length} ${args.edits.length === 1 ? 'change' : 'changes'})`;
    },
  });

  const moveNoteTool = defineKilnTool({
    name: 'move_note',
    title: 'Move note',
    description:
      'Rename or move a note and rewrite every wikilink (and markdown link) to it in the other notes, as one change that one undo reverts. Fails if a note exists at the new path.',
    schema: z.strictObject({
      from: notePathSchema,
      to: notePathSchema.describe('New path relative to the kiln; ".md" is added when there is no extension'),
      update_links: z.boolean().optional().describe('Rewrite the links to the note (default true)'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async handler(args, signal, origin) {
      const outcome = await moveNote(ctx, args.from, args.to, { updateLinks: args.update_links ?? true, origin, signal });
      const links = outcome.updated.reduce((sum, note) => sum + note.links, 0);
      const detail = outcome.updated.length === 0 ? 'no links to update' : `updated ${links} ${links === 1 ? 'link' : 'links'} in ${outcome.updated.length} ${outcome.updated.length === 1 ? 'note' : 'notes'}: ${outcome.updated.map((n) => n.path).join(', ')}`;
      return `Moved ${outcome.from} to ${outcome.to}; ${detail}`;
    },
  });

  return [editNote, moveNoteTool];
}
