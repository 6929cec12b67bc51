// End to end in a real VS Code (code-server + Chromium) with the packaged .vsix: the chat panel in
// the Hearth activity bar container, the built-in `kiln` agent on the OpenAI wire (aimock on
// loopback). Open the panel, pick the agent (status bar follows), send a message and see the
// streamed markdown, `:model` changes the status bar, approve a tool call (the note is written)
// and reject one (the note stays), stop a slow turn, reload the window and find the conversation
// restored. Screenshots of the panel in the dark and light themes go to test/output/.
//
// Needs code-server, the packaged extension and Chromium (see harness.ts): skipped locally when one
// is missing, a failure in CI.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { type ChatRequest, lastTyped, requestText, scriptedProvider, scriptReplies, sendChat, toolCall, toolsThisTurn } from './scriptedModel';
import { closeAll, openBrowser, prerequisites, quickPickRows, runCommand, screenshot, startCodeServer, statusItem, tempDir, until, webviewFrame, type CodeServer, type Workbench } from './harness';
import { closedPort, startMockLlm, type MockLlm } from '../unit/llm/mockLlm';
import { tinyModelDir } from '../unit/index/tinyModel';

const skip = prerequisites();

let scratch: ReturnType<typeof tempDir> | undefined;
let server: MockLlm | undefined;
let codeServer: CodeServer | undefined;
let workbench: Workbench | undefined;
let page: Page;
let ws: string;

type Req = ChatRequest;
const text = requestText;
const lastUser = lastTyped;

const chat = (): FrameLocator => webviewFrame(page);
const send = (message: string) => sendChat(page, message);
const statusText = async (id: string) => (await statusItem(page, id).innerText()).trim();
const statusShows = (id: string, want: string) => until(`status bar ${id} "${want}"`, async () => ((await statusText(id)).includes(want) ? true : undefined), 30_000);

before(async () => {
  if (skip) return;
  scratch = tempDir('chat');
  ws = join(scratch.path, 'notebook');
  mkdirSync(join(ws, '.hearth'), { recursive: true });
  mkdirSync(join(ws, 'garden'));
  writeFileSync(join(ws, 'garden', 'tomatoes.md'), '# Tomatoes\n\nPlant them in May. Water every morning.\n');
  server = await startMockLlm();
  const on = scriptReplies(server);
  on((r) => lastUser(r).includes('KEY-create') && toolsThisTurn(r) > 0, { content: 'Created **ideas.md** for you.' });
  on((r) => lastUser(r).includes('KEY-create'), toolCall('c1', 'create_note', { path: 'ideas.md', content: '# Ideas\n\nGrow basil.\n' }));
  on((r) => lastUser(r).includes('KEY-delete') && toolsThisTurn(r) > 0, { content: 'Understood, I left **tomatoes.md** alone.' });
  on((r) => lastUser(r).includes('KEY-delete'), toolCall('d1', 'delete_note', { path: 'garden/tomatoes.md' }));
  // An upstream MCP tool (server-everything's read-only echo, behind the editor's gateway).
  // Answers only when the upstream's own result came back to the model.
  on((r) => lastUser(r).includes('KEY-echo') && toolsThisTurn(r) > 0 && text(r).includes('Echo: basil loves sun'), { content: 'The garden said: basil loves sun' });
  on((r) => lastUser(r).includes('KEY-echo') && toolsThisTurn(r) > 0, { content: 'The echo never came back.' });
  on((r) => lastUser(r).includes('KEY-echo'), toolCall('e1', 'ev_echo', { message: 'basil loves sun' }));
  on((r) => lastUser(r).includes('KEY-story'), { content: `Once upon a time ${'the garden grew and grew. '.repeat(24)}The end.` }, { chunkSize: 4, latency: 100 });
  on((r) => lastUser(r).includes('KEY-hello'), { content: 'Tomatoes need **sun** and `water`.\n\n```python\nprint("water the tomatoes")\n```\n\n<script>document.title = "pwned"</script>' }, { chunkSize: 8 });
  on((r) => text(r).length > 0, { content: 'Hello from the mock.' });
  writeFileSync(
    join(ws, '.hearth', 'config.toml'),
    `# The inline permission prompt is what this file tests; diff review has its own (edits.e2e.test.ts).
[chat]
review_edits = "never"

[llm]
default = "cloud"

${scriptedProvider('cloud', server, 'E2E_CHAT_KEY')}
[llm.providers.local]
type = "ollama"
endpoint = "${server.url}"
default_model = "qwen2.5:0.5b"

[llm.providers.down]
type = "openai"
endpoint = "http://127.0.0.1:${await closedPort()}/v1"
api_key = "{env:E2E_CHAT_KEY}"
default_model = "gpt-4o-mini"
timeout_secs = 5

[acp]
enable_discovery = false

[[mcp.servers]]
name = "everything"
prefix = "ev_"
allowed_tools = ["echo"]
[mcp.servers.transport]
type = "stdio"
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js'))}, "stdio"]

[embedding]
provider = "local_cpu"
model = ${JSON.stringify(tinyModelDir())}
`,
  );
  codeServer = await startCodeServer({ workspace: ws, env: { E2E_CHAT_KEY: 'sk-e2e-chat' }, settings: { 'workbench.colorTheme': 'Default Dark Modern' } });
  workbench = await openBrowser(codeServer.url);
  page = workbench.page;
  await statusShows('hearth.status', 'cloud/gpt-4o-mini');
});

