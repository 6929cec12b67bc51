/**
 * Where the configuration files live (DESIGN.md "Names"): the global file in the platform's user
 * config directory, the workspace file in `.hearth/config.toml` at the workspace root.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';

export const TOOL_DIR_NAME = 'hearth';
export const WORKSPACE_DIR_NAME = '.hearth';
export const CONFIG_FILE_NAME = 'config.toml';

/**
 * The user config directory per platform: Linux `$XDG_CONFIG_HOME` or `~/.config`; macOS
 * `~/Library/Application Support`; Windows `%APPDATA%` (or `~/AppData/Roaming` when unset).
 */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home?: string): string {
  // The home folder only when it is needed (see userCacheDir).
  const homeDir = () => home ?? homedir();
  if (platform === 'win32') {
    return env.APPDATA && env.APPDATA.length > 0 ? env.APPDATA : path.win32.join(homeDir(), 'AppData', 'Roaming');
  }
  if (platform === 'darwin') return path.posix.join(homeDir(), 'Library', 'Application Support');
  // XDG says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && path.posix.isAbsolute(xdg)) return xdg;
  return path.posix.join(homeDir(), '.config');
}

/**
 * The folder `~` stands for: HOME (USERPROFILE on Windows), else the account's; undefined for a
 * user who has none (no HOME and no passwd entry: a container's arbitrary uid), for whom `~` is
 * then an ordinary name.
 */
export function homeFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.HOME || env.USERPROFILE) return env.HOME || env.USERPROFILE;
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

/**
 * `<user cache dir>/hearth`: Linux `$XDG_CACHE_HOME/hearth` or `~/.cache/hearth`; macOS
 * `~/Library/Caches/hearth`; Windows `%LOCALAPPDATA%\hearth`. What may be thrown away: the model
 * catalog, fetched models, the CLI's code cache.
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home?: string): string {
  // The home folder only when it is needed: a user without one (no HOME, no passwd entry: a
  // container's arbitrary uid) makes homedir() throw, even where XDG_CACHE_HOME says where to go.
  const homeDir = () => home ?? homedir();
  if (platform === 'win32') return path.win32.join(env.LOCALAPPDATA || path.win32.join(homeDir(), 'AppData', 'Local'), TOOL_DIR_NAME);
  if (platform === 'darwin') return path.posix.join(homeDir(), 'Library', 'Caches', TOOL_DIR_NAME);
  // As XDG_CONFIG_HOME: a relative one is invalid and ignored.
  const xdg = env.XDG_CACHE_HOME;
  return path.posix.join(xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(homeDir(), '.cache'), TOOL_DIR_NAME);
}

/**
 * `<user data dir>/hearth`: Linux `$XDG_DATA_HOME/hearth` or `~/.local/share/hearth`; macOS
 * `~/Library/Application Support/hearth`; Windows `%APPDATA%\hearth`. What must be kept but is
 * neither config nor cache, and never inside a kiln: the change journal's key. One folder for the
 * editor and the CLI alike (an undo in a terminal reads what the editor journaled).
 */
export function userDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home?: string): string {
  const homeDir = () => home ?? homedir();
  if (platform === 'win32' || platform === 'darwin') return globalConfigDir(env, platform, home);
  const xdg = env.XDG_DATA_HOME;
  return path.posix.join(xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(homeDir(), '.local', 'share'), TOOL_DIR_NAME);
}

/**
 * `<user config dir>/hearth`: the global config and global agent cards live here. HEARTH_CONFIG_DIR
 * (absolute; a relative one is ignored, as XDG's) names this folder itself: `npm start` isolates
 * code-server's own XDG folders but points Hearth at the user's real config with it, so the editor
 * and the CLI read one file.
 */
export function globalConfigDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home?: string): string {
  const own = env.HEARTH_CONFIG_DIR;
  if (own && (platform === 'win32' ? path.win32.isAbsolute(own) : path.posix.isAbsolute(own))) return own;
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  return join(userConfigDir(env, platform, home), TOOL_DIR_NAME);
}

/** `<user config dir>/hearth/config.toml`. */
export function globalConfigPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home?: string): string {
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  return join(globalConfigDir(env, platform, home), CONFIG_FILE_NAME);
}

/** `<root>/.hearth/config.toml`. */
export function workspaceConfigPath(root: string): string {
  return path.join(root, WORKSPACE_DIR_NAME, CONFIG_FILE_NAME);
}

/**
 * The workspace root among the open folders: the first that has `.hearth/config.toml`, else the
 * first folder; undefined when no folder is open.
 */
export function findWorkspaceRoot(folders: readonly string[]): string | undefined {
  const withConfig = folders.find((folder) => isFile(workspaceConfigPath(folder)));
  return withConfig ?? folders[0];
}

function isFile(file: string): boolean {
  try {
    return existsSync(file) && statSync(file).isFile();
  } catch {
    return false;
  }
}
