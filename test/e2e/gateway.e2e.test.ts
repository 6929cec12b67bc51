// End to end in a real VS Code (code-server + Chromium): the MCP gateway starts with the
// extension, the status bar shows its health, "Hearth: Show Tool Servers" lists upstreams and then
// one upstream's tools, an edit to [mcp] applies live, and closing the editor ends the upstream's
// whole process tree.
//
// Needs code-server and the packaged extension: HEARTH_CODE_SERVER (default
// .e2e/code-server/node_modules/.bin/code-server) and HEARTH_VSIX (default dist/hearth.vsix);
// skipped with a note when either is missing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CODE_SERVER = process.env.HEARTH_CODE_SERVER ?? resolve('.e2e/code-server/node_modules/.bin/code-server');
const VSIX = process.env.HEARTH_VSIX ?? resolve('dist/hearth.vsix');
const CHROMIUM = process.env.HEARTH_CHROMIUM ?? '/usr/bin/chromium';
const TREE_SERVER = resolve('test/unit/gateway/fixtures/dynamicServer.mjs');
const missing = [CODE_SERVER, VSIX, CHROMIUM].filter((p) => !existsSync(p));
const skip = missing.length > 0 ? `missing ${missing.join(', ')} (run the e2e setup and npm run package)` : false;

type Page = import('playwright-core').Page;
type Browser = import('playwright-core').Browser;

let root: string;
let codeServer: ChildProcess | undefined;
let browser: Browser | undefined;
let page: Page;
let configFile: string;
let pidFile: string;

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
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
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const gatewayItem = () => page.locator('.statusbar-item[id*="hearth.gateway"]').first();
const gatewayShows = (want: string) => until(`gateway status "${want}"`, async () => ((await gatewayItem().innerText()).includes(want) ? true : undefined));
const rows = () => page.locator('.quick-input-widget .monaco-list-row');

before(async () => {
  if (skip) return;
  root = mkdtempSync(join(tmpdir(), 'hearth-e2e-gateway-'));
  const ws = join(root, 'ws');
  mkdirSync(join(ws, '.hearth'), { recursive: true });
  writeFileSync(join(ws, 'hello.md'), '# Hello\n');
  configFile = join(ws, '.hearth', 'config.toml');
  pidFile = join(root, 'tree-pids');
  writeFileSync(
    configFile,
    `# Two upstreams: one that works (and starts a child of its own), one whose command is missing.
[[mcp.servers]]
name = "tree"
prefix = "tr_"
blocked_tools = ["fail"]
[mcp.servers.transport]
type = "stdio"
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(TREE_SERVER)}, "--tree", ${JSON.stringify(pidFile)}]

[[mcp.servers]]
name = "ghost"
prefix = "gh_"
auto_reconnect = false
[mcp.servers.transport]
type = "stdio"
command = "hearth-e2e-missing-server"
`,
  );
  const env = { ...process.env, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_DATA_HOME: join(root, 'xdg-data'), XDG_CACHE_HOME: join(root, 'xdg-cache') };
  const dirs = ['--user-data-dir', join(root, 'user'), '--extensions-dir', join(root, 'extensions')];
  mkdirSync(join(root, 'user', 'User'), { recursive: true });
  writeFileSync(join(root, 'user', 'User', 'settings.json'), JSON.stringify({ 'workbench.startupEditor': 'none', 'workbench.tips.enabled': false }));
  const install = spawnSync(CODE_SERVER, [...dirs, '--install-extension', VSIX], { env, encoding: 'utf8' });
  assert.equal(install.status, 0, install.stderr);
  const port = await freePort();
  codeServer = spawn(CODE_SERVER, ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', ...dirs, ws], { env, stdio: 'ignore', detached: true });
  await until('code-server /healthz', async () => ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok ? true : undefined), 60_000);
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`http://127.0.0.1:${port}/?folder=${ws}`);
  await gatewayItem().waitFor({ timeout: 90_000 });
});

after(async () => {
  await browser?.close().catch(() => undefined);
  if (codeServer?.pid) {
    try {
      process.kill(-codeServer.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

test('gateway health in the status bar, Show Tool Servers, live [mcp] apply, trees ended with the editor', { skip, timeout: 180_000 }, async () => {
  await gatewayShows('1/2');

  // Clicking the item runs "Show Tool Servers": both upstreams with their state.
  await gatewayItem().click();
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'ghost' }).waitFor();
  const servers = await rows().allInnerTexts();
  assert.ok(servers.some((t) => t.includes('tree') && t.includes('ready, 2 tools')), JSON.stringify(servers));
  assert.ok(servers.some((t) => t.includes('ghost') && t.includes('hearth-e2e-missing-server') && t.includes('not found')), JSON.stringify(servers));

  // Choosing one lists its tools (exposed names), with a restart entry first.
  await page.keyboard.type('tree', { delay: 20 });
  await until('the filtered row', async () => ((await rows().count()) === 1 ? true : undefined));
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'tr_add_tool' }).waitFor();
  const tools = await rows().allInnerTexts();
  assert.ok(tools[0].includes('Restart this tool server'), JSON.stringify(tools));
  assert.ok(!tools.some((t) => t.includes('tr_fail')), 'blocked tool not listed');
  await page.keyboard.press('Escape');

  // Removing the broken server from the file applies live; the healthy one is not restarted.
  const [leader, child] = readFileSync(pidFile, 'utf8').split(' ').map(Number);
  writeFileSync(configFile, readFileSync(configFile, 'utf8').split('[[mcp.servers]]\nname = "ghost"')[0]);
  await gatewayShows('1/1');
  assert.deepEqual(readFileSync(pidFile, 'utf8').split(' ').map(Number), [leader, child], 'tree upstream kept running');
  assert.ok(alive(leader) && alive(child));

  // Closing the editor ends the upstream and the child it started.
  await browser?.close();
  browser = undefined;
  process.kill(-codeServer!.pid!, 'SIGTERM');
  await until('upstream tree ended', async () => (!alive(leader) && !alive(child) ? true : undefined), 20_000);
});
