/**
 * Shared helpers for the end-to-end tests: a real VS Code (code-server) with the packaged .vsix
 * installed, driven from Debian's Chromium by playwright-core (see the shared testing notes).
 *
 * Prerequisites (code-server from test/e2e/setup.mjs, dist/hearth.vsix from `npm run package`,
 * /usr/bin/chromium) that are missing skip a test on a developer machine, and fail it in CI
 * (`CI` or `HEARTH_E2E_REQUIRED` set), so a broken CI set-up never passes by skipping everything.
 *
 * Every process and scratch folder made here is removed by its stop()/close(), and again at exit
 * for whatever a failing test left behind.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { editorPaths, selectedEditors, type EditorName } from './setup.mjs';

/**
 * The editor of the matrix this run drives: HEARTH_E2E_VSCODE (run.mjs sets it for each editor in
 * turn; `1.100` or `1.139`), else the first of the matrix.
 */
export const EDITOR: EditorName = selectedEditors()[0];
/** The VS Code version of EDITOR (`1.139.1`), for messages and for tests that need a newer API. */
export const EDITOR_VSCODE = editorPaths(EDITOR).vscode;
/** Where test/e2e/setup.mjs installs EDITOR's code-server (a launcher naming its own Node for 1.139). */
export const CODE_SERVER = process.env.HEARTH_CODE_SERVER ?? editorPaths(EDITOR).bin;

/** Whether EDITOR is at least VS Code `major.minor` (features the older editor lacks skip there). */
export function editorAtLeast(version: string): boolean {
  const [major, minor] = EDITOR.split('.').map(Number);
  const [wantMajor, wantMinor] = version.split('.').map(Number);
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}
export const VSIX = process.env.HEARTH_VSIX ?? resolve('dist/hearth.vsix');
export const CHROMIUM = process.env.HEARTH_CHROMIUM ?? '/usr/bin/chromium';
export const OUTPUT_DIR = resolve('test/output');

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Settings every test workbench starts with: nothing that opens late and steals the keyboard focus. */
const BASE_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'extensions.ignoreRecommendations': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'git.openRepositoryInParentFolders': 'never',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'chat.commandCenter.enabled': false,
};

// What is still running or on disk if a test dies before its own cleanup; swept at exit.
const liveGroups = new Set<number>();
const liveDirs = new Set<string>();
process.on('exit', () => {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
});

export function e2eRequired(): boolean {
  return Boolean(process.env.CI || process.env.HEARTH_E2E_REQUIRED);
}

/**
 * The `skip` option for an e2e test: false when code-server, the vsix and Chromium are there, a
 * reason when one is missing locally. Throws in CI, so the test file fails instead of skipping.
 */
export function prerequisites(): false | string {
  const missing = [
    [CODE_SERVER, `node test/e2e/setup.mjs ${EDITOR}`],
    [VSIX, 'npm run package'],
    [CHROMIUM, 'apt-get install -y chromium'],
  ].filter(([path]) => !existsSync(path));
  if (missing.length === 0) return false;
  const reason = `missing ${missing.map(([path, fix]) => `${path} (${fix})`).join(', ')}`;
  if (e2eRequired()) throw new Error(`end-to-end prerequisites ${reason}; CI/HEARTH_E2E_REQUIRED is set, so this is a failure, not a skip`);
  return reason;
}

/** A scratch folder removed by the returned function (and at exit if a test never gets there). */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `hearth-e2e-${prefix}-`));
  liveDirs.add(path);
  return {
    path,
    remove() {
      rmSync(path, { recursive: true, force: true });
      liveDirs.delete(path);
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** Polls `probe` until it returns something other than undefined; the last error is in the timeout message. */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals a whole process group; false when no process of it is left (signal 0 only checks). */
function killGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // the whole group is gone
  }
}

