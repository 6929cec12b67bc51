// `hearth config`, `hearth config --json` and `hearth config check` as real subprocesses on temp
// workspaces, the global file under a temp XDG_CONFIG_HOME (HOME/APPDATA pointed there too).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { runHearth, type HearthRun } from './runHearth';

const SECRET = 'sk-live-abcdef1234567890';
const TOKEN = 'ghp_tokenvalue987654321';
const ENV_KEY = 'env-cloud-b-key-55555';
let root: string;

function hearth(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<HearthRun> {
  return runHearth(args, {
    cwd: options.cwd ?? join(root, 'ws'),
    env: { HOME: root, APPDATA: join(root, 'xdg'), XDG_CONFIG_HOME: join(root, 'xdg'), XDG_CACHE_HOME: join(root, 'cache'), HEARTH_TRUST: '1', ...options.env },
  });
}

async function workspace(name: string, toml: string | undefined): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, '.hearth'), { recursive: true });
  if (toml !== undefined) await writeFile(join(dir, '.hearth', 'config.toml'), toml);
  return dir;
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-config-cli-'));
  await mkdir(join(root, 'xdg', 'hearth'), { recursive: true });
  await writeFile(join(root, 'xdg', 'hearth', 'config.toml'), '[chat]\ntemperature = 1.1\nmax_tokens = 999\n');
  await workspace(
    'ws',
    `[chat]
temperature = 0.3

[llm.providers.main]
type = "openai"
api_key = "${SECRET}"

[llm.providers.other]
type = "anthropic"
api_key = "{env:CLOUD_B_API_KEY}"

[[mcp.servers]]
name = "github"
prefix = "gh_"
[mcp.servers.transport]
type = "stdio"
command = "npx"
[mcp.servers.transport.env]
GITHUB_TOKEN = "${TOKEN}"
`,
  );
  await workspace('broken', '[chat]\ntemperature = 7\n\n[cli]\nshow_progres = true\n');
  await workspace('warned', '[clii]\n');
  await workspace('clean', '[chat]\ntemperature = 0.2\n');
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

function assertNoSecret(text: string): void {
  for (const secret of [SECRET, TOKEN, ENV_KEY]) assert.equal(text.includes(secret), false, `${secret} printed`);
}

test('hearth config: valid TOML, each value with its source (default, global, workspace, env), no secret', async () => {
  const kiln = join(root, 'kiln-from-env');
  const { code, stdout, stderr } = await hearth(['config'], { env: { HEARTH_KILN_PATH: kiln, CLOUD_B_API_KEY: ENV_KEY } });
  assert.equal(code, 0, stderr);
  const parsed = parseToml(stdout) as { chat: { temperature: number; max_tokens: number }; kiln_path: string; mcp: { servers: { name: string }[] } };
  assert.equal(parsed.chat.temperature, 0.3);
  assert.equal(parsed.chat.max_tokens, 999);
  assert.equal(parsed.kiln_path, kiln);
  assert.equal(parsed.mcp.servers[0].name, 'github');
  assert.match(stdout, /^temperature = 0\.3 {2}# workspace$/m);
  assert.match(stdout, /^max_tokens = 999 {2}# global$/m);
  assert.match(stdout, /^timeout_secs = 120 {2}# default$/m);
  assert.match(stdout, new RegExp(`^kiln_path = "${kiln}" {2}# env$`, 'm'));
  assert.match(stdout, /^api_key = "\{env:CLOUD_B_API_KEY\}"/m, 'references are shown as written');
  assertNoSecret(stdout + stderr);
});

test('hearth config --json: {config, sources, problems}, masked', async () => {
  const { code, stdout } = await hearth(['config', '--json'], { env: { CLOUD_B_API_KEY: ENV_KEY } });
  assert.equal(code, 0);
  const json = JSON.parse(stdout) as { config: { chat: { temperature: number } }; sources: Record<string, string>; problems: unknown[] };
  assert.deepEqual(Object.keys(json), ['config', 'sources', 'problems']);
  assert.equal(json.config.chat.temperature, 0.3);
  assert.equal(json.sources['chat.temperature'], 'workspace');
  assert.equal(json.sources['chat.max_tokens'], 'global');
  assert.equal(json.sources['chat.timeout_secs'], 'default');
  assert.ok(Array.isArray(json.problems));
  assertNoSecret(stdout);
});

test('hearth config check: file:line:col: severity: message, exit 1 on an error', async () => {
  const file = join(root, 'broken', '.hearth', 'config.toml');
  const { code, stdout, stderr } = await hearth(['config', 'check'], { cwd: join(root, 'broken') });
  assert.equal(code, 1);
  const lines = stdout.trimEnd().split('\n');
  assert.equal(lines.length, 2, stdout);
  assert.match(lines[0], new RegExp(`^${file}:2:1: error: .*chat\\.temperature`));
  assert.match(lines[1], new RegExp(`^${file}:5:1: warning: .*Did you mean \`show_progress\``));
  assert.match(stderr, /1 error\(s\), 1 warning\(s\)/);
});

test('hearth config check: warnings alone exit 0; a clean config says so on stderr; --workspace from elsewhere', async () => {
  const warned = await hearth(['config', 'check', '--workspace', join(root, 'warned')], { cwd: root });
  assert.equal(warned.code, 0);
  assert.match(warned.stdout, /config\.toml:1:1: warning: /);
  const clean = await hearth(['config', 'check', '-w', 'clean'], { cwd: root });
  assert.equal(clean.code, 0);
  assert.equal(clean.stdout, '');
  assert.match(clean.stderr, /no problems/);
  const shown = await hearth(['config', '--workspace', join(root, 'clean')], { cwd: root });
  assert.match(shown.stdout, /^temperature = 0\.2 {2}# workspace$/m);
});

test('hearth config: usage errors exit 2 with a clear message; --help exits 0', async () => {
  const unknown = await hearth(['config', '--bogus']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^hearth config: unknown option "--bogus" \(see hearth config --help\)$/m);
  const stray = await hearth(['config', 'chek']);
  assert.equal(stray.code, 2);
  assert.match(stray.stderr, /unexpected argument "chek"/);
  const help = await hearth(['config', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: hearth config/);
  assert.match(help.stdout, /--workspace DIR/);
});

test('hearth --help lists every command with one line each; --version prints the version', async () => {
  const help = await hearth(['--help']);
  assert.equal(help.code, 0);
  for (const command of ['config', 'models', 'ask', 'gateway', 'tools']) assert.match(help.stdout, new RegExp(`^ {2}${command} +\\S`, 'm'));
  const version = await hearth(['--version']);
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  const unknown = await hearth(['frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
});
