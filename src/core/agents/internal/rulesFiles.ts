/**
 * Rules files (DESIGN.md decision 8, spec 2.7): every configured name found from the git root down
 * to the workspace directory, outermost first, so a deeper (more specific) file comes later in the
 * system prompt and wins where they disagree. Without a git root only the workspace directory counts.
 *
 * Their text goes to the model provider, so they are read through the confined reader rooted at the
 * git root (or the workspace): a rules file, or a folder above it, that is a link leading out of it
 * (`AGENTS.md -> ../../.aws/credentials`, in a cloned repository) is skipped with a notice, however
 * the link is swapped in while it is read. A link that stays inside (`CLAUDE.md -> AGENTS.md`) is read.
 */
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { isConfinedRulesName } from '../../config/schema';
import { describeError } from '../../errors';
import { ConfinedFileError } from '../../fs/confinedFileError';
import { ConfinedRoot } from '../../fs/confinedRoot';

export interface RulesFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the git root (or the workspace), as shown in the prompt. */
  label: string;
  text: string;
}

/** Rules files larger than this are cut: a stray huge file must not eat the model's context. */
const MAX_RULES_BYTES = 64 * 1024;
/** Past this a "rules file" is not one (a log or a dump committed under the name): skipped, not read. */
const MAX_RULES_FILE_BYTES = 4 * 1024 * 1024;

/** A rules file that exists but was not read, and why (for a notice; its text never reaches the prompt). */
export interface SkippedRulesFile {
  /** Path relative to the git root (or the workspace). */
  label: string;
  reason: string;
}

export interface FindRulesOptions {
  /** Told of each rules file skipped (a link leading out of the root, too large, unreadable). */
  onSkipped?: (skipped: SkippedRulesFile) => void;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The nearest directory at or above `dir` holding `.git` (a directory or a worktree's file). */
export async function findGitRoot(dir: string): Promise<string | undefined> {
  let current = resolve(dir);
  for (;;) {
    if (await exists(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Directories from `top` down to `bottom` inclusive; just `bottom` when it is not inside `top`. */
function chain(top: string, bottom: string): string[] {
  const rel = relative(top, bottom);
  if (rel.startsWith('..') || resolve(top, rel) !== bottom) return [bottom];
  const dirs = [top];
  let current = top;
  for (const part of rel.split(sep).filter(Boolean)) {
    current = join(current, part);
    dirs.push(current);
  }
  return dirs;
}

export async function findRulesFiles(workspaceDir: string, names: readonly string[], options: FindRulesOptions = {}): Promise<RulesFile[]> {
  const bottom = resolve(workspaceDir);
  const root = (await findGitRoot(bottom)) ?? bottom;
  const files = new ConfinedRoot(root, { followInnerFileLinks: true });
  const found: RulesFile[] = [];
  // The schema refuses these already; names can also come from elsewhere than a config file.
  const confined = names.filter(isConfinedRulesName);
  for (const dir of chain(root, bottom)) {
    for (const name of confined) {
      const path = join(dir, name);
      const label = relative(root, path).split(sep).join('/');
      let raw: Buffer;
      try {
        raw = (await files.read(label, { maxBytes: MAX_RULES_FILE_BYTES })).bytes;
      } catch (error) {
        const reason = skipReason(error);
        if (reason) options.onSkipped?.({ label, reason });
        continue;
      }
      const text = raw.subarray(0, MAX_RULES_BYTES).toString('utf8').trim();
      if (text) found.push({ path, label, text });
    }
  }
  return found;
}

/** Why an existing rules file was not read; undefined when there is none by that name (the usual case). */
function skipReason(error: unknown): string | undefined {
  if (!(error instanceof ConfinedFileError)) return `it could not be read (${describeError(error)})`;
  switch (error.code) {
    case 'fs.not_found':
    case 'fs.not_a_file':
    case 'fs.outside_root':
      return undefined;
    case 'fs.link_escape':
      return 'it is a symbolic link (or lies under one) leading outside the repository; rules are read only from inside it';
    case 'fs.too_large':
      return `it is over ${MAX_RULES_FILE_BYTES / (1024 * 1024)} MB`;
    default:
      return error.message;
  }
}

/** The rules as one system-prompt section, each file under a separator naming it; '' when none. */
export function formatRules(files: readonly RulesFile[]): string {
  if (files.length === 0) return '';
  const parts = files.map((file) => `--- ${file.label} ---\n${file.text}`);
  return `Project rules (from the repository root down to the workspace; later files take priority):\n\n${parts.join('\n\n')}`;
}
