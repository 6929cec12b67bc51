// End to end in a real VS Code (code-server + Chromium): the MCP gateway starts with the
// extension, the status bar shows its health, "Hearth: Show Tool Servers" lists upstreams and then
// one upstream's tools (or, for one that is down, its whole error with Restart), an edit to [mcp] applies live, and closing the editor ends the upstream's
// whole process tree.
//
// Needs code-server, the packaged extension and Chromium (see harness.ts): skipped locally when one
// is missing, a failure in CI.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { closeAll, alive, openBrowser, prerequisites, quickPickRows, screenshot, startCodeServer, statusItem, tempDir, until, type CodeServer, type Workbench } from './harness';

const TREE_SERVER = resolve('test/unit/gateway/fixtures/dynamicServer.mjs');
const skip = prerequisites();

let scratch: ReturnType<typeof tempDir> | undefined;
let codeServer: CodeServer | undefined;
let workbench: Workbench | undefined;
let page: Page;
let configFile: string;
let pidFile: string;

const gatewayItem = () => statusItem(page, 'hearth.gateway');
const gatewayShows = (want: string) => until(`gateway status "${want}"`, async () => ((await gatewayItem().innerText()).includes(want) ? true : undefined));
const rows = () => quickPickRows(page);

before(async () => {
  if (skip) return;
  scratch = tempDir('gateway');
  const ws = join(scratch.path, 'ws');
  mkdirSync(join(ws, '.hearth'), { recursive: true });
  writeFileSync(join(ws, 'hello.md'), '# Hello\n');
  configFile = join(ws, '.hearth', 'config.toml');
  pidFile = join(scratch.path, 'tree-pids');
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
  codeServer = await startCodeServer({ workspace: ws });
  workbench = await openBrowser(codeServer.url);
  page = workbench.page;
  await gatewayItem().waitFor({ timeout: 90_000 });
});

after(() => closeAll(workbench, codeServer, scratch));

test('gateway health in the status bar, Show Tool Servers, live [mcp] apply, trees ended with the editor', { skip, timeout: 180_000 }, async () => {
  await gatewayShows('1/2');

  // Clicking the item runs "Show Tool Servers": both upstreams with their state (the dynamic
  // server's five tools less the blocked `fail`: the long-named one, add_tool, sleep, echo).
  await gatewayItem().click();
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'ghost' }).waitFor();
  const servers = await rows().allInnerTexts();
  assert.ok(servers.some((t) => t.includes('tree') && t.includes('ready, 4 tools')), JSON.stringify(servers));
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

  // A server that is down: its whole error (cut to one line in the list) in a notification, with Restart.
  await gatewayItem().click();
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'ghost' }).click();
  const down = page.locator('.notifications-toasts', { hasText: /tool server "ghost" is down \(not retrying\): .*"hearth-e2e-missing-server" was not found \(check the command and PATH\)/ }).first();
  await down.waitFor({ timeout: 20_000 });
  await down.locator('.monaco-button', { hasText: 'Restart' }).first().waitFor();
  await screenshot(page, 'gateway-down-server');

  // Removing the broken server from the file applies live; the healthy one is not restarted.
  const [leader, child] = readFileSync(pidFile, 'utf8').split(' ').map(Number);
  writeFileSync(configFile, readFileSync(configFile, 'utf8').split('[[mcp.servers]]\nname = "ghost"')[0]);
  await gatewayShows('1/1');
  assert.deepEqual(readFileSync(pidFile, 'utf8').split(' ').map(Number), [leader, child], 'tree upstream kept running');
  assert.ok(alive(leader) && alive(child));

  await screenshot(page, 'gateway-live-apply');

  // Closing the editor ends the upstream and the child it started.
  await workbench!.close();
  codeServer!.signal('SIGTERM');
  await until('upstream tree ended', async () => (!alive(leader) && !alive(child) ? true : undefined), 20_000);
});
