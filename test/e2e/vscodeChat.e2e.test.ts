// Issue 25 end to end: Hearth inside VS Code's own Chat view. On VS Code 1.139 (code-server
// 4.139.1): `@hearth` answers through the scripted model with a reference to the right note and an
// anchor that opens it at the line; `/search` lists notes; a Hearth provider's model picked in the
// model picker answers (the scripted endpoint receives the request); a kiln write tool invoked from
// the Chat view opens Hearth's diff review, and Undo Last Agent Change restores the note byte for
// byte; `/agent kiln TASK` runs the internal agent, its tool call shows as progress and its edit goes
// through the same review and journal; the gateway's MCP server starts from Hearth's MCP server
// definition provider and its tools are in the tool picker. On VS Code 1.100 (code-server 4.100.3,
// no Chat view, no language model provider or MCP definition API): the extension starts, says which
// contributions this editor lacks, and neither its log nor the extension host's has an error about them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { closeAll, EDITOR, editorAtLeast, openBrowser, prerequisites, quickPickRows, runCommand, screenshot, startCodeServer, statusItem, tempDir, until, type CodeServer, type Workbench } from './harness';
import { type ChatRequest, lastUserMessage, scriptedProvider, scriptReplies, toolCall, toolsThisTurn } from './scriptedModel';
import { startMockLlm, type MockLlm } from '../unit/llm/mockLlm';
import { tinyModelDir } from '../unit/index/tinyModel';

const skip = prerequisites();
const newer = editorAtLeast('1.104');

let scratch: ReturnType<typeof tempDir> | undefined;
let server: MockLlm | undefined;
let codeServer: CodeServer | undefined;
let workbench: Workbench | undefined;
let page: Page;
let ws: string;

const BREAD = '# Bread\r\n\r\nFlour, water, salt and yeast — 500 g. ✓\n';
const chatRequests = () => server!.wire.filter((w) => w.path.includes('chat/completions')).map((w) => w.body as ChatRequest & { model?: string; tools?: { function: { name: string } }[] });

before(async () => {
  if (skip) return;
  scratch = tempDir('vscode-chat');
  ws = join(scratch.path, 'notebook');
  mkdirSync(join(ws, '.hearth'), { recursive: true });
  mkdirSync(join(ws, 'techniques'));
  writeFileSync(join(ws, 'techniques', 'Composting.md'), '# Composting\n\nTurn the compost heap weekly.\nKeep the compost moist like a sponge.\n\n## Browns\n\nDry leaves are browns.\n');
  writeFileSync(join(ws, 'Bread.md'), BREAD);
  server = await startMockLlm();
  const on = scriptReplies(server);
  on((r) => lastUserMessage(r).includes('KEY-compost'), { content: 'Turn it weekly: see [[Composting]] and techniques/Composting.md:4.' });
  on((r) => lastUserMessage(r).includes('KEY-write') && toolsThisTurn(r) > 0, { content: 'Rewrote Bread.md.' });
  on((r) => lastUserMessage(r).includes('KEY-write'), toolCall('w1', 'hearth_update_note', { path: 'Bread.md', content: '# Bread\n\nSourdough only.\n' }));
  on((r) => lastUserMessage(r).includes('KEY-agent') && toolsThisTurn(r) > 0, { content: 'The agent rewrote Bread.md:3.' });
  on((r) => lastUserMessage(r).includes('KEY-agent'), toolCall('a1', 'update_note', { path: 'Bread.md', content: '# Bread\n\nRye only.\n' }));
  on(() => true, { content: 'Hello from the mock.' });
  writeFileSync(
    join(ws, '.hearth', 'config.toml'),
    `[chat]\nreview_edits = "always"\n\n[acp]\nenable_discovery = false\n\n[llm]\ndefault = "alpha"\n\n${scriptedProvider('alpha', server, 'E2E_KEY', 'model-alpha')}\n${scriptedProvider('beta', server, 'E2E_KEY', 'model-beta')}\n[embedding]\nprovider = "local_cpu"\nmodel = ${JSON.stringify(tinyModelDir())}\n`,
  );
  codeServer = await startCodeServer({ workspace: ws, env: { E2E_KEY: 'sk-e2e-secret-key' } });
  workbench = await openBrowser(codeServer.url);
  page = workbench.page;
  await until('the index', async () => ((await statusItem(page, 'hearth.index').innerText()).includes('2 notes') ? true : undefined), 90_000);
});

after(() => closeAll(workbench, codeServer, server, scratch));

