// End to end in a real VS Code (code-server + Chromium): "Hearth: Switch Model" from the command
// palette changes the status bar, and a persisted switch lands in the workspace config with its
// comments intact. The providers are aimock on loopback (test/unit/llm/mockLlm.ts).
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
import { startMockLlm, type MockLlm } from '../unit/llm/mockLlm';

const CODE_SERVER = process.env.HEARTH_CODE_SERVER ?? resolve('.e2e/code-server/node_modules/.bin/code-server');
const VSIX = process.env.HEARTH_VSIX ?? resolve('dist/hearth.vsix');
const CHROMIUM = process.env.HEARTH_CHROMIUM ?? '/usr/bin/chromium';
const missing = [CODE_SERVER, VSIX, CHROMIUM].filter((p) => !existsSync(p));
const skip = missing.length > 0 ? `missing ${missing.join(', ')} (run the e2e setup and npm run package)` : false;

type Page = import('playwright-core').Page;
type Browser = import('playwright-core').Browser;

let root: string;
let server: MockLlm;
let codeServer: ChildProcess | undefined;
let browser: Browser | undefined;
let page: Page;
let configFile: string;
let original: string;

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

const statusText = () => page.locator('.statusbar-item[id*="hearth.status"]').first().innerText();
const statusShows = (want: string) => until(`status bar "${want}"`, async () => ((await statusText()).includes(want) ? true : undefined));

async function palette(command: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').waitFor();
  await page.keyboard.type(command);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: command.replace(/^Hearth: /, '') }).first().waitFor();
  await page.keyboard.press('Enter');
}

before(async () => {
  if (skip) return;
  root = mkdtempSync(join(tmpdir(), 'hearth-e2e-models-'));
  server = await startMockLlm();
  server.mock.on({ model: 'gpt-4o-mini' }, { content: 'x' });
  const ws = join(root, 'ws');
  mkdirSync(join(ws, '.hearth'), { recursive: true });
  configFile = join(ws, '.hearth', 'config.toml');
  original = `# Team settings: this comment must survive a persisted switch
[llm]
default = "local" # the laptop runner

[llm.providers.local]
type = "ollama"
endpoint = "${server.url}"
default_model = "qwen2.5:0.5b"

[llm.providers.cloud]
type = "openai"
endpoint = "${server.url}/v1"
api_key = "{env:E2E_MODELS_KEY}"  # never a literal
default_model = "gpt-4o-mini"
`;
  writeFileSync(configFile, original);
  const env = { ...process.env, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_DATA_HOME: join(root, 'xdg-data'), XDG_CACHE_HOME: join(root, 'xdg-cache'), E2E_MODELS_KEY: 'sk-e2e-models' };
  const dirs = ['--user-data-dir', join(root, 'user'), '--extensions-dir', join(root, 'extensions')];
  // The welcome walkthrough opens late and takes the keyboard focus from quick picks.
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
  await page.locator('.statusbar-item[id*="hearth.status"]').first().waitFor({ timeout: 90_000 });
});

after(async () => {
  await browser?.close().catch(() => undefined);
  // code-server runs a tree of processes: end the whole group.
  if (codeServer?.pid) {
    try {
      process.kill(-codeServer.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await server?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

test('Switch Model from the palette: grouped list, session switch in the status bar, persisted with comments', { skip, timeout: 180_000 }, async () => {
  await statusShows('local/qwen2.5:0.5b');

  await palette('Hearth: Switch Model');
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'gpt-4o-mini' }).waitFor();
  const texts = await rows.allInnerTexts();
  // Grouped by provider (separator labels), the active model checked and marked.
  assert.ok(texts.some((t) => t.includes('llama3.2:latest') && t.includes('3.2B') && t.includes('local (local_runner)')), JSON.stringify(texts));
  assert.ok(texts.some((t) => t.includes('qwen2.5:0.5b') && t.includes('active')), JSON.stringify(texts));
  assert.ok(texts.some((t) => t.includes('gpt-4o-mini') && t.includes('cloud (cloud_a)')), JSON.stringify(texts));

  await page.keyboard.type('llama3.2:latest', { delay: 20 });
  await until('the filtered row', async () => ((await rows.count()) === 1 ? true : undefined));
  await page.keyboard.press('Enter');
  await statusShows('local/llama3.2:latest');
  // A session switch does not touch the file…
  assert.equal(readFileSync(configFile, 'utf8'), original);

  // …"Save to Workspace" does, keeping comments and layout.
  const save = page.locator('.notifications-toasts .monaco-button', { hasText: 'Save to Workspace' }).first();
  await save.waitFor();
  await save.click();
  const saved = await until('the persisted file', async () => {
    const text = readFileSync(configFile, 'utf8');
    return text.includes('default_model = "llama3.2:latest"') ? text : undefined;
  });
  assert.equal(saved, original.replace('default_model = "qwen2.5:0.5b"', 'default_model = "llama3.2:latest"'));

  // Switching provider: the status bar follows.
  await palette('Hearth: Switch Model');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'gpt-4o-mini' }).waitFor();
  await page.keyboard.type('gpt-4o-mini', { delay: 20 });
  await until('the filtered row', async () => ((await rows.count()) === 1 ? true : undefined));
  await page.keyboard.press('Enter');
  await statusShows('cloud/gpt-4o-mini');
});
