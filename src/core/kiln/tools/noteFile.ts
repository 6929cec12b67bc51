import { basename, extname } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { scanWikiLinks } from '../linkScan';

/** A note split into its YAML frontmatter and its body. */
export interface NoteParts {
  frontmatter: Record<string, unknown>;
  /** Whether the file had a frontmatter block at all (so rewriting it keeps the file's shape). */
  hasFrontmatter: boolean;
  body: string;
  /** 1-based line of the body's first line in the file. */
  bodyStartLine: number;
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function splitNote(text: string): NoteParts {
  const match = FRONTMATTER.exec(text);
  if (!match) return { frontmatter: {}, hasFrontmatter: false, body: text, bodyStartLine: 1 };
  let frontmatter: Record<string, unknown> = {};
  try {
    const parsed = parseYaml(match[1]) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) frontmatter = parsed as Record<string, unknown>;
  } catch {
    // Broken YAML is left in the body untouched rather than lost.
    return { frontmatter: {}, hasFrontmatter: false, body: text, bodyStartLine: 1 };
  }
  const consumed = match[0];
  return { frontmatter, hasFrontmatter: true, body: text.slice(consumed.length), bodyStartLine: consumed.split('\n').length };
}

export function joinNote(frontmatter: Record<string, unknown>, body: string): string {
  if (Object.keys(frontmatter).length === 0) return body;
  return `---\n${stringifyYaml(frontmatter).trimEnd()}\n---\n${body}`;
}

/** Title: frontmatter `title`, else the first `# ` heading, else the file name. */
export function noteTitle(path: string, parts: NoteParts): string {
  if (typeof parts.frontmatter.title === 'string' && parts.frontmatter.title.trim()) return parts.frontmatter.title.trim();
  const heading = /^#\s+(.+)$/m.exec(parts.body);
  if (heading) return heading[1].trim();
  return basename(path, extname(path));
}

/** Tags from frontmatter (`tags` list or comma string) and inline `#tags`, without the `#`. */
export function noteTags(parts: NoteParts): string[] {
  const tags = new Set<string>();
  const raw = parts.frontmatter.tags ?? parts.frontmatter.tag;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[,\s]+/) : [];
  for (const tag of list) if (tag !== null && String(tag).trim()) tags.add(String(tag).trim().replace(/^#/, ''));
  const withoutCode = parts.body.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '');
  for (const match of withoutCode.matchAll(/(?:^|\s)#([A-Za-z][\w/-]*)/g)) tags.add(match[1]);
  return [...tags];
}

/** `[[target]]` and `[[target|alias]]` links, by target. */
export function noteLinks(body: string): string[] {
  return [...new Set(scanWikiLinks(body).map((link) => link.target))];
}
