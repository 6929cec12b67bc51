// End to end in a real VS Code (code-server + Chromium): a provider whose api_key is
// "{secret:NAME}" reads VS Code's SecretStorage when the configuration loads (keys are resolved
// once per load, config/providerKeys.ts). Without the secret the model list shows the provider's
// missing-key error; "Hearth: Set API Key" stores it, the configuration reloads, and the same list
// shows the provider's models — the key reached the provider (aimock with auth refuses any other).
//
// Needs code-server, the packaged extension and Chromium (see harness.ts): skipped locally when one
// is missing, a failure in CI.
import { after, before, test } from 'node:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { GOOD_KEY, startMockLlm, type MockLlm } from '../unit/llm/mockLlm';
import { closeAll, openBrowser, prerequisites, runCommand, screenshot, startCodeServer, statusItem, tempDir, until, type CodeServer, type Workbench } from './harness';

const skip = prerequisites();

let scratch: ReturnType<typeof tempDir> | undefined;
let server: MockLlm | undefined;
let codeServer: CodeServer | undefined;
let workbench: Workbench | undefined;
let page: Page;

before(async () => {
  if (skip) return;
  scratch = tempDir('secrets');
  server = await startMockLlm({ auth: true });
  server.mock.on({ model: 'gpt-4o-mini' }, { content: 'x' });
  const ws = join(scratch.path, 'ws');
  mkdirSync(join(ws, '.hearth'), { recursive: true });
  writeFileSync(
    join(ws, '.hearth', 'config.toml'),
    `[llm]
default = "keyed"

[llm.providers.keyed]
type = "openai"
endpoint = "${server.url}/v1"
api_key = "{secret:e2e-team-key}"
default_model = "gpt-4o-mini"
`,
  );
  codeServer = await startCodeServer({ workspace: ws });
  workbench = await openBrowser(codeServer.url);
  page = workbench.page;
  await statusItem(page, 'hearth.status').waitFor({ timeout: 90_000 });
});

after(() => closeAll(workbench, codeServer, server, scratch));

const row = (text: string) => page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first();

test('{secret:NAME}: missing, then stored with "Set API Key", reaches the provider after the reload', { skip, timeout: 240_000 }, async () => {
  await runCommand(page, 'Hearth: Switch Model');
  await row('e2e-team-key').waitFor({ timeout: 60_000 });
  await page.keyboard.press('Escape');

  await runCommand(page, 'Hearth: Set API Key');
  // The names the configuration refers to are offered first.
  await row('e2e-team-key').waitFor();
  await page.keyboard.type('e2e-team-key', { delay: 20 });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget input[type="password"]').waitFor();
  await page.keyboard.type(GOOD_KEY, { delay: 10 });
  await page.keyboard.press('Enter');
  await page.locator('.notifications-toasts', { hasText: 'stored the secret' }).first().waitFor();

  // The list was cached with the old (missing) key; the stored key changes what it is keyed by.
  await until('the provider lists its models with the stored key', async () => {
    await runCommand(page, 'Hearth: Switch Model');
    const listed = await row('gpt-4o-mini').waitFor({ timeout: 10_000 }).then(() => true, () => false);
    const stillMissing = await row('e2e-team-key').count();
    await page.keyboard.press('Escape');
    return listed && stillMissing === 0 ? true : undefined;
  }, 60_000);
  await screenshot(page, 'secrets-stored');
});
