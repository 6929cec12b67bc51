// `[chat].auto_context` in the CLI, as subprocesses: plain `hearth ask` sends the best note section
// with the question (the mock server records it) and prints it as a source; --json has `sources`;
// --no-context and `auto_context = false` skip it; `hearth ask --agent` gives it to the agent too. The
// index is built beforehand on the tiny local_cpu model; the CLI process itself runs cold (lexical).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GOOD_KEY, startMockLlm, type MockLlm } from '../llm/mockLlm';
import { makeKiln, removeKiln, tinyIndex } from '../index/kilnIndexHelpers';
import { tinyModelDir } from '../index/tinyModel';
import { runHearth, type HearthRun } from './runHearth';

let server: MockLlm;
let root: string;

function hearth(args: string[]): Promise<HearthRun> {
  return runHearth(args, { cwd: root, env: { HOME: root, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_CACHE_HOME: join(root, 'xdg-cache'), CLOUD_A_API_KEY: GOOD_KEY, HEARTH_TRUST: '1' } });
}

function config(autoContext: boolean): string {
  return `[chat]\nauto_context = ${autoContext}\n\n[llm]\ndefault = "mock"\n\n[llm.providers.mock]\ntype = "openai"\nendpoint = "${server.url}/v1"\ndefault_model = "gpt-4o-mini"\n\n[embedding]\nprovider = "local_cpu"\nmodel = ${JSON.stringify(tinyModelDir())}\n`;
}

/** The text of the last user message the model received. */
function lastPrompt(): string {
  const body = server.wire.filter((w) => w.path.includes('chat/completions')).at(-1)!.body as { messages: { role: string; content: unknown }[] };
  const user = body.messages.filter((m) => m.role === 'user').at(-1)!;
  return typeof user.content === 'string' ? user.content : JSON.stringify(user.content);
}

before(async () => {
  server = await startMockLlm();
  server.mock.on({ predicate: () => true } as never, { content: 'Weekly.' });
  root = makeKiln({
    'techniques/Composting.md': '# Composting\n\nTurn the compost heap weekly.\nKeep the compost moist like a sponge.\n',
    'garden/beds.md': '# Raised beds\n\nBeds need drainage.\n',
  });
  mkdirSync(join(root, '.hearth'), { recursive: true });
  writeFileSync(join(root, '.hearth', 'config.toml'), config(true));
  const index = tinyIndex(root);
  await index.update();
  await index.dispose();
});
after(async () => {
  await server.stop();
  removeKiln(root);
});

test('plain hearth ask: the best section goes with the question and is printed as a source', async () => {
  const { code, stdout, stderr } = await hearth(['ask', 'how often to turn the compost heap?']);
  assert.equal(code, 0, stderr);
  assert.match(lastPrompt(), /From techniques\/Composting\.md \(lines \d+-\d+\):[\s\S]*Turn the compost heap weekly[\s\S]*how often to turn the compost heap\?$/);
  assert.match(stdout, /^Weekly\.\n\nSources:\n {2}techniques\/Composting\.md:\d+\n/);
});

test('hearth ask --json has sources; --no-context sends the question alone', async () => {
  const json = await hearth(['ask', '--json', 'how often to turn the compost heap?']);
  assert.equal(json.code, 0, json.stderr);
  const sources = JSON.parse(json.stdout).sources as { path: string; startLine: number; endLine: number; via: string }[];
  assert.equal(sources[0]!.path, 'techniques/Composting.md');
  assert.equal(sources[0]!.via, 'auto_context');
  assert.ok(sources[0]!.endLine >= sources[0]!.startLine);
  const bare = await hearth(['ask', '--no-context', '--json', 'how often to turn the compost heap?']);
  assert.equal(bare.code, 0, bare.stderr);
  assert.equal(lastPrompt(), 'how often to turn the compost heap?');
  assert.deepEqual(JSON.parse(bare.stdout).sources, []);
});

test('hearth ask --agent kiln: the agent gets the section too, listed with via auto_context', async () => {
  const { code, stdout, stderr } = await hearth(['ask', '--agent', 'kiln', '--json', 'how often to turn the compost heap?']);
  assert.equal(code, 0, stderr);
  assert.match(lastPrompt(), /techniques\/Composting\.md[\s\S]*Turn the compost heap weekly/);
  assert.equal(JSON.parse(stdout).sources[0].via, 'auto_context');
});

test('auto_context = false: nothing is added', async () => {
  writeFileSync(join(root, '.hearth', 'config.toml'), config(false));
  try {
    const { code, stderr } = await hearth(['ask', 'how often to turn the compost heap?']);
    assert.equal(code, 0, stderr);
    assert.equal(lastPrompt(), 'how often to turn the compost heap?');
  } finally {
    writeFileSync(join(root, '.hearth', 'config.toml'), config(true));
  }
});
