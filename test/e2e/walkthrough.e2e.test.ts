// A newcomer's first start (#29), in a real VS Code (code-server + Chromium) with the packaged .vsix:
// the Getting Started walkthrough opens by itself on the first start of a fresh user-data-dir (here
// VS Code's own "open walkthroughs on install" is on, as it is by default; the harness turns it off
// for every other test) and not again after a reload; "Check Configuration" names the global config
// file in use (HEARTH_CONFIG_DIR, as npm start sets it), not a fixed path.
//
// Needs code-server, the packaged extension and Chromium (see harness.ts): skipped locally when one
// is missing, a failure in CI.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { closeAll, openBrowser, prerequisites, quickPickRows, runCommand, screenshot, startCodeServer, statusItem, tempDir, until, type CodeServer, type Workbench } from './harness';

const skip = prerequisites();

let scratch: ReturnType<typeof tempDir> | undefined;
let codeServer: CodeServer | undefined;
let workbench: Workbench | undefined;
let page: Page;
let globalConfigDir: string;

/** The walkthrough's page in the Welcome editor. */
const walkthrough = () => page.locator('.gettingStartedContainer', { hasText: 'Get started with Hearth' }).first();

before(async () => {
  if (skip) return;
  scratch = tempDir('walkthrough');
  const ws = join(scratch.path, 'notebook');
  mkdirSync(join(ws, '.hearth'), { recursive: true });
  writeFileSync(join(ws, 'Welcome.md'), '# Welcome\n\nA note.\n');
  writeFileSync(join(ws, 'Basil.md'), '# Basil\n\nPinch out the flowers to keep basil leafy.\n');
  // No chat provider of its own; an embedding runner that is not running (as the default model offline).
  writeFileSync(join(ws, '.hearth', 'config.toml'), '[embedding]\nprovider = "local_runner"\nmodel = "nomic-embed-text"\napi_url = "http://127.0.0.1:9"\n');
  globalConfigDir = join(scratch.path, 'my-hearth-config');
  codeServer = await startCodeServer({ workspace: ws, env: { HEARTH_CONFIG_DIR: globalConfigDir }, settings: { 'workbench.welcomePage.walkthroughs.openOnInstall': true, 'workbench.startupEditor': 'readme' } });
  workbench = await openBrowser(codeServer.url);
  page = workbench.page;
  await statusItem(page, 'hearth.status').waitFor({ timeout: 90_000 });
});

after(() => closeAll(workbench, codeServer, scratch));

test('the walkthrough opens on the first start, not after a reload; Check Configuration names the global file in use', { skip, timeout: 240_000 }, async () => {
  try {
    // Hearth asks VS Code to open it once it has activated, and logs it. (Whether the page is still
    // in front later depends on the workbench restoring its editors meanwhile, which is VS Code's.)
    const opened = () => codeServer!.hearthLog(1_000_000).match(/first start: opened the Getting Started walkthrough/g)?.length ?? 0;
    const activations = () => codeServer!.hearthLog(1_000_000).match(/Hearth activated in/g)?.length ?? 0;
    await until('Hearth opened the walkthrough', () => (opened() === 1 ? true : undefined), 60_000);
    await walkthrough().waitFor({ timeout: 10_000 }).catch(() => undefined);

    await runCommand(page, 'Hearth: Check Configuration');
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Hearth: the configuration is valid' }).first();
    await toast.waitFor({ timeout: 30_000 });
    const text = await toast.innerText();
    assert.ok(text.includes(`Global config: ${join(globalConfigDir, 'config.toml')}`), text);
    assert.match(text, /not created yet; "Hearth: Open Global Config" creates it/);

    // Reloaded: the same user data has seen it, so Hearth does not open it again. (VS Code itself
    // may restore a walkthrough that was open before a reload: what counts is Hearth's own opening,
    // which it logs.)
    await runCommand(page, 'View: Close All Editors');
    const before = activations();
    await page.reload();
    await statusItem(page, 'hearth.status').waitFor({ timeout: 90_000 });
    await until('Hearth activated again', () => (activations() > before ? true : undefined), 60_000);
    // The walkthrough is opened right after activation, when it is.
    await page.waitForTimeout(3_000);
    assert.equal(opened(), 1, 'not opened again');
  } catch (error) {
    await screenshot(page, 'walkthrough-failure').catch(() => undefined);
    console.error(codeServer?.hearthLog(4000));
    throw error;
  }
});

test('the embedding model cannot answer: Semantic Search finds notes by their words and says "words only"', { skip, timeout: 180_000 }, async () => {
  try {
    await runCommand(page, 'Hearth: Semantic Search');
    // The pick (not the palette it replaces) has the input: its title says so.
    await page.locator('.quick-input-widget', { hasText: 'Hearth: Semantic Search' }).waitFor({ timeout: 20_000 });
    await page.locator('.quick-input-widget input').fill('pinch basil flowers');
    // Every word of the query is in the note (100 %); its row is the first line holding one ("# Basil").
    const hit = quickPickRows(page).filter({ hasText: 'Basil.md:1' }).first();
    await hit.waitFor({ timeout: 30_000 });
    assert.match(await hit.innerText(), /100% · # Basil/);
    const notice = quickPickRows(page).filter({ hasText: 'Words only: the embedding model is not available' }).first();
    await notice.waitFor({ timeout: 10_000 });
    assert.match(await page.locator('.quick-input-widget').innerText(), /Semantic Search \(words only\)/);
    await screenshot(page, 'search-words-only');
    await page.keyboard.press('Escape');
  } catch (error) {
    await screenshot(page, 'search-words-only-failure').catch(() => undefined);
    console.error(codeServer?.hearthLog(4000));
    throw error;
  }
});
