import type { ConfinedRoot } from '../fs/confinedRoot';
import type { ParsedNote } from './note';
import { SearchQueryError } from './textSearch';
import { walkNotes, type WalkScope } from './walkNotes';

/**
 * The one property search, for `hearth search --mode property`, the editor and the
 * `property_search` tool: notes whose frontmatter has every wanted property, in path order, at most
 * `limit`. `tags` holds the note's tags (frontmatter and inline `#tags`), as parseNote reads them.
 */
export async function propertySearch(
  kiln: ConfinedRoot | string, scope: WalkScope, wanted: readonly (readonly [string, unknown])[], limit: number, signal?: AbortSignal,
): Promise<ParsedNote[]> {
  const found: ParsedNote[] = [];
  await walkNotes(kiln, scope, () => found.length >= limit, (note) => {
    const fields = noteProperties(note);
    if (wanted.every(([key, value]) => matchesProperty(fields[key], value))) found.push(note);
  }, signal);
  return found;
}

/** The properties a property search sees: the frontmatter, with `tags` as parseNote reads them. */
export function noteProperties(note: Pick<ParsedNote, 'frontmatter' | 'tags'>): Record<string, unknown> {
  return { ...note.frontmatter, tags: note.tags };
}

/** `status=draft tags=garden` (comma or space separated) as key/value pairs. */
export function parsePropertyQuery(query: string): [string, string][] {
  const pairs = query
    .split(/[,\s]+/)
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf('=');
      if (at <= 0) throw new SearchQueryError(`A property query is key=value pairs (e.g. status=draft tags=garden), not "${part}".`);
      return [part.slice(0, at), part.slice(at + 1)] as [string, string];
    });
  if (pairs.length === 0) throw new SearchQueryError('A property query needs at least one key=value pair.');
  return pairs;
}

/**
 * Scalars compare as text, case-insensitively (dates as YYYY-MM-DD, a leading `#` on the wanted
 * value ignored); a list property matches when it contains the value; a wanted list needs every
 * item; a wanted object compares as JSON; a wanted null matches an absent or null property.
 */
export function matchesProperty(actual: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted)) return wanted.every((item) => matchesProperty(actual, item));
  if (Array.isArray(actual)) return actual.some((item) => matchesProperty(item, wanted));
  if (actual === undefined || actual === null) return wanted === null;
  if (typeof wanted === 'object' && wanted !== null) return JSON.stringify(actual) === JSON.stringify(wanted);
  const have = (actual instanceof Date ? actual.toISOString().slice(0, 10) : typeof actual === 'object' ? JSON.stringify(actual) : String(actual)).toLowerCase();
  const want = String(wanted).toLowerCase();
  return have === want || have === want.replace(/^#/, '');
}
