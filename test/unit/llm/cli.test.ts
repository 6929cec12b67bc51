// `hearth models` and `hearth ask` as subprocesses against aimock, with a workspace config.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedPort, GOOD_KEY, startMockLlm, type MockLlm } from './mockLlm';
import { HEARTH_MAIN as MAIN, runHearth, TSX_LOADER as TSX, type HearthRun } from '../cli/runHearth';

let server: MockLlm;
let root: string;
let deadPort: number;

function hearth(args: string[], env: Record<string, string> = {}, stdin = ''): Promise<HearthRun> {
  return runHearth(args, { cwd: root, env: { HOME: root, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_CACHE_HOME: join(root, 'xdg-cache'), CLOUD_A_API_KEY: GOOD_KEY, HEARTH_TRUST: '1', ...env }, stdin });
}

before(async () => {
  server = await startMockLlm();
  server.mock.on({ userMessage: 'capital of France' }, { content: 'Paris is the capital.', usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 } } as never);
  server.mock.on({ userMessage: 'from stdin' }, { content: 'read it' });
  server.mock.on({ userMessage: 'tell me slowly' }, { content: 'one two three four five six seven eight nine ten eleven twelve' }, { latency: 150, chunkSize: 4 });
  server.mock.on({ model: 'gpt-4o-mini' }, { content: 'mini here' });
  root = await mkdtemp(join(tmpdir(), 'hearth-cli-'));
  deadPort = await closedPort();
  await mkdir(join(root, '.hearth'));
  await writeFile(
    join(root, '.hearth', 'config.toml'),
    `[llm]
default = "local"

[llm.providers.local]
type = "ollama"
endpoint = "${server.url}"
default_model = "qwen2.5:0.5b"

[llm.providers.openai]
type = "openai"
endpoint = "${server.url}/v1"
default_model = "gpt-4o-mini"

[llm.providers.offline]
type = "ollama"
endpoint = "http://127.0.0.1:${deadPort}"

[llm.providers.copilot]
type = "githubcopilot"

[llm.providers.literal]
type = "openai"
endpoint = "${server.url}/v1"
api_key = "sk-literal-in-config-42"
default_model = "gpt-4o-mini"
`,
  );
});

after(async () => {
  await server.stop();
  await rm(root, { recursive: true, force: true });
});

test('hearth models: a table with the active marker, sizes, and errors beside the others', async () => {
  const { code, stdout } = await hearth(['models']);
  assert.equal(code, 0);
  assert.match(stdout, /^\* local\s+qwen2\.5:0\.5b\s+494M$/m);
  assert.match(stdout, /^ {2}local\s+llama3\.2:latest\s+3\.2B$/m);
  assert.match(stdout, /^ {2}openai\s+gpt-4o-mini/m);
  assert.match(stdout, new RegExp(`^ {2}offline\\s+\\(unavailable\\)\\s+cannot connect .*127\\.0\\.0\\.1:${deadPort}.*ollama serve`, 'm'));
  assert.match(stdout, /^ {2}copilot\s+\(unavailable\)\s+.*only available inside the editor/m);
});

test('hearth models --json, the 5-minute cache, and --refresh', async () => {
  const before = server.requests.filter((r) => r === 'GET /api/tags').length;
  const { code, stdout } = await hearth(['models', '--json']);
  assert.equal(code, 0);
  const rows = JSON.parse(stdout) as { provider: string; type: string; model: string | null; active: boolean; error?: string }[];
  assert.deepEqual(rows.find((r) => r.active), { provider: 'local', type: 'local_runner', model: 'qwen2.5:0.5b', active: true, kind: 'chat', size: 0.494 });
  assert.ok(rows.some((r) => r.provider === 'openai' && r.type === 'cloud_a' && r.model === 'gpt-4o-mini' && !r.active));
  const offline = rows.find((r) => r.provider === 'offline');
  assert.equal(offline?.model, 'llama3.2');
  assert.match(offline?.error ?? '', /cannot connect/);
  // The earlier run cached the runner's answer: no new /api/tags within 5 minutes…
  assert.equal(server.requests.filter((r) => r === 'GET /api/tags').length, before);
  // …unless asked to refresh.
  await hearth(['models', '--refresh']);
  assert.equal(server.requests.filter((r) => r === 'GET /api/tags').length, before + 1);
  const cache = JSON.parse(await readFile(join(root, 'xdg-cache', 'hearth', 'models.json'), 'utf8'));
  assert.ok(Object.keys(cache).length >= 2);
  assert.ok(!JSON.stringify(cache).includes(GOOD_KEY));
  // A literal key in the config never reaches the cache file either.
  assert.ok(Object.values(cache).some((entry) => (entry as { provider: string }).provider === 'literal'));
  assert.ok(!JSON.stringify(cache).includes('sk-literal-in-config-42'));
});

