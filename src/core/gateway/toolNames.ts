import { createHash } from 'node:crypto';
import picomatch from 'picomatch';

/** What hosted models accept as a tool name; anything longer or stranger is rejected by their APIs. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
const HASH_LENGTH = 8;

/**
 * The name a tool is exposed under: `prefix + name`. Characters outside `[A-Za-z0-9_-]` become `_`;
 * a name over 64 characters keeps its head and gets a hash of the full original name as suffix, so
 * the result is stable across restarts and two long names sharing a head still differ.
 */
export function exposedToolName(prefix: string, name: string): string {
  const full = prefix + name;
  const cleaned = full.replace(/[^A-Za-z0-9_-]/g, '_');
  if (cleaned === full && cleaned.length <= MAX_LENGTH) return cleaned;
  // Too long, or characters were replaced (which could make two names collide): the hash of the
  // original keeps every exposed name distinct and stable.
  return shorten(cleaned, full);
}

function shorten(cleaned: string, original: string): string {
  const hash = createHash('sha256').update(original).digest('hex').slice(0, HASH_LENGTH);
  const head = cleaned.slice(0, MAX_LENGTH - HASH_LENGTH - 1);
  return `${head}_${hash}`;
}

/**
 * Decides which upstream tools are exposed. Globs match the upstream's own tool name (not the
 * prefixed one) so a config stays valid when its prefix changes; `blocked` wins over `allowed`.
 */
export function toolFilter(allowed: readonly string[] | undefined, blocked: readonly string[]): (name: string) => boolean {
  const isAllowed = allowed === undefined ? () => true : picomatch([...allowed]);
  const isBlocked = blocked.length === 0 ? () => false : picomatch([...blocked]);
  return (name) => isAllowed(name) && !isBlocked(name);
}
