/**
 * Trust in the `hearth` command (DESIGN.md decision 14): a folder is trusted when it (or a parent)
 * is in the list `hearth trust` keeps beside the global config, or for one run with `--trust` or
 * `HEARTH_TRUST=1`. In an untrusted folder the workspace file's trust-gated keys are withheld; a
 * command that depends on one of them stops with exit code 3 and names them, the others run with
 * one note on stderr. Only an interactive terminal is offered to trust the folder (default no).
 */
import { dirname, join } from 'node:path';
import type { LoadedConfig } from '../core/config/load';
import { globalConfigPath } from '../core/config/locations';
import type { TrustArea, WithheldKey } from '../core/config/trustGatedKeys';
import { TRUSTED_FOLDERS_FILE, TrustedFolders, type TrustErrorCode } from '../core/config/trustedFolders';
import { HearthError } from '../core/errors';
import { readLine } from './cliHost';

/** main.ts exits 3 on this code: the command needs what an untrusted folder's config withholds. */
export class UntrustedFolderError extends HearthError {
  constructor(
    message: string,
    readonly withheld: readonly WithheldKey[],
  ) {
    super('trust.untrusted_folder' satisfies TrustErrorCode, message);
  }
}

/** What a command depends on, for the decision to stop or to run with a note. */
export interface TrustNeeds {
  /** Withheld keys in these areas stop the command. */
  areas: readonly TrustArea[];
  /** Whether the command may offer to trust the folder on a terminal (never for `hearth gateway`). */
  mayAsk?: boolean;
}

export const TRUST_NAME = '`hearth trust`';

/** `<global config dir>/trusted-folders.json`, beside the global config file in use. */
export function trustedFoldersFor(env: NodeJS.ProcessEnv, globalConfigFile?: string): TrustedFolders {
  return new TrustedFolders(join(dirname(globalConfigFile ?? globalConfigPath(env)), TRUSTED_FOLDERS_FILE));
}

/** `--trust` or `HEARTH_TRUST=1`: trusted for this run only, nothing stored. */
export function trustedForThisRun(flag: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  return flag === true || /^(1|true|yes)$/i.test(env.HEARTH_TRUST ?? '');
}

export interface TrustTerminal {
  stdin: NodeJS.ReadableStream;
  stderr: NodeJS.WritableStream;
}

const isTty = (stream: unknown) => (stream as { isTTY?: boolean }).isTTY === true;

/**
 * Offers to trust the folder when both stdin and stderr are terminals; the answer defaults to no.
 * Returns true when the user said yes (the folder is then stored as trusted).
 */
export async function offerTrust(store: TrustedFolders, workspaceRoot: string, blocking: readonly WithheldKey[], terminal: TrustTerminal): Promise<boolean> {
  if (!isTty(terminal.stdin) || !isTty(terminal.stderr)) return false;
  terminal.stderr.write(`${describeBlocking(workspaceRoot, blocking)}\nTrust ${workspaceRoot} and let its configuration run these? [y/N] `);
  const answer = await readLine(terminal.stdin);
  if (answer === undefined || !/^\s*y(es)?\s*$/i.test(answer)) {
    terminal.stderr.write('\n');
    return false;
  }
  const stored = await store.add(workspaceRoot);
  terminal.stderr.write(`hearth: trusted ${stored} (hearth trust --revoke ${stored} undoes it)\n`);
  return true;
}

/** The keys a command depends on, from what was withheld. */
export function blockingKeys(loaded: LoadedConfig, needs: TrustNeeds): WithheldKey[] {
  return loaded.withheld.filter((key) => needs.areas.includes(key.area));
}

export function untrustedError(workspaceRoot: string, blocking: readonly WithheldKey[], reason?: string): UntrustedFolderError {
  const lead = reason ?? describeBlocking(workspaceRoot, blocking);
  return new UntrustedFolderError(`${lead}\n${remedy(workspaceRoot)}`, blocking);
}

function describeBlocking(workspaceRoot: string, blocking: readonly WithheldKey[]): string {
  const lines = blocking.map((key) => `  ${key.file}${key.line === undefined ? '' : `:${key.line}`}: ${key.keyPath} (${key.why})`);
  return [`${workspaceRoot} is not a trusted folder, and this command depends on settings of its .hearth/config.toml that run programs or send data (nothing was started):`, ...lines].join('\n');
}

function remedy(workspaceRoot: string): string {
  return [
    `To use them, trust the folder once: hearth trust ${quote(workspaceRoot)}`,
    '(or for one run: --trust, or HEARTH_TRUST=1).',
    "The editor's Workspace Trust is separate: trusting the folder in VS Code does not trust it here.",
  ].join('\n');
}

/** The one stderr line for a command that runs without the withheld keys. */
export function untrustedNote(workspaceRoot: string, withheld: readonly WithheldKey[]): string {
  const keys = withheld.map((key) => key.keyPath).join(', ');
  return `hearth: ${workspaceRoot} is not trusted; its ${keys} ${withheld.length === 1 ? 'is' : 'are'} ignored (hearth trust applies them; details: hearth config check)`;
}

function quote(folder: string): string {
  return /^[\w@%+=:,./-]+$/.test(folder) ? folder : `'${folder.replace(/'/g, `'\\''`)}'`;
}