after(() => closeAll(workbench, codeServer, server, scratch));

test('open the chat, pick the agent, streamed markdown, :model in the status bar', { skip, timeout: 240_000 }, async () => {
  // Before any pick, the agent item invites one (as the chat header does), rather than saying "no agent".
  await statusShows('hearth.agentStatus', 'Choose agent…');
  await runCommand(page, 'Hearth: Focus Chat');
  // lazy_agent_selection: the picker is shown; the agent status item follows the pick.
  const card = chat().locator('.agent-card[data-agent="kiln"]');
  await card.waitFor({ timeout: 60_000 });
  await card.click();
  await chat().locator('.agent-button', { hasText: 'kiln' }).waitFor();
  await statusShows('hearth.agentStatus', 'kiln');

  await send('KEY-hello what do tomatoes need?');
  const reply = chat().locator('.turn .agent .markdown').first();
  await reply.locator('strong', { hasText: 'sun' }).waitFor({ timeout: 30_000 });
  await reply.locator('pre code .hljs-built_in, pre code .hljs-string').first().waitFor();
  assert.equal(await reply.locator('pre button.copy').count(), 1, 'code blocks have a copy button');
  // The script in the reply is shown as text and never ran.
  assert.match(await reply.innerText(), /<script>document\.title = "pwned"<\/script>/);
  assert.equal(await reply.locator('script').count(), 0);
  assert.equal(await chat().locator('.send').innerText(), 'Send', 'the turn ended');

  await send(':model local/llama3.2:latest');
  await statusShows('hearth.status', 'local/llama3.2:latest');
  await chat().locator('.notice', { hasText: 'Model for this session: local/llama3.2:latest' }).waitFor();
  await chat().locator('.model-button', { hasText: 'local/llama3.2:latest' }).waitFor();
  // Back to the cloud model for the tool calls (a 3 B local model keeps full tools too, but the
  // scripted tool calls are on the OpenAI wire).
  await send(':model cloud/gpt-4o-mini');
  await statusShows('hearth.status', 'cloud/gpt-4o-mini');
  // A wider side bar for the screenshots (drag its sash).
  const sidebar = await page.locator('.part.sidebar').boundingBox();
  if (sidebar) {
    const x = sidebar.x + sidebar.width + 1;
    await page.mouse.move(x, 400);
    await page.mouse.down();
    await page.mouse.move(x + 260, 400, { steps: 5 });
    await page.mouse.up();
  }
  await screenshot(page, 'chat-dark');
});

