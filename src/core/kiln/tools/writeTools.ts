import { randomUUID } from 'node:crypto';
import { propertiesSchema } from './propertyValueSchema';
import * as z from 'zod';
import type { FileChange } from '../../changes/changeJournal';
import type { ChangeOrigin } from '../../changes/changeRecord';
import { applyReviewedChange } from '../../changes/changeReview';
import type { BeforeWrite } from '../../fs/writeGate';
import { defineKilnTool, type BoundKilnContext, type KilnTool, type KilnToolContext } from './kilnTool';
import { asKilnToolError, confineToolPath, type KilnPath } from './kilnPath';
import { KilnToolError } from './kilnToolErrors';
import { isNotePath } from '../notePaths';
import { joinNote, splitNote } from '../note';
import { readNoteText } from './readTools';

const notePathSchema = z.string().min(1).describe('Path of the note relative to the kiln; ".md" is added when there is no extension');
const frontmatterSchema = propertiesSchema;

/** Resolves a path for writing: confined to the kiln and always a markdown file. */
export async function notePathForWrite(ctx: KilnToolContext, path: string): Promise<KilnPath> {
  const withExtension = /\.[A-Za-z0-9]+$/.test(path.trim()) ? path : `${path.trim()}.md`;
  const where = await confineToolPath(ctx.kilnRoot, withExtension);
  if (!isNotePath(where.relative)) throw new KilnToolError('kiln.not_a_note', `"${where.relative}" is not a markdown note (.md)`);
  return where;
}

/** The gate's hook for one tool call: review or confirmation as `[chat].review_edits` says, then the journal. */
export function journaledBy(ctx: KilnToolContext, tool: string, origin: ChangeOrigin | undefined, signal?: AbortSignal): BeforeWrite {
  return (change, apply) => journaled(ctx, tool, origin, change, apply, signal);
}

/** Gate refusals in the kiln tools' words; protected-path and review refusals pass through. */
export async function gated<T>(input: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asKilnToolError(error, input);
  }
}

export function actorOf(origin: ChangeOrigin | undefined): string | undefined {
  return origin?.agent ?? origin?.client;
}

/** Runs `apply` (the note write) reviewed or confirmed as `[chat].review_edits` says, and journaled. */
async function journaled(
  ctx: KilnToolContext, tool: string, origin: ChangeOrigin | undefined, change: FileChange, apply: () => Promise<void>, signal?: AbortSignal,
): Promise<void> {
  const actor = { turn: origin?.turn ?? `call-${randomUUID()}`, agent: origin?.agent, client: origin?.client, tool };
  const policy = {
    journal: ctx.journal,
    reviewer: ctx.reviewer,
    reviewEdits: ctx.reviewEdits ?? 'never',
    confirmDestructive: ctx.confirmDestructive,
    confirm: (message: string, detail: string) => ctx.host.confirm(message, detail),
  };
  await applyReviewedChange(policy, change, actor, apply, signal);
}

export function writeTools(ctx: BoundKilnContext): KilnTool[] {
  const createNote = defineKilnTool({
    name: 'create_note',
    title: 'Create note',
    description: 'Create a new markdown note. Fails if the note exists (use update_note to change it).',
    schema: z.strictObject({
      path: notePathSchema,
      content: z.string().describe('Markdown body of the note'),
      frontmatter: frontmatterSchema.optional().describe('YAML frontmatter properties'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async handler(args, signal, origin) {
      const where = await notePathForWrite(ctx, args.path);
      const content = joinNote(args.frontmatter ?? {}, args.content);
      await gated(args.path, () => ctx.gate.write(where.relative, content, { mode: 'create', actor: actorOf(origin), beforeWrite: journaledBy(ctx, 'create_note', origin, signal) }));
      return `Created ${where.relative}`;
    },
  });

  const updateNote = defineKilnTool({
    name: 'update_note',
    title: 'Update note',
    description:
      'Change an existing note: `content` replaces the body (frontmatter kept); `frontmatter` properties are merged in (a null value removes a property).',
    schema: z
      .strictObject({ path: notePathSchema, content: z.string().optional(), frontmatter: frontmatterSchema.optional() })
      .refine((args) => args.content !== undefined || args.frontmatter !== undefined, 'give content, frontmatter or both'),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, signal, origin) {
      const where = await notePathForWrite(ctx, args.path);
      const { text: before, bytes } = await readNoteText(ctx, where.relative);
      const parts = splitNote(before);
      const frontmatter = { ...parts.frontmatter };
      for (const [key, value] of Object.entries(args.frontmatter ?? {})) {
        if (value === null) delete frontmatter[key];
        else frontmatter[key] = value;
      }
      // Without a frontmatter change the original block is kept byte for byte (comments, order).
      const next =
        args.frontmatter === undefined ? before.slice(0, before.length - parts.body.length) + (args.content ?? parts.body) : joinNote(frontmatter, args.content ?? parts.body);
      if (next === before) return `No change to ${where.relative}`;
      await gated(args.path, () => ctx.gate.write(where.relative, next, { mode: 'replace', before: bytes, actor: actorOf(origin), beforeWrite: journaledBy(ctx, 'update_note', origin, signal) }));
      return `Updated ${where.relative}`;
    },
  });

  const deleteNote = defineKilnTool({
    name: 'delete_note',
    title: 'Delete note',
    description: 'Delete a note from the kiln.',
    schema: z.strictObject({ path: notePathSchema }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, signal, origin) {
      const where = await notePathForWrite(ctx, args.path);
      const { bytes } = await readNoteText(ctx, where.relative);
      await gated(args.path, () => ctx.gate.remove(where.relative, { before: bytes, actor: actorOf(origin), beforeWrite: journaledBy(ctx, 'delete_note', origin, signal) }));
      return `Deleted ${where.relative}`;
    },
  });

  return [createNote, updateNote, deleteNote];
}