test('VS Code 1.100: Hearth starts; the contributions whose API is missing are not registered and nothing is logged as an error', { skip: skip || (newer ? 'VS Code 1.104+ has the API' : false), timeout: 120_000 }, async () => {
  await until('Hearth activated', () => (codeServer!.hearthLog().includes('Hearth activated') ? true : undefined), 60_000);
  const log = codeServer!.hearthLog(20_000);
  assert.doesNotMatch(log, /\[error\]|could not start/i, log);
  assert.doesNotMatch(log, /offered to VS Code as language models/);
  // What this editor lacks is said once, as not registered (the API probes of api/editorContributions.ts).
  // (code-server 4.100.3 already has the MCP server definition API: the gateway is offered there too.)
  assert.match(log, /VS Code 1\.100\.\d+: registered the @hearth chat participant, the kiln tools as language model tools, the gateway as an MCP server definition; not in this editor, so not registered: Hearth's models in the model picker \(VS Code 1\.104\+\)\n/, log);
  assert.doesNotMatch(codeServer!.log(), /hearth[\s\S]{0,200}(languageModel|chatParticipant|mcpServerDefinition)[\s\S]{0,100}error/i);
  // The extension host's own log: no error or warning about Hearth or the contribution points it declares.
  const host = extensionHostLog();
  assert.ok(host.includes('hearth.hearth'), 'the extension host log was found and names Hearth');
  const complaints = host.split('\n').filter((line) => /\[(error|warning)\]/.test(line) && /hearth|chatParticipants|languageModelTools|languageModelChatProviders|mcpServerDefinitionProviders/i.test(line));
  assert.deepEqual(complaints, []);
});

/** The extension host's log files (remoteexthost.log / exthost.log), joined. */
function extensionHostLog(): string {
  const logs = join(codeServer!.root, 'user', 'logs');
  if (!existsSync(logs)) return '';
  const files = readdirSync(logs, { recursive: true, encoding: 'utf8' }).filter((file) => /exthost\.log$/i.test(file));
  return files.map((file) => readFileSync(join(logs, file), 'utf8')).join('\n');
}

// ---- VS Code 1.139: the Chat view ----
const onNewer = { skip: skip || (newer ? false : `VS Code ${EDITOR} has no Chat view in code-server`), timeout: 240_000 };
const chatInput = () => page.locator('.interactive-input-part .chat-input-container .monaco-editor').first();
/** The newest answer: the list reuses its row elements, so DOM order is not the turns' order — the row index is. */
async function lastResponse(): Promise<Locator> {
  const index = await page.locator('.interactive-list .monaco-list-row.response').evaluateAll((rows) => Math.max(-1, ...rows.map((row) => Number(row.getAttribute('data-index')))));
  return page.locator(`.interactive-list .monaco-list-row.response[data-index="${index}"] .interactive-response`);
}

/**
 * Types a message into the Chat view (replacing what the sticky `@hearth` left there) and sends it;
 * resolves with its answer once the request shows. The list is virtual (old turns leave the DOM),
 * so the new turn is known by `key`, a part of the message, in the last request.
 */
async function ask(message: string, key: string): Promise<Locator> {
  await chatInput().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(message);
  // The suggest widget of `@`/`#`/`/` must not take the Enter.
  await page.keyboard.press('Escape');
  await chatInput().click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await until('the request in the Chat view', async () => ((await page.locator('.interactive-request', { hasText: key }).count()) > 0 ? true : undefined), 30_000).catch(async (error) => {
    throw new Error(`${String(error)}; screenshot ${await screenshot(page, 'vscode-chat-ask-failed')}; the input holds: ${await chatInput().innerText()}`, { cause: error });
  });
  // Its answer is the row after it.
  return until('the answer in the Chat view', async () => {
    const response = await lastResponse();
    const rows = await page.locator('.interactive-list .monaco-list-row').evaluateAll((all, wanted) => all.map((row) => [Number(row.getAttribute('data-index')), row.classList.contains('request') && (row.textContent ?? '').includes(wanted)] as const), key);
    const asked = Math.max(-1, ...rows.filter(([, mine]) => mine).map(([i]) => i));
    const answered = Math.max(-1, ...rows.filter(([i]) => i > asked).map(([i]) => i));
    return asked >= 0 && answered > asked && (await response.count()) > 0 ? response : undefined;
  }, 30_000);
}
const complete = (response: Locator) =>
  until('the answer to complete', async () => ((await response.evaluate((el) => el.classList.contains('chat-response-loading'))) ? undefined : true), 60_000);

/** "Hearth: Undo Last Agent Change", confirmed: Bread.md is as it was, byte for byte. */
async function undoRestoresBread(): Promise<void> {
  await runCommand(page, 'Hearth: Undo Last Agent Change');
  const confirm = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Undo$/ });
  await confirm.waitFor({ timeout: 30_000 });
  await confirm.click();
  await until('Bread.md restored byte for byte', () => (readFileSync(join(ws, 'Bread.md'), 'utf8') === BREAD ? true : undefined), 30_000);
}