test('approve one tool call (the note is written) and reject another (the note stays)', { skip, timeout: 180_000 }, async () => {
  await send('KEY-create a note with ideas');
  const allow = chat().locator('.permission button[data-option-id="allow_once"]').last();
  await allow.waitFor({ timeout: 30_000 });
  assert.match(await chat().locator('.permission .permission-detail').last().innerText(), /ideas\.md/);
  await allow.click();
  await chat().locator('.markdown strong', { hasText: 'ideas.md' }).waitFor({ timeout: 30_000 });
  assert.equal(readFileSync(join(ws, 'ideas.md'), 'utf8').includes('Grow basil.'), true);
  const created = chat().locator('details.tool[data-status="completed"]').last();
  assert.match(await created.locator('summary').innerText(), /create_note/);
  assert.equal(await created.evaluate((d) => (d as HTMLDetailsElement).open), false, 'tool calls are collapsed');

  await send('KEY-delete the tomatoes note');
  const deny = chat().locator('.permission:not(.answered) button[data-option-id="reject_once"]');
  await deny.waitFor({ timeout: 30_000 });
  await deny.click();
  await chat().locator('.markdown', { hasText: 'I left tomatoes.md alone' }).waitFor({ timeout: 30_000 });
  await chat().locator('details.tool[data-status="denied"]').waitFor();
  assert.ok(existsSync(join(ws, 'garden', 'tomatoes.md')), 'a rejected delete never runs');
});

test('an upstream tool behind the gateway runs in an internal agent turn', { skip, timeout: 120_000 }, async () => {
  await until('the upstream ready', async () => ((await statusText('hearth.gateway')).includes('1/1') ? true : undefined), 60_000);
  await send('KEY-echo what does the garden say?');
  await chat().locator('.markdown', { hasText: 'The garden said: basil loves sun' }).waitFor({ timeout: 30_000 });
  const call = chat().locator('details.tool[data-status="completed"]').last();
  assert.match(await call.locator('summary').innerText(), /ev_echo/);
});

test('stop a streaming turn', { skip, timeout: 120_000 }, async () => {
  await send('KEY-story tell me a long story');
  const turn = chat().locator('.turn').last();
  await turn.locator('.markdown', { hasText: 'Once upon' }).waitFor({ timeout: 30_000 });
  await chat().locator('.send.stop').click();
  await turn.locator('.stopped', { hasText: 'Stopped.' }).waitFor({ timeout: 20_000 });
  assert.doesNotMatch(await turn.innerText(), /The end\./);
  assert.equal(await chat().locator('.send').innerText(), 'Send');
});

test('Ask About Selection attaches the selection with its file and lines, and the agent receives it', { skip, timeout: 120_000 }, async () => {
  await page.locator('.part.editor').click();
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill('tomatoes.md');
  await quickPickRows(page).filter({ hasText: 'tomatoes.md' }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: 'tomatoes.md' }).waitFor();
  // Under load the first click can land before the editor takes focus, and Ctrl+A then selects nothing:
  // select again until the editor draws a selection.
  await until('the whole note selected', async () => {
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+A');
    return (await page.locator('.monaco-editor .selected-text').count()) > 0 ? true : undefined;
  });
  await runCommand(page, 'Hearth: Ask About Selection');
  await chat().locator('.composer .chips', { hasText: 'garden/tomatoes.md:1-3' }).waitFor({ timeout: 20_000 });
  const before = server!.wire.length;
  await send('KEY-hello when do I plant them?');
  await chat().locator('.turn .user .attached', { hasText: 'garden/tomatoes.md:1-3' }).waitFor();
  await until('the reply', async () => ((await chat().locator('.send').innerText()) === 'Send' ? true : undefined));
  assert.ok(server!.wire.slice(before).some((w) => JSON.stringify(w.body).includes('Plant them in May')), 'the selected text went to the model');
  assert.equal(await chat().locator('.composer .chips .chip').count(), 0, 'attachments go with one message');
});

