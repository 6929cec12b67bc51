// End to end in a real VS Code (code-server + Chromium) with the packaged .vsix and two real ACP
// agents from npm as a user runs them: codex-acp (Codex, OpenAI Responses wire, through its own
// config.toml provider) and claude-agent-acp (Claude Code, Anthropic wire), both against one local
// scripted endpoint (aimock behind a recording proxy). For each agent, in the chat panel: a first
// turn; the mode and the model picked in the header pickers reach the agent (the endpoint's next
// request shows them); after a window reload the conversation's next turn resumes the agent's
// session (the endpoint receives the earlier turn, and no recap was needed); codex's model shows in
// the agent status item, whose quick pick switches it; a `/` command picked from the agent's own
// list runs as that command.
//
// Needs code-server, the packaged extension and Chromium (see harness.ts) and the two agents
// (installed once into node_modules/.cache by test/unit/agents/acp/fixtures/realAgents.ts):
// skipped locally when one is missing, a failure in CI.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { closeAll, e2eRequired, openBrowser, prerequisites, quickPickRows, runCommand, screenshot, startCodeServer, statusItem, tempDir, until, webviewFrame, type CodeServer, type Workbench } from './harness';
import { scriptedProvider, sendChat } from './scriptedModel';
import { tinyModelDir } from '../unit/index/tinyModel';
import { startMockLlm, type MockLlm } from '../unit/llm/mockLlm';
import { installRealAgent, REAL_AGENT_CHOICES, realAgentLaunch, type RealAgentName } from '../unit/agents/acp/fixtures/realAgents';

const AGENTS: RealAgentName[] = ['codex', 'claude'];

function agentsMissing(): false | string {
  const reasons = AGENTS.map(installRealAgent).filter(Boolean);
  if (reasons.length === 0) return false;
  if (e2eRequired()) throw new Error(`the real ACP agents could not be installed: ${reasons.join('; ')}`);
  return reasons.join('; ');
}

const skip = prerequisites() || agentsMissing();

let scratch: ReturnType<typeof tempDir> | undefined;
let server: MockLlm | undefined;
let codeServer: CodeServer | undefined;
let workbench: Workbench | undefined;
let page: Page;

const chat = (): FrameLocator => webviewFrame(page);
const wireSince = (from: number) => server!.wire.slice(from).map((w) => JSON.stringify(w.body));
const idle = () => until('the turn to end', async () => ((await chat().locator('.send').innerText()) === 'Send' ? true : undefined), 120_000);

/** Sends a message and waits for the agent's reply in a new turn. */
async function turn(message: string): Promise<void> {
  const turns = await chat().locator('.turn').count();
  await sendChat(page, message);
  await until('a new turn', async () => ((await chat().locator('.turn').count()) > turns ? true : undefined), 30_000);
  await idle();
  const last = chat().locator('.turn').last();
  assert.equal(await last.locator('.error').count(), 0, `no error in the turn: ${await last.innerText()}\n${codeServer!.hearthLog()}`);
}

/** A header picker of the running agent session, by its category. */
const picker = (category: 'mode' | 'model') => chat().locator(`.agent-option-${category} select`);

async function reloadWindow(): Promise<void> {
  await page.reload();
  await page.locator('.part.statusbar').waitFor({ timeout: 90_000 });
  // The Hearth container comes back open after a reload; only open it if the layout did not keep it.
  const restored = await chat().locator('.turn').first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
  if (!restored) {
    await page.locator('.part.editor').click();
    await runCommand(page, 'Hearth: Focus Chat');
  }
}

before(async () => {
  if (skip) return;
  scratch = tempDir('acp-agents');
  const ws = join(scratch.path, 'notebook');
  mkdirSync(join(ws, '.hearth'), { recursive: true });
  writeFileSync(join(ws, 'plums.md'), '# Plums\n\nPrune them in summer.\n');
  server = await startMockLlm();
  server.mock.on({}, { content: 'Hello from the local model.' });
  const profiles = AGENTS.map((name) => {
    const launch = realAgentLaunch(name, server!.url, join(scratch!.path, `home-${name}`));
    return `[acp.agents.${name}]
command = ${JSON.stringify(launch.command)}
args = ${JSON.stringify(launch.args)}
env = { ${Object.entries(launch.env).map(([key, value]) => `${key} = ${JSON.stringify(value)}`).join(', ')} }
`;
  });
  writeFileSync(
    join(ws, '.hearth', 'config.toml'),
    `# Hearth's own model and index, offline, so no setup prompt or failed download steals the window.
[llm]
default = "cloud"

${scriptedProvider('cloud', server, 'E2E_ACP_KEY')}
[embedding]
provider = "local_cpu"
model = ${JSON.stringify(tinyModelDir())}

[acp]
enable_discovery = false
# Each conversation picks its agent with :agent (codex first, then claude in a new one).
default_agent = "codex"
lazy_agent_selection = false
# A real agent's first start (Claude Code loads its whole CLI) can take a while on a busy machine.
streaming_timeout_minutes = 3

${profiles.join('\n')}`,
  );
  codeServer = await startCodeServer({ workspace: ws, env: { E2E_ACP_KEY: 'sk-e2e-acp' } });
  workbench = await openBrowser(codeServer.url);
  page = workbench.page;
  // The extension is active once its agent item is in the status bar (its commands are in the palette then).
  await until('the Hearth agent status item', async () => ((await statusItem(page, 'hearth.agentStatus').count()) > 0 ? true : undefined), 90_000);
  // An editor with a webview of its own (a walkthrough's page) would come first among the webviews
  // the chat is looked for in: the editors close, the chat in the side bar stays.
  await runCommand(page, 'View: Close All Editors');
  // The chat's composer; a Focus Chat that came too early is asked again.
  const composer = () => chat().locator('textarea.input');
  await until('the chat composer', async () => {
    if ((await composer().count().catch(() => 0)) > 0) return true;
    await runCommand(page, 'Hearth: Focus Chat').catch(() => page.keyboard.press('Escape'));
    return composer().waitFor({ state: 'attached', timeout: 15_000 }).then(() => true, () => undefined);
  }, 90_000).catch(async (error) => {
    await screenshot(page, 'acp-agents-start-failure');
    throw new Error(`${(error as Error).message}\n--- Hearth log ---\n${codeServer?.hearthLog(6000)}`, { cause: error });
  });
});

