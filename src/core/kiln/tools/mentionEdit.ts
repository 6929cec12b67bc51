import type { ChangeOrigin } from '../../changes/changeRecord';
import type { BoundKilnContext } from './kilnTool';
import { KilnToolError } from './kilnToolErrors';
import { readNoteText } from './readTools';
import { actorOf, gated, journaledBy } from './writeTools';
import { applyLinkEdits } from '../links/linkRewrite';
import { mentionLink, type Mention } from '../links/unlinkedMentions';

/**
 * Turns one unlinked mention into a wikilink to `target`, through the write gate and the journal
 * like any tool's write (so "Undo Last Agent Change" and `hearth undo` revert it). The mention must
 * still be where it was found: a note edited since is refused, never patched at a guessed place.
 */
export async function linkMention(ctx: BoundKilnContext, target: string, mention: Pick<Mention, 'source' | 'line' | 'column' | 'text'>, origin?: ChangeOrigin): Promise<string> {
  const { where, text, bytes } = await readNoteText(ctx, mention.source);
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (lines[mention.line - 1]?.slice(mention.column, mention.column + mention.text.length) !== mention.text) {
    throw new KilnToolError('kiln.edit_no_match', `"${mention.text}" is no longer at line ${mention.line} of ${where.relative} (the note changed); look for mentions again.`);
  }
  const graph = await ctx.links.current();
  const link = mentionLink(target, graph.linkName(target), mention.text);
  const next = applyLinkEdits(text, [{ line: mention.line, column: mention.column, length: mention.text.length, text: link }]);
  await gated(where.relative, () => ctx.gate.write(where.relative, next, { mode: 'replace', before: bytes, actor: actorOf(origin), beforeWrite: journaledBy(ctx, 'link_mention', origin) }));
  return link;
}
