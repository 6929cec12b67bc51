/**
 * Reads and parses one config file without ever throwing. A syntax error is reported with smol-toml's
 * line and column; the loader then blanks the offending line and tries again, so one typo does not
 * discard the rest of the file (the settings that still parse apply).
 */
import { readFile } from 'node:fs/promises';
import { parse, TomlError } from 'smol-toml';
import type { ConfigProblem } from './problem';
import { TomlLocator } from './tomlLocator';

const MAX_RECOVERY_ATTEMPTS = 25;

export interface ParsedFile {
  data: Record<string, unknown>;
  locator: TomlLocator;
}

/** The file's text; undefined when it does not exist (a missing file is fine). */
export async function readConfigText(file: string, problems: ConfigProblem[]): Promise<string | undefined> {
  try {
    const text = await readFile(file, 'utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    const why = code === 'EISDIR' ? 'it is a directory, not a file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (error as Error).message;
    problems.push({ file, keyPath: '', severity: 'error', code: 'unreadable-file', message: `Cannot read ${file}: ${why}; its settings are ignored.` });
    return undefined;
  }
}

export function parseConfigText(text: string, file: string, problems: ConfigProblem[]): ParsedFile {
  const locator = new TomlLocator(text);
  const lines = text.split('\n');
  const errors: ConfigProblem[] = [];
  for (let attempt = 0; attempt <= MAX_RECOVERY_ATTEMPTS; attempt++) {
    try {
      const data = parse(lines.join('\n')) as Record<string, unknown>;
      const recovered = errors.length > 0;
      for (const error of errors) error.message += recovered ? '; the rest of the file still applies.' : '';
      problems.push(...errors);
      return { data, locator };
    } catch (error) {
      const line = error instanceof TomlError ? error.line : undefined;
      const column = error instanceof TomlError ? error.column : undefined;
      if (attempt === 0 || (line !== undefined && line > (errors.at(-1)?.line ?? 0))) {
        errors.push({ file, line, column, keyPath: '', severity: 'error', code: 'toml-syntax', message: `TOML syntax error: ${firstLine(error)}` });
      }
      if (line === undefined || line < 1 || line > lines.length || lines[line - 1] === '') break;
      lines[line - 1] = '';
    }
  }
  // Recovery failed: only the first error is certain to be real; later ones may be echoes of it.
  const [first] = errors;
  first.message += "; this file's settings are ignored until it is fixed.";
  problems.push(first);
  return { data: {}, locator };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n')[0].replace(/^Invalid TOML document:\s*/, '');
  return line || 'invalid TOML';
}