export interface CodeServerOptions {
  /** The folder to open. */
  workspace: string;
  /** Extra environment for code-server and so for the extension host (provider keys, …). */
  env?: NodeJS.ProcessEnv;
  /** User settings on top of BASE_SETTINGS. */
  settings?: Record<string, unknown>;
  /** Defaults to a free port. */
  port?: number;
  /**
   * Leave VS Code's Workspace Trust on (code-server starts without `--disable-workspace-trust`).
   * The user-data-dir is fresh, so nothing is trusted yet: the folder opens in Restricted Mode
   * after the startup trust prompt.
   */
  workspaceTrust?: boolean;
}

export interface CodeServer {
  /** The workbench URL with the workspace folder open. */
  url: string;
  port: number;
  /** The scratch root: user-data-dir, extensions-dir, XDG dirs and code-server's log. */
  root: string;
  pid: number;
  /** code-server's own output so far (stdout and stderr), for failure messages. */
  log(): string;
  /** The end of the extension's "Hearth" output channel (its log file), for failure messages. */
  hearthLog(chars?: number): string;
  /** Signals the whole process tree (SIGTERM by default), without waiting or cleaning up. */
  signal(signal?: NodeJS.Signals): void;
  /** Ends the whole process tree (SIGTERM, SIGKILL after `graceMs`) and removes the scratch root. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/** Installs the vsix into a fresh user-data/extensions dir and starts code-server on 127.0.0.1; resolves once /healthz answers. */
export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const scratch = tempDir('code-server');
  const root = scratch.path;
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(root, 'xdg-config'),
    XDG_DATA_HOME: join(root, 'xdg-data'),
    XDG_CACHE_HOME: join(root, 'xdg-cache'),
    ...options.env,
  };
  const dirs = ['--user-data-dir', join(root, 'user'), '--extensions-dir', join(root, 'extensions')];
  mkdirSync(join(root, 'user', 'User'), { recursive: true });
  writeFileSync(join(root, 'user', 'User', 'settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...options.settings }, null, 2));
  const install = spawnSync(CODE_SERVER, [...dirs, '--install-extension', VSIX], { env, encoding: 'utf8', timeout: 60_000 });
  if (install.status !== 0) {
    scratch.remove();
    throw new Error(`installing ${VSIX} failed (exit ${install.status ?? install.signal}): ${install.stderr}${install.stdout}`);
  }
  const port = options.port ?? (await freePort());
  const logFile = join(root, 'code-server.log');
  const out = openSync(logFile, 'a');
  const child: ChildProcess = spawn(
    CODE_SERVER,
    ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']), '--disable-getting-started-override', ...dirs, options.workspace],
    // Its own process group, so stop() can end code-server, its extension host and their children together.
    { env, stdio: ['ignore', out, out], detached: true },
  );
  closeSync(out);
  const pid = child.pid!;
  liveGroups.add(pid);
  let exited = false;
  const exit = new Promise<void>((done) => child.once('exit', () => ((exited = true), done())));
  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  let stopped: Promise<void> | undefined;
  const server: CodeServer = {
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(options.workspace)}`,
    port,
    root,
    pid,
    log,
    hearthLog: (chars = 4000) => {
      const logs = join(root, 'user', 'logs');
      const files = existsSync(logs) ? readdirSync(logs, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('Hearth.log')) : [];
      return files.map((file) => readFileSync(join(logs, file), 'utf8').slice(-chars)).join('\n') || '(no Hearth log found)';
    },
    signal: (signal = 'SIGTERM') => void killGroup(pid, signal),
    stop(graceMs = 10_000) {
      stopped ??= (async () => {
        killGroup(pid, 'SIGTERM');
        const grace = new Promise<void>((done) => setTimeout(done, graceMs).unref());
        await Promise.race([exit, grace]);
        // Whatever of the group outlived code-server itself (or a stuck code-server) goes now.
        await until('the code-server process group to end', () => (killGroup(pid, 0) ? undefined : true), graceMs).catch(() => killGroup(pid, 'SIGKILL'));
        liveGroups.delete(pid);
        scratch.remove();
      })();
      return stopped;
    },
  };
  try {
    await until('code-server /healthz', async () => {
      if (exited) throw new Error(`code-server exited: ${log().slice(-2000)}`);
      return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok ? true : undefined;
    }, 60_000);
  } catch (error) {
    await server.stop(2_000);
    throw error;
  }
  return server;
}

export interface Workbench {
  browser: Browser;
  page: Page;
  /** Closes the browser (idempotent). */
  close(): Promise<void>;
}

/** Opens `url` in Chromium (a fresh profile) and waits for the workbench's status bar. */
export async function openBrowser(url: string, viewport = { width: 1400, height: 900 }): Promise<Workbench> {
  const { chromium } = await import('playwright-core');
  // Chromium keeps crash reports and caches under XDG dirs beside its profile: keep them in scratch too.
  const scratch = tempDir('browser');
  const env = { ...process.env, XDG_CONFIG_HOME: join(scratch.path, 'config'), XDG_CACHE_HOME: join(scratch.path, 'cache') };
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, env }).catch((error) => {
    scratch.remove();
    throw error;
  });
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= browser.close().catch(() => undefined).then(() => scratch.remove()));
  try {
    const page = await browser.newPage({ viewport });
    await page.goto(url);
    await page.locator('.part.statusbar').waitFor({ timeout: 90_000 });
    return { browser, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Ends what an e2e file started, in the order given (the browser before code-server, the scratch
 * folder last); any of them may never have started (a skipped file, a failed `before`).
 */
export async function closeAll(...parts: ({ close(): Promise<void> } | { stop(): Promise<unknown> } | { remove(): void } | undefined)[]): Promise<void> {
  for (const part of parts) {
    if (!part) continue;
    if ('close' in part) await part.close();
    else if ('stop' in part) await part.stop();
    else part.remove();
  }
}

/** The status bar item whose id contains `idPart` (for example `hearth.status`, `hearth.gateway`). */
export function statusItem(page: Page, idPart: string): Locator {
  return page.locator(`.statusbar-item[id*="${idPart}"]`).first();
}

/** Rows of the open quick pick / command palette. */
export function quickPickRows(page: Page): Locator {
  return page.locator('.quick-input-widget .monaco-list-row');
}

/** Runs a command by its palette title ("Hearth: Switch Model") through F1. */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await page.keyboard.press('F1');
  // F1 over an open quick pick turns that pick into the palette: type once the input is the palette's.
  await until('the command palette', async () => ((await input.isVisible()) && (await input.inputValue()).startsWith('>') ? true : undefined), 10_000);
  await page.keyboard.type(title);
  // The row whose label is the title, clicked: Enter would run the focused row, which need not be
  // this command (the palette may put a recently used or "similar" command first — "Accept All
  // Agent Changes" above "Accept Change" — and it fills its list as it can).
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const row = quickPickRows(page).filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escaped}$`) }) }).first();
  await row.click().catch(async (error) => {
    const rows = await quickPickRows(page).evaluateAll((all) => all.map((entry) => entry.textContent));
    throw new Error(`the palette did not list "${title}" (input: ${await input.inputValue()}; rows: ${JSON.stringify(rows)})`, { cause: error });
  });
}

/** Saves a full-page screenshot as test/output/<name>-<editor>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const path = join(OUTPUT_DIR, `${name}-${EDITOR}.png`);
  await page.screenshot({ path });
  return path;
}

/** The content frame of the active webview (a webview's html lives two iframes deep). */
export function webviewFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').first().frameLocator('iframe#active-frame');
}

/** The index status says `N notes` once a run has ended; during one it reads `done of N notes`, which a plain `includes` would take for the end. */
export function indexSettled(statusText: string, notes: number): boolean {
  return new RegExp(`(?<!of )\\b${notes} notes`).test(statusText);
}
