/**
 * Reads and parses one config file without ever throwing. A syntax error is reported with smol-toml's
 * line and column; the loader then blanks the offending line and tries again, so one typo does not
 * discard the rest of the file (the settings that still parse apply).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import { formatKeyPath, type KeySegment } from './keyPath';
import type { ConfigProblem } from './problem';
import { decodeStrictUtf8 } from './strictUtf8';
import { MAX_KEY_DEPTH, TomlLocator } from './tomlLocator';

const MAX_RECOVERY_ATTEMPTS = 25;
/** A config file is a few KB; past this it is not read (it runs on activation and every save). */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** Keys that would reach Object.prototype in the code that walks the parsed tables. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export interface ParsedFile {
  data: Record<string, unknown>;
  locator: TomlLocator;
}

/**
 * The file's text; undefined when it does not exist (a missing file is fine). Only a regular file is
 * read, and only up to MAX_CONFIG_BYTES: a FIFO or a device there would otherwise block every command.
 *
 * Synchronous on purpose: a config file is a few KB, and at the editor's start the event loop and
 * libuv's pool are shared with every other extension starting, where the asynchronous open, stat,
 * read and close each waited their turn (20–30 ms of Hearth's activation, measured in code-server).
 */
export function readConfigText(file: string, problems: ConfigProblem[]): string | undefined {
  const refuse = (why: string) => {
    problems.push({ file, keyPath: '', severity: 'error', code: 'config.unreadable_file', message: `Cannot read ${file}: ${why}; its settings are ignored.` });
    return undefined;
  };
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO that has no writer returns at once instead of waiting for one.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return refuse(code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENXIO' ? 'it is not a regular file' : (error as Error).message);
  }
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) return refuse('it is a directory, not a file');
    if (!info.isFile()) return refuse('it is not a regular file (a pipe, socket or device)');
    if (info.size > MAX_CONFIG_BYTES) return refuse(`it is ${info.size} bytes, over the ${MAX_CONFIG_BYTES}-byte limit for a config file`);
    // One byte past the limit shows a file that grew over it while being read.
    const buffer = Buffer.allocUnsafe(MAX_CONFIG_BYTES + 1);
    let length = 0;
    for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, length)) > 0; ) length += n;
    if (length > MAX_CONFIG_BYTES) return refuse(`it grew past the ${MAX_CONFIG_BYTES}-byte limit for a config file while being read`);
    return decodeConfigBytes(buffer.subarray(0, length), file, problems);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(code === 'EISDIR' ? 'it is a directory, not a file' : (error as Error).message);
  } finally {
    closeSync(fd);
  }
}

/**
 * A config file's bytes as text: strict UTF-8 (an ill-formed byte is an error at its line and column,
 * never a U+FFFD that parses) and exactly one byte order mark dropped (a second one is an error; the
 * parser would drop it too). Undefined, with the problem, when the file cannot be TOML.
 */
export function decodeConfigBytes(bytes: Uint8Array, file: string, problems: ConfigProblem[]): string | undefined {
  const decoded = decodeStrictUtf8(bytes);
  const ignored = "this file's settings are ignored until it is fixed.";
  if (!decoded.ok) {
    const { line, column, byte } = decoded;
    const message = `TOML syntax error: the file is not valid UTF-8 (byte 0x${byte.toString(16).padStart(2, '0')} at line ${line}, column ${column} starts no valid character); ${ignored}`;
    problems.push({ file, line, column, keyPath: '', severity: 'error', code: 'config.toml_syntax', message });
    return undefined;
  }
  const text = decoded.text.charCodeAt(0) === 0xfeff ? decoded.text.slice(1) : decoded.text;
  if (text.charCodeAt(0) === 0xfeff) {
    problems.push({ file, line: 1, column: 1, keyPath: '', severity: 'error', code: 'config.toml_syntax', message: `TOML syntax error: a second byte order mark (U+FEFF) at the start; ${ignored}` });
    return undefined;
  }
  return text;
}

export function parseConfigText(text: string, file: string, problems: ConfigProblem[]): ParsedFile {
  const locator = new TomlLocator(text);
  if (locator.limit) {
    const { line, column, message } = locator.limit;
    problems.push({ file, line, column, keyPath: '', severity: 'error', code: 'config.too_deep', message: `The TOML ${message} here; this file's settings are ignored until it is fixed.` });
    return { data: {}, locator };
  }
  const lines = text.split('\n');
  const errors: ConfigProblem[] = [];
  for (let attempt = 0; attempt <= MAX_RECOVERY_ATTEMPTS; attempt++) {
    try {
      // 64-bit integers stay exact: past Number's safe range they are bigints, which the schema then
      // refuses by key and line (no setting takes one) instead of the parser refusing the whole file.
      const data = parse(lines.join('\n'), { maxDepth: MAX_KEY_DEPTH, integersAsBigInt: 'asNeeded' }) as Record<string, unknown>;
      dropUnsafeKeys(data, [], file, locator, problems);
      const recovered = errors.length > 0;
      for (const error of errors) error.message += recovered ? '; the rest of the file still applies.' : '';
      problems.push(...errors);
      return { data, locator };
    } catch (error) {
      const line = error instanceof TomlError ? error.line : undefined;
      const column = error instanceof TomlError ? error.column : undefined;
      if (attempt === 0 || (line !== undefined && line > (errors.at(-1)?.line ?? 0))) {
        errors.push({ file, line, column, keyPath: '', severity: 'error', code: 'config.toml_syntax', message: `TOML syntax error: ${firstLine(error)}` });
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

/** `__proto__`, `constructor`, `prototype` are reported where written and left out, at any depth. */
function dropUnsafeKeys(value: unknown, segments: KeySegment[], file: string, locator: TomlLocator, problems: ConfigProblem[]): void {
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    const path = [...segments, Array.isArray(value) ? Number(key) : key];
    if (!Array.isArray(value) && UNSAFE_KEYS.has(key)) {
      const at = locator.nearest(path);
      problems.push({ file, line: at?.line, column: at?.column, keyPath: formatKeyPath(path), severity: 'error', code: 'config.unsafe_key', message: `The key \`${key}\` is not allowed in a config file; it is ignored with everything under it.` });
      delete (value as Record<string, unknown>)[key];
    } else {
      dropUnsafeKeys((value as Record<string, unknown>)[key], path, file, locator, problems);
    }
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n')[0].replace(/^Invalid TOML document:\s*/, '');
  return line || 'invalid TOML';
}