test('the Chat view: @hearth answers through the scripted model with a reference to the note, and its anchor opens the note at the line', onNewer, async () => {
  await runCommand(page, 'Chat: Open Chat');
  await chatInput().waitFor({ timeout: 60_000 });
  const response = await ask('@hearth KEY-compost what do my notes say about compost?', 'KEY-compost');
  await complete(response);
  // The scripted endpoint got the question with the note's section (auto context), through a Hearth model.
  const request = chatRequests().find((r) => lastUserMessage(r).includes('KEY-compost'));
  assert.ok(request, 'the scripted endpoint received the question');
  assert.match(lastUserMessage(request), /techniques\/Composting\.md \(lines \d+-\d+\)[\s\S]*Turn the compost heap weekly/);
  // One reference: the note, with its lines.
  // (inside the collapsed "Completed N steps" once the answer is done: attached, not visible)
  await response.locator('[aria-label="Used 1 reference"]').first().waitFor({ state: 'attached', timeout: 20_000 });
  const anchor = response.locator('.chat-inline-anchor-widget[aria-label="Composting.md line 4"]');
  await anchor.waitFor({ timeout: 20_000 });
  await screenshot(page, 'vscode-chat-answer');
  await anchor.click();
  await page.locator('.tab.active', { hasText: 'Composting.md' }).waitFor({ timeout: 20_000 });
  await until('the cursor on line 4', async () => ((await page.locator('.statusbar-item', { hasText: /Ln 4, Col 1/ }).count()) > 0 ? true : undefined));
  // Follow-ups are offered.
  await page.locator('.interactive-input-followups', { hasText: 'Search the notes for this' }).waitFor({ timeout: 20_000 });
});

test('the Chat view: /search lists the notes, each a link to its best section', onNewer, async () => {
  const response = await ask('@hearth /search compost heap', 'compost heap');
  await complete(response);
  await response.locator('.chat-inline-anchor-widget', { hasText: 'Composting.md' }).first().waitFor({ timeout: 20_000 });
  assert.match(await response.innerText(), /relevance \d\.\d\d/);
  assert.equal(chatRequests().some((r) => lastUserMessage(r).includes('compost heap') && !lastUserMessage(r).includes('KEY-compost')), false, 'search asks no model');
});

test('the Chat view: /related lists the notes related to the open note (Composting.md, opened above), not the note itself', onNewer, async () => {
  const response = await ask('@hearth /related', '/related');
  await complete(response);
  assert.match(await response.innerText(), /Notes related to techniques\/Composting\.md/);
  await response.locator('.chat-inline-anchor-widget', { hasText: 'Bread.md' }).first().waitFor({ timeout: 20_000 });
  assert.equal(await response.locator('.chat-inline-anchor-widget', { hasText: 'Composting.md' }).count(), 0);
});

test('the model picker: a Hearth provider\'s model picked there answers (the scripted endpoint receives the request)', onNewer, async () => {
  await page.locator('.interactive-input-part .model-picker-item').first().click();
  const toggle = page.locator('.action-widget .monaco-list-row.chat-model-picker-section-toggle');
  if ((await toggle.count()) > 0) await toggle.first().click();
  await page.locator('.action-widget .monaco-list-row', { hasText: 'gpt-4o (beta)' }).first().click();
  await page.locator('.interactive-input-part .model-picker-item', { hasText: 'gpt-4o (beta)' }).waitFor({ timeout: 20_000 });
  const seen = chatRequests().length;
  const response = await ask('@hearth hello KEY-picked', 'KEY-picked');
  await complete(response);
  const request = chatRequests().slice(seen).find((r) => lastUserMessage(r).includes('KEY-picked'));
  assert.ok(request, 'the scripted endpoint received the request');
  assert.equal(request.model, 'gpt-4o');
  assert.equal(server!.requests.filter((r) => r.includes('chat/completions')).length >= 1, true);
  await response.locator('.rendered-markdown', { hasText: 'Hello from the mock.' }).waitFor({ timeout: 20_000 });
});

