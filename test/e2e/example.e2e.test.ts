// A newcomer's first hour (#29) in a real VS Code (code-server + Chromium, the packaged .vsix): a
// fresh user-data-dir and the user's own global config (HEARTH_CONFIG_DIR, as `npm start` sets it)
// naming a scripted provider; the example kiln opens as shipped and chat answers through that
// provider with no edit to the example; `hearth ask` in the same folder reads the same global file.
// Then a copy of the example whose workspace file names a provider of its own (`[llm].default`, an
// endpoint that waits for trust) opens in Restricted Mode: chat answers through the user's provider
// and nothing reaches the workspace's endpoint.
//
// Needs code-server, the packaged extension and Chromium (see harness.ts): skipped locally when one
// is missing, a failure in CI.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { closeAll, editorAtLeast, openBrowser, prerequisites, runCommand, screenshot, startCodeServer, statusItem, tempDir, until, webviewFrame, type CodeServer, type Workbench } from './harness';
import { lastUserMessage, scriptedProvider, scriptReplies, sendChat } from './scriptedModel';
import { startMockLlm, type MockLlm } from '../unit/llm/mockLlm';
import { tinyModelDir } from '../unit/index/tinyModel';
import { runHearth } from '../unit/cli/runHearth';

const skip = prerequisites();
const EXAMPLE = resolve('test/fixtures/example-kiln');

let scratch: ReturnType<typeof tempDir> | undefined;
let server: MockLlm | undefined;
let codeServer: CodeServer | undefined;
let workbench: Workbench | undefined;
let page: Page;
let kiln: string;
let globalConfigDir: string;
let restricted: { codeServer: CodeServer; workbench: Workbench; theirs: MockLlm; kiln: string } | undefined;

const chat = (): FrameLocator => webviewFrame(page);
const chatRequests = () => server!.wire.filter((w) => w.path.includes('chat/completions'));

/** Picks the kiln agent (the example asks for one when the chat first opens), asks about basil, and returns the model the user's provider was asked for. */
async function askInChat(): Promise<string | undefined> {
  await until('the status bar names the global provider', async () => ((await statusItem(page, 'hearth.status').innerText()).includes('mine/my-model') ? true : undefined), 60_000);
  await runCommand(page, 'Hearth: Focus Chat');
  const card = chat().locator('.agent-card[data-agent="kiln"]');
  await card.waitFor({ timeout: 60_000 });
  await card.click();
  const before = chatRequests().length;
  await sendChat(page, 'when do I pinch out basil flowers?');
  await chat().locator('.turn .agent .markdown strong', { hasText: 'basil' }).waitFor({ timeout: 60_000 });
  return (chatRequests().slice(before)[0]?.body as { model?: string } | undefined)?.model;
}

before(async () => {
  if (skip) return;
  scratch = tempDir('example');
  kiln = join(scratch.path, 'example-kiln');
  cpSync(EXAMPLE, kiln, { recursive: true });
  server = await startMockLlm();
  scriptReplies(server)((r) => lastUserMessage(r).includes('basil'), { content: 'Pinch out **basil** flowers to keep the leaves coming.' });
  // The user's own global config: their provider, and (offline here) a local embedding model.
  globalConfigDir = join(scratch.path, 'my-hearth-config');
  mkdirSync(globalConfigDir, { recursive: true });
  writeFileSync(
    join(globalConfigDir, 'config.toml'),
    `[llm]\ndefault = "mine"\n\n${scriptedProvider('mine', server, 'E2E_EXAMPLE_KEY', 'my-model')}\n[embedding]\nprovider = "local_cpu"\nmodel = ${JSON.stringify(tinyModelDir())}\n`,
  );
  codeServer = await startCodeServer({ workspace: kiln, env: { HEARTH_CONFIG_DIR: globalConfigDir, E2E_EXAMPLE_KEY: 'sk-e2e-example' } });
  workbench = await openBrowser(codeServer.url);
  page = workbench.page;
  await statusItem(page, 'hearth.status').waitFor({ timeout: 90_000 });
});

after(() => closeAll(restricted?.workbench, restricted?.codeServer, restricted?.theirs, workbench, codeServer, server, scratch));

test('the example kiln as shipped answers through the provider of the user\'s global config; hearth ask reads the same file', { skip, timeout: 240_000 }, async () => {
  try {
    assert.equal(await askInChat(), 'my-model', 'the user\'s provider received the question');
    assert.equal(readFileSync(join(kiln, '.hearth', 'config.toml'), 'utf8'), readFileSync(join(EXAMPLE, '.hearth', 'config.toml'), 'utf8'), 'the example was not edited');

    // The CLI in the same folder, with the same global config folder, asks the same provider.
    const cliBefore = chatRequests().length;
    const run = await runHearth(['ask', '--no-context', 'when do I pinch out basil flowers?'], {
      cwd: kiln,
      env: { HOME: scratch!.path, XDG_CACHE_HOME: join(scratch!.path, 'xdg-cache'), HEARTH_CONFIG_DIR: globalConfigDir, E2E_EXAMPLE_KEY: 'sk-e2e-example', HEARTH_TRUST: '1' },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Pinch out \W*basil\W* flowers/);
    const cliSent = chatRequests().slice(cliBefore);
    assert.equal((cliSent[0]?.body as { model?: string } | undefined)?.model, 'my-model', 'hearth ask used the global config\'s provider');
  } catch (error) {
    await screenshot(page, 'example-failure').catch(() => undefined);
    console.error(codeServer?.hearthLog(4000));
    throw error;
  }
});

test('Restricted Mode: a cloned example naming its own provider answers through the user\'s provider; the workspace endpoint gets nothing', { skip, timeout: 240_000 }, async () => {
  await closeAll(workbench, codeServer);
  workbench = undefined;
  codeServer = undefined;
  const theirs = await startMockLlm();
  const cloned = join(scratch!.path, 'cloned-example');
  cpSync(EXAMPLE, cloned, { recursive: true });
  const own = readFileSync(join(cloned, '.hearth', 'config.toml'), 'utf8');
  writeFileSync(join(cloned, '.hearth', 'config.toml'), `${own}\n[llm]\ndefault = "theirs"\n\n[llm.providers.theirs]\ntype = "openai"\nendpoint = "${theirs.url}/v1"\ndefault_model = "their-model"\n`);
  const server2 = await startCodeServer({ workspace: cloned, workspaceTrust: true, env: { HEARTH_CONFIG_DIR: globalConfigDir, E2E_EXAMPLE_KEY: 'sk-e2e-example' } });
  const bench2 = await openBrowser(server2.url);
  restricted = { codeServer: server2, workbench: bench2, theirs, kiln: cloned };
  page = bench2.page;
  try {
    // 1.100 asks at startup and the user says no; 1.139 opens the folder in Restricted Mode at once.
    if (!editorAtLeast('1.139')) {
      const no = page.locator('.monaco-dialog-box .monaco-button', { hasText: "No, I don't trust the authors" });
      await no.waitFor({ timeout: 90_000 });
      await no.click();
    }
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 90_000 });
    await statusItem(page, 'hearth.status').waitFor({ timeout: 90_000 });
    assert.equal(await askInChat(), 'my-model', 'the user\'s provider answered');
    assert.equal(theirs.wire.length, 0, 'nothing reached the workspace\'s endpoint');
  } catch (error) {
    await screenshot(page, 'example-restricted-failure').catch(() => undefined);
    console.error(server2.hearthLog(4000));
    throw error;
  }
});