after(() => closeAll(workbench, codeServer, server, scratch));

for (const name of AGENTS) {
  const choice = REAL_AGENT_CHOICES[name];
  test(`${name}: header mode and model reach the agent, a / command from its list is sent, and after a window reload the conversation keeps its context`, { skip, timeout: 420_000 }, async () => {
    try {
      if (name !== AGENTS[0]) {
        await sendChat(page, ':new');
        // :new ends the previous agent's session first: a message sent before the new conversation shows would land in the old one.
        await until('the new conversation', async () => ((await chat().locator('.turn').count()) === 0 ? true : undefined), 30_000);
      }
      await sendChat(page, `:agent ${name}`);
      await chat().locator('.agent-button', { hasText: name }).waitFor({ timeout: 30_000 }).catch(async (error) => {
        throw new Error(`the chat did not switch to ${name}: ${await chat().locator('.notice').allInnerTexts().catch(() => [])}`, { cause: error });
      });
      const word = `PLUM-${name.toUpperCase()}-7`;
      await turn(`remember the word ${word}`);
      await chat().locator('.turn').last().locator('.markdown', { hasText: 'Hello from the local model.' }).waitFor();

      // The agent's own pickers are in the header once its session runs; a pick moves the picker
      // only when the agent reports its new state.
      await picker('mode').selectOption(choice.mode);
      await until(`the mode picker at ${choice.mode}`, async () => ((await picker('mode').inputValue()) === choice.mode ? true : undefined), 30_000);
      await picker('model').selectOption(choice.model);
      await until(`the model picker at ${choice.model}`, async () => ((await picker('model').inputValue()) === choice.model ? true : undefined), 30_000);
      let from = server!.wire.length;
      await turn('go on');
      assert.ok(wireSince(from).some((body) => choice.modeSeen.test(body)), `the endpoint sees mode ${choice.mode}`);
      assert.ok(wireSince(from).some((body) => choice.modelSeen.test(body)), `the endpoint sees model ${choice.model}`);

      await reloadWindow();
      await chat().locator('.turn .user', { hasText: `remember the word ${word}` }).waitFor({ timeout: 60_000 });
      from = server!.wire.length;
      await turn('which word did I ask you to remember?');
      const resumed = wireSince(from);
      assert.ok(resumed.length > 0, 'the agent called the endpoint');
      assert.ok(resumed.some((body) => body.includes(`remember the word ${word}`)), 'the endpoint receives the earlier turn');
      // The agent resumed its own session: Hearth sent no recap of the conversation.
      // (A recap would carry the earlier turn too, as `User: …` in an attachment named "conversation so far".)
      assert.ok(resumed.every((body) => !body.includes(`User: remember the word ${word}`)), 'no recap was needed');
      assert.ok(resumed.some((body) => choice.modelSeen.test(body)), `still model ${choice.model} after the reload`);

      if (name === 'codex') {
        // The status bar names the agent's model, and switches it from a quick pick of the agent's models.
        const item = statusItem(page, 'hearth.agentStatus');
        await until('codex\'s model in the status bar', async () => ((await item.innerText()).includes('codex · GPT-5.4-Mini') ? true : undefined), 30_000);
        await item.click();
        // Typed until one row is left (the list lays itself out while it fills: a click could land on a moving row).
        const input = page.locator('.quick-input-widget input');
        await input.waitFor();
        await input.fill('gpt-5.2');
        await until('one model row', async () => ((await quickPickRows(page).count()) === 1 && (await quickPickRows(page).first().innerText()).includes('gpt-5.2') ? true : undefined), 10_000);
        await input.press('Enter');
        await until('the model picker at gpt-5.2', async () => ((await picker('model').inputValue()) === 'gpt-5.2' ? true : undefined), 30_000);
        await until('the status bar at gpt-5.2', async () => ((await item.innerText()).includes('codex · gpt-5.2') ? true : undefined), 30_000);
      }

      // `/` completes from the agent's own commands (of the resumed session); the picked one is sent
      // as the agent expects. Last: Claude's /compact replaces the context with a summary.
      const input = chat().locator('textarea.input');
      await input.fill(`/${choice.command.slice(0, 3)}`);
      const item = chat().locator('.completions li', { hasText: `/${choice.command}` }).first();
      await item.waitFor({ timeout: 20_000 });
      await item.dispatchEvent('mousedown');
      await until('the command in the composer', async () => ((await input.inputValue()).trim() === `/${choice.command}` ? true : undefined), 10_000);
      from = server!.wire.length;
      await turn((await input.inputValue()).trim());
      assert.ok(wireSince(from).some((body) => choice.commandSeen.test(body)), `/${choice.command} ran as ${name}'s command`);
      await screenshot(page, `acp-${name}`);
    } catch (error) {
      await screenshot(page, `acp-${name}-failure`).catch(() => undefined);
      throw new Error(`${(error as Error).message}\n--- Hearth log ---\n${codeServer?.hearthLog(6000)}`, { cause: error });
    }
  });
}