test('a kiln write tool from the Chat view opens Hearth\'s diff review; Undo Last Agent Change restores the note byte for byte', onNewer, async () => {
  const response = await ask('@hearth #hearth_update_note KEY-write rewrite Bread.md', 'KEY-write');
  // VS Code asks first, with Hearth's description of the write.
  const confirmation = page.locator('.chat-tool-confirmation-carousel-container', { hasText: 'Hearth: Update note' });
  await confirmation.waitFor({ timeout: 60_000 });
  assert.match(await confirmation.innerText(), /Update note Bread\.md in the kiln/);
  await screenshot(page, 'vscode-chat-tool-confirmation');
  await confirmation.locator('.monaco-button', { hasText: /^Allow/ }).filter({ visible: true }).first().click();
  // Hearth's own review: the diff opens, nothing is written before Accept.
  await page.locator('.tabs-container .tab', { hasText: 'Bread.md' }).first().waitFor({ timeout: 60_000 });
  await page.locator('.monaco-diff-editor .modified', { hasText: 'Sourdough only.' }).first().waitFor({ timeout: 30_000 });
  assert.equal(readFileSync(join(ws, 'Bread.md'), 'utf8'), BREAD);
  await screenshot(page, 'vscode-chat-tool-review');
  await runCommand(page, 'Hearth: Accept Change');
  await until('Bread.md rewritten', () => (readFileSync(join(ws, 'Bread.md'), 'utf8') === '# Bread\n\nSourdough only.\n' ? true : undefined), 30_000);
  await complete(response);
  await response.locator('.rendered-markdown', { hasText: 'Rewrote' }).first().waitFor({ timeout: 30_000 });
  // The tool result went back to the model.
  assert.ok(chatRequests().some((r) => lastUserMessage(r).includes('KEY-write') && toolsThisTurn(r) > 0));
  await undoRestoresBread();
  // The key never reached VS Code's logs.
  assert.doesNotMatch(codeServer!.log(), /sk-e2e-secret-key/);
});

test('/agent kiln TASK: the internal agent runs it, its tool call shows as progress, its edit opens Hearth\'s review and is undone byte for byte', onNewer, async () => {
  const response = await ask('@hearth /agent kiln KEY-agent make Bread.md rye only', 'KEY-agent');
  // The agent's write waits in Hearth's review: nothing is written before Accept.
  await page.locator('.monaco-diff-editor .modified', { hasText: 'Rye only.' }).first().waitFor({ timeout: 60_000 });
  assert.equal(readFileSync(join(ws, 'Bread.md'), 'utf8'), BREAD);
  // Meanwhile the answer shows the agent's tool call as progress, by its title (progress lines are
  // transient in the Chat view: the finished answer folds them into "Completed N steps").
  await until('the tool call as progress', async () => (/Update note/.test(await response.evaluate((el) => el.textContent ?? '')) ? true : undefined), 20_000).catch(async (error) => {
    throw new Error(`${String(error)}; the answer shows: ${await response.evaluate((el) => el.textContent ?? '')}; screenshot ${await screenshot(page, 'vscode-chat-agent-progress')}`, { cause: error });
  });
  await screenshot(page, 'vscode-chat-agent');
  await runCommand(page, 'Hearth: Accept Change');
  await until('Bread.md rewritten by the agent', () => (readFileSync(join(ws, 'Bread.md'), 'utf8') === '# Bread\n\nRye only.\n' ? true : undefined), 30_000);
  await complete(response);
  await response.locator('.rendered-markdown', { hasText: 'The agent rewrote' }).first().waitFor({ timeout: 30_000 });
  // Journaled as any agent's edit: Undo Last Agent Change restores the note.
  await undoRestoresBread();
});

test('the gateway\'s MCP server starts from Hearth\'s MCP server definition provider and its tools are in the tool picker', onNewer, async () => {
  assert.match(codeServer!.hearthLog(20_000), /registered [^\n]*the gateway as an MCP server definition/);
  const rows = () => quickPickRows(page).evaluateAll((all) => all.map((row) => row.textContent ?? ''));
  await runCommand(page, 'MCP: List Servers');
  await quickPickRows(page).filter({ hasText: 'Hearth' }).first().click();
  await quickPickRows(page).filter({ hasText: 'Start Server' }).first().click();
  await until('the Hearth server running', async () => {
    await page.keyboard.press('Escape');
    await runCommand(page, 'MCP: List Servers');
    const listed = await quickPickRows(page).filter({ hasText: 'Hearth' }).first().innerText({ timeout: 5_000 }).catch(() => '');
    return /Running/.test(listed) ? true : undefined;
  }, 60_000);
  await page.keyboard.press('Escape');
  await page.locator('.interactive-input-part .action-label[aria-label^="Configure Tools"]').first().click();
  // The server's row, its tools folded under it: unfolded, they are the gateway's kiln tools by their
  // plain names (the hearth_ language model tools are the extension's own group, beside it).
  const gatewayRow = quickPickRows(page).filter({ hasText: /Hearth gateway/ }).first();
  await gatewayRow.waitFor({ timeout: 20_000 });
  if ((await gatewayRow.getAttribute('aria-expanded')) !== 'true') await gatewayRow.locator('.monaco-tl-twistie').first().click();
  await until('the gateway\'s tools in the tool picker', async () => {
    const labels = await rows();
    return ['create_note', 'delete_note', 'list_notes'].every((tool) => labels.some((row) => row.startsWith(tool))) ? true : undefined;
  }, 20_000).catch(async (error) => {
    throw new Error(`${String(error)}; rows: ${JSON.stringify(await rows())}`, { cause: error });
  });
  await screenshot(page, 'vscode-chat-tool-picker');
  await page.keyboard.press('Escape');
});