test('hearth ask streams the answer from the active provider', async () => {
  const { code, stdout, stderr } = await hearth(['ask', 'What is the capital of France?']);
  assert.equal(code, 0, stderr);
  assert.equal(stdout, 'Paris is the capital.\n');
  // No index in this folder: the question goes ahead without kiln context, and one note says so.
  assert.equal(stderr.match(/hearth: note: no kiln context for this question \(no index yet/g)?.length, 1, stderr);
  const sent = server.wire.filter((w) => w.path === '/api/chat').at(-1)?.body as { model: string; messages: { content: string }[] };
  assert.equal(sent.model, 'qwen2.5:0.5b');
});

test('hearth ask --model provider/model --json prints message, usage and model', async () => {
  const { code, stdout, stderr } = await hearth(['ask', '--model', 'openai/gpt-4o-mini', '--json', 'capital of France?']);
  assert.equal(code, 0, stderr);
  const result = JSON.parse(stdout);
  assert.deepEqual(result, { message: 'Paris is the capital.', usage: { inputTokens: 7, outputTokens: 5 }, model: 'openai/gpt-4o-mini', stopReason: 'stop', sources: [] });
});

test('hearth ask --model with a provider typo exits 2 naming the configured providers, closest first, and sends nothing', async () => {
  const chats = () => server.requests.filter((r) => r.includes('/chat')).length;
  const before = chats();
  const { code, stdout, stderr } = await hearth(['ask', '-m', 'lcoal/qwen2.5:0.5b', 'capital of France?']);
  assert.equal(code, 2, stderr);
  assert.equal(stdout, '');
  assert.match(stderr, /^hearth ask: no provider 'lcoal' — configured: local, /m);
  const agent = await hearth(['ask', '--agent', 'kiln', '-m', 'lcoal/qwen2.5:0.5b', 'capital of France?']);
  assert.equal(agent.code, 2, agent.stderr);
  assert.match(agent.stderr, /no provider 'lcoal' — configured: local, /);
  assert.equal(chats(), before);
});

test('hearth ask reads the prompt from stdin', async () => {
  const { code, stdout } = await hearth(['ask'], {}, 'a question from stdin\n');
  assert.equal(code, 0);
  assert.equal(stdout, 'read it\n');
});

test('hearth ask: errors are one line with the remedy, no stack trace', async () => {
  const offline = await hearth(['ask', '--model', 'offline/llama3.2', 'hello']);
  assert.equal(offline.code, 1);
  assert.match(offline.stderr, /^hearth ask: cannot connect to provider "offline" .*ollama serve/m);
  assert.doesNotMatch(offline.stderr, /\n\s+at /);
  const copilot = await hearth(['ask', '--model', 'copilot/gpt-4.1', 'hello']);
  assert.equal(copilot.code, 1);
  assert.match(copilot.stderr, /only available inside the editor/);
  const noKey = await hearth(['ask', '--model', 'openai/gpt-4o-mini', 'hello'], { CLOUD_A_API_KEY: '' });
  assert.equal(noKey.code, 1);
  assert.match(noKey.stderr, /needs an API key: set the environment variable CLOUD_A_API_KEY/);
});

test('hearth ask: Ctrl-C stops the stream and exits 130 without an error message', async () => {
  const child = spawn(process.execPath, ['--import', TSX, MAIN, 'ask', 'tell me slowly'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: root, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_CACHE_HOME: join(root, 'xdg-cache'), HEARTH_TRUST: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const firstOutput = new Promise<void>((resolve) => child.stdout.on('data', (d) => ((stdout += d), resolve())));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  await firstOutput;
  child.kill('SIGINT');
  assert.equal(await closed, 130);
  assert.ok(stdout.length > 0 && !stdout.includes('twelve'), stdout);
  // Only the config's own warning (the literal key of one provider), no error about the interruption.
  assert.doesNotMatch(stderr, /hearth ask:|cancel/i);
});