test('a provider that is down: the error with its remedy in the conversation, and Retry once it is fixed', { skip, timeout: 120_000 }, async () => {
  await send(':model down/gpt-4o-mini');
  await statusShows('hearth.status', 'down/gpt-4o-mini');
  await send('KEY-hello is anyone there?');
  const error = chat().locator('.turn').last().locator('.error');
  await error.waitFor({ timeout: 60_000 });
  assert.match(await error.locator('.error-message').innerText(), /connect/i);
  assert.match(await error.locator('.error-remedy').innerText(), /Start the model server/, 'the remedy is shown');
  // What this machine has instead, in place (#29): here the configured providers that answer; a click switches.
  const useCloud = error.locator('.error-choices button.choice', { hasText: 'Use cloud/' });
  await useCloud.waitFor({ timeout: 30_000 });
  await useCloud.click();
  await statusShows('hearth.status', 'cloud/');
  await send(':model cloud/gpt-4o-mini');
  await statusShows('hearth.status', 'cloud/gpt-4o-mini');
  await error.locator('button.retry').click();
  await chat().locator('.turn').last().locator('.markdown strong', { hasText: 'sun' }).waitFor({ timeout: 30_000 });
  assert.equal(await chat().locator('.turn').last().locator('.error').count(), 0, 'the retried turn replaced the failed one');
});

test('after a window reload the conversation is restored; screenshots in both themes', { skip, timeout: 180_000 }, async () => {
  await page.reload();
  await page.locator('.part.statusbar').waitFor({ timeout: 90_000 });
  await statusShows('hearth.status', 'cloud/gpt-4o-mini'); // the extension is active again
  // The Hearth container comes back open after a reload; only open it if the layout did not keep it.
  const restored = await chat().locator('.turn').first().waitFor({ timeout: 20_000 }).then(() => true, () => false);
  if (!restored) {
    await page.locator('.part.editor').click();
    await runCommand(page, 'Hearth: Focus Chat');
  }
  await chat().locator('.turn .user', { hasText: 'KEY-hello what do tomatoes need?' }).waitFor({ timeout: 60_000 });
  await chat().locator('.turn .agent strong', { hasText: 'sun' }).first().waitFor();
  assert.equal(await chat().locator('.turn').count(), 7);
  await chat().locator('details.tool[data-status="denied"]').waitFor();
  // The history lists it.
  await chat().locator('.history-button').click();
  await chat().locator('.history-list li', { hasText: 'KEY-hello what do tomatoes need?' }).waitFor();
  await chat().locator('.history-button').click();
  await screenshot(page, 'chat-dark-restored');

  // The light theme, chosen like a user would; the panel follows the theme's variables.
  await page.locator('.part.editor').click();
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+T');
  try {
    // The theme list (its rows are themes, the current one first); type only once it is there.
    await page.locator('.quick-input-widget input[placeholder*="Theme" i], .quick-input-widget input[aria-label*="Theme" i]').first().waitFor();
    await page.locator('.quick-input-widget input').fill('Light Modern');
    await quickPickRows(page).filter({ hasText: 'Light Modern' }).first().waitFor();
    await page.keyboard.press('Enter');
  } catch (error) {
    await screenshot(page, 'chat-theme-failure');
    throw error;
  }
  await until('the light theme', async () => ((await page.locator('.monaco-workbench.vs').count()) > 0 ? true : undefined), 30_000);
  const background = await chat().locator('body').evaluate((b) => getComputedStyle(b).backgroundColor);
  assert.notEqual(background, 'rgba(0, 0, 0, 0)');
  const [r, g, b] = background.match(/\d+/g)!.map(Number);
  assert.ok(r! + g! + b! > 600, `a light background in the panel (${background})`);
  await screenshot(page, 'chat-light');
});
