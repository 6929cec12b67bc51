import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, resolveKilnPath, type LoadedConfig } from '../../../src/core/config/load';
import { defaultConfig } from '../../../src/core/config/schema';

/** Writes a global and a workspace file into a scratch folder and loads them. */
async function load(global: string | undefined, workspace: string | undefined, env: NodeJS.ProcessEnv = {}): Promise<LoadedConfig & { root: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-load-'));
  const root = join(dir, 'ws');
  mkdirSync(join(root, '.hearth'), { recursive: true });
  if (global !== undefined) writeFileSync(join(dir, 'global.toml'), global);
  if (workspace !== undefined) writeFileSync(join(root, '.hearth', 'config.toml'), workspace);
  try {
    return { ...(await loadConfig({ trusted: true, workspaceRoot: root, globalConfigPath: join(dir, 'global.toml'), env: { HOME: '/home/tester', ...env } })), root };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('no files: every default of the reference, sources all "default", no problems', async () => {
  const { config, sources, problems, root } = await load(undefined, undefined);
  assert.deepEqual(problems, []);
  assert.equal(config.kiln_path, root);
  assert.deepEqual(config.agent_directories, []);
  assert.deepEqual({ ...config.chat }, { provider: 'local_runner', agent_preference: 'acp', temperature: 0.7, max_tokens: 2048, timeout_secs: 120, enable_markdown: true, size_aware_prompts: true, review_edits: 'always', auto_context: true });
  assert.deepEqual({ ...config.acp, agents: {} }, { enable_discovery: true, session_timeout_minutes: 30, max_message_size_mb: 25, streaming_timeout_minutes: 15, lazy_agent_selection: true, agents: {} });
  assert.equal(config.embedding.provider, 'local_cpu');
  assert.equal(config.embedding.batch_size, 16);
  assert.deepEqual(config.context.rules_files, ['AGENTS.md', '.rules', '.github/copilot-instructions.md']);
  assert.deepEqual({ ...config.cli }, { show_progress: true, confirm_destructive: true, verbose: false });
  assert.deepEqual(config.mcp.servers, []);
  assert.equal(config.processing.store, 'flat');
  assert.equal(config.processing.max_file_size_kb, 1024);
  assert.equal(config.logging.level, 'info');
  assert.deepEqual({ ...config.changes }, { keep_days: 30, max_mb: 100 });
  assert.ok(Object.values(sources).every((s) => s === 'default'));
  assert.equal(sources['chat.temperature'], 'default');
  assert.equal(sources['mcp.servers'], 'default');
});

test('provider tables take their defaults: max_tokens 4096, temperature 0.7, timeout 120', async () => {
  const { config } = await load(undefined, '[llm.providers.w]\ntype = "cloud_a"\n');
  assert.deepEqual({ ...config.llm.providers.w }, { type: 'cloud_a', temperature: 0.7, max_tokens: 4096, timeout_secs: 120 });
});

test('ranges: temperature 0..2 inclusive, positive integers', async () => {
  const ok = await load(undefined, '[chat]\ntemperature = 2.0\n[llm.providers.x]\ntype = "cloud_b"\ntemperature = 0.0\n');
  assert.deepEqual(ok.problems.filter((p) => p.severity === 'error'), []);
  assert.equal(ok.config.chat.temperature, 2);
  const bad = await load(undefined, '[chat]\ntemperature = 2.01\nmax_tokens = 0\ntimeout_secs = 1.5\n');
  assert.deepEqual(bad.problems.map((p) => [p.keyPath, p.code, p.line]), [
    ['chat.temperature', 'config.invalid_value', 2],
    ['chat.max_tokens', 'config.invalid_value', 3],
    ['chat.timeout_secs', 'config.invalid_value', 4],
  ]);
  assert.equal(bad.config.chat.temperature, 0.7);
  assert.equal(bad.config.chat.max_tokens, 2048);
});

test('layering: per key, tables merge, arrays replace, sources follow the winning layer', async () => {
  const global = '[chat]\ntemperature = 0.3\nmax_tokens = 100\n[context]\nrules_files = ["A.md", "B.md"]\n[llm]\ndefault = "g"\n[llm.providers.g]\ntype = "cloud_a"\ndefault_model = "gpt-4o-mini"\n';
  const workspace = '[chat]\nmax_tokens = 200\n[context]\nrules_files = ["C.md"]\n[llm.providers.g]\ndefault_model = "gpt-4o"\n';
  const { config, sources } = await load(global, workspace);
  assert.equal(config.chat.temperature, 0.3);
  assert.equal(config.chat.max_tokens, 200);
  assert.deepEqual(config.context.rules_files, ['C.md']);
  assert.equal(config.llm.providers.g.type, 'cloud_a');
  assert.equal(config.llm.providers.g.default_model, 'gpt-4o');
  assert.equal(sources['chat.temperature'], 'global');
  assert.equal(sources['chat.max_tokens'], 'workspace');
  assert.equal(sources['chat.timeout_secs'], 'default');
  assert.equal(sources['context.rules_files'], 'workspace');
  assert.equal(sources['llm.providers.g.type'], 'global');
  assert.equal(sources['llm.providers.g.default_model'], 'workspace');
  assert.equal(sources['llm.providers.g.max_tokens'], 'default');
});

test('an invalid workspace value falls back to the global value, not the default', async () => {
  const { config, sources, problems } = await load('[chat]\ntemperature = 0.1\n', '[chat]\ntemperature = 9\n');
  assert.equal(config.chat.temperature, 0.1);
  assert.equal(sources['chat.temperature'], 'global');
  assert.equal(problems.length, 1);
  assert.match(problems[0].message, /global value or the default/);
});

test('[[mcp.servers]] merge by name: a workspace entry replaces the global one whole; others are kept', async () => {
  const global = [
    '[[mcp.servers]]', 'name = "fs"', 'prefix = "fs_"', 'timeout_secs = 5', 'allowed_tools = ["read_*"]', '[mcp.servers.transport]', 'type = "stdio"', 'command = "npx"',
    '[[mcp.servers]]', 'name = "web"', 'prefix = "web_"', 'transport = { type = "sse", url = "http://127.0.0.1:9/sse" }',
  ].join('\n');
  const workspace = [
    '[[mcp.servers]]', 'name = "fs"', 'prefix = "files_"', 'transport = { type = "stdio", command = "node", args = ["fs.js"] }',
    '[[mcp.servers]]', 'name = "extra"', 'prefix = "x_"', 'transport = { type = "http", url = "http://127.0.0.1:10/mcp" }',
  ].join('\n');
  const { config, sources, problems } = await load(global, workspace);
  assert.deepEqual(problems, []);
  assert.deepEqual(config.mcp.servers.map((s) => [s.name, s.prefix, s.transport.type]), [['fs', 'files_', 'stdio'], ['web', 'web_', 'sse'], ['extra', 'x_', 'http']]);
  const fs = config.mcp.servers[0];
  assert.equal(fs.timeout_secs, 30, 'global timeout_secs must not leak into the replacing entry');
  assert.equal(fs.allowed_tools, undefined);
  assert.deepEqual(fs.transport, { type: 'stdio', command: 'node', args: ['fs.js'], env: {} });
  assert.equal(sources['mcp.servers[0].prefix'], 'workspace');
  assert.equal(sources['mcp.servers[0].timeout_secs'], 'default');
  assert.equal(sources['mcp.servers[1].transport.url'], 'global');
  assert.equal(sources['mcp.servers[2].name'], 'workspace');
});

test('env: HEARTH_KILN_PATH, LOCAL_RUNNER_HOST over OLLAMA_HOST, cloud keys as {env:} references', async () => {
  const workspace = '[chat]\nprovider = "ollama"\n[llm.providers.a]\ntype = "openai"\n[llm.providers.b]\ntype = "anthropic"\n[llm.providers.c]\ntype = "cloud_a"\napi_key = "{env:MINE}"\n[llm.providers.l]\ntype = "ollama"\n[llm.providers.l2]\ntype = "local_runner"\nendpoint = "http://10.0.0.1:1"\n';
  const env = { HEARTH_KILN_PATH: '~/kiln', LOCAL_RUNNER_HOST: '127.0.0.1:9999', OLLAMA_HOST: 'http://other:1', OPENAI_API_KEY: 'sk-o', CLOUD_B_API_KEY: 'sk-b', ANTHROPIC_API_KEY: 'sk-a' };
  const { config, sources } = await load(undefined, workspace, env);
  assert.equal(config.kiln_path, '/home/tester/kiln');
  assert.equal(sources.kiln_path, 'env');
  assert.equal(config.chat.provider, 'local_runner');
  assert.equal(config.chat.endpoint, 'http://127.0.0.1:9999');
  assert.equal(sources['chat.endpoint'], 'env');
  assert.equal(config.llm.providers.l.type, 'local_runner');
  assert.equal(config.llm.providers.l.endpoint, 'http://127.0.0.1:9999');
  assert.equal(config.llm.providers.l2.endpoint, 'http://10.0.0.1:1');
  assert.equal(sources['llm.providers.l2.endpoint'], 'workspace');
  assert.equal(config.llm.providers.a.api_key, '{env:OPENAI_API_KEY}');
  assert.equal(config.llm.providers.b.api_key, '{env:CLOUD_B_API_KEY}');
  assert.equal(config.llm.providers.c.api_key, '{env:MINE}');
  assert.equal(sources['llm.providers.a.api_key'], 'env');
  assert.ok(!JSON.stringify(config).includes('sk-'), 'no key value may sit in the config object');
});

test('env: OLLAMA_HOST is the fallback; a bad host is a warning and ignored', async () => {
  const fallback = await load(undefined, undefined, { OLLAMA_HOST: '0.0.0.0' });
  assert.equal(fallback.config.chat.endpoint, 'http://127.0.0.1:11434');
  assert.equal(fallback.config.embedding.api_url, undefined, 'local_cpu embeddings take no host');
  const embed = await load(undefined, '[embedding]\nprovider = "ollama"\n', { LOCAL_RUNNER_HOST: 'https://gpu-box:8443/' });
  assert.equal(embed.config.embedding.api_url, 'https://gpu-box:8443');
  assert.equal(embed.sources['embedding.api_url'], 'env');
  const bad = await load(undefined, undefined, { LOCAL_RUNNER_HOST: 'ftp://x' });
  assert.equal(bad.config.chat.endpoint, undefined);
  assert.deepEqual(bad.problems.map((p) => [p.code, p.keyPath, p.severity]), [['config.env_override', 'env.LOCAL_RUNNER_HOST', 'warning']]);
});

test('kiln_path: relative against the workspace root, ~ expanded, absolute kept', async () => {
  assert.equal(resolveKilnPath('notes', '/w'), '/w/notes');
  assert.equal(resolveKilnPath('../shared', '/w/p'), '/w/shared');
  assert.equal(resolveKilnPath('~', '/w', { HOME: '/h' }), '/h');
  assert.equal(resolveKilnPath('~/n', '/w', { HOME: '/h' }), '/h/n');
  assert.equal(resolveKilnPath('/abs', '/w'), '/abs');
  assert.equal(resolveKilnPath(undefined, '/w'), '/w');
  const { config, root, sources } = await load('kiln_path = "notes"\n', undefined);
  assert.equal(config.kiln_path, join(root, 'notes'));
  assert.equal(sources.kiln_path, 'global');
});

test('secret warnings: plain text and bare names; references are quiet', async () => {
  const workspace = '[llm.providers.a]\ntype = "cloud_a"\napi_key = "sk-plain-1234"\n[llm.providers.b]\ntype = "cloud_b"\napi_key = "MY_KEY"\n[llm.providers.c]\ntype = "cloud_b"\napi_key = "{secret:claude}"\n[[mcp.servers]]\nname = "w"\nprefix = "w_"\ntransport = { type = "sse", url = "http://127.0.0.1:1/sse", auth_header = "Bearer {env:TOKEN}" }\n';
  const { problems } = await load(undefined, workspace);
  assert.deepEqual(problems.map((p) => [p.code, p.keyPath, p.line, p.severity]), [
    ['config.plain_text_secret', 'llm.providers.a.api_key', 3, 'warning'],
    ['config.bare_env_name', 'llm.providers.b.api_key', 6, 'warning'],
  ]);
  assert.ok(!problems.some((p) => p.message.includes('sk-plain-1234')), 'the key never appears in a message');
});

test('[llm].default naming a missing provider is a warning with a suggestion', async () => {
  const { problems } = await load(undefined, '[llm]\ndefault = "wrk"\n[llm.providers.work]\ntype = "cloud_a"\n');
  assert.equal(problems.length, 1);
  assert.equal(problems[0].code, 'config.unknown_provider');
  assert.equal(problems[0].line, 2);
  assert.match(problems[0].message, /Did you mean "work"/);
});

test('the merged config equals the schema defaults where nothing was set', async () => {
  const { config } = await load(undefined, '[cli]\nverbose = true\n');
  const expected = defaultConfig();
  expected.cli.verbose = true;
  assert.deepEqual(JSON.parse(JSON.stringify({ ...config, kiln_path: undefined })), JSON.parse(JSON.stringify({ ...expected, kiln_path: undefined })));
});

test('a kiln_path that names no folder is a warning on its line (file or HEARTH_KILN_PATH); an existing one is not', async () => {
  const missing = await load(undefined, '# notes live beside\n\nkiln_path = "notes-typo"\n');
  const problem = missing.problems.find((p) => p.code === 'config.missing_path');
  assert.ok(problem, JSON.stringify(missing.problems));
  assert.equal(problem.severity, 'warning');
  assert.equal(problem.keyPath, 'kiln_path');
  assert.equal(problem.line, 3);
  assert.equal(problem.file, join(missing.root, '.hearth', 'config.toml'));
  assert.match(problem.message, /notes-typo/);
  assert.equal(missing.config.kiln_path, join(missing.root, 'notes-typo'), 'the value still applies');

  const fromEnv = await load(undefined, undefined, { HEARTH_KILN_PATH: '/no/such/kiln' });
  assert.deepEqual(fromEnv.problems.map((p) => [p.code, p.keyPath, p.severity]), [['config.missing_path', 'env.HEARTH_KILN_PATH', 'warning']]);

  const present = await load(undefined, 'kiln_path = ".hearth"\n');
  assert.deepEqual(present.problems, []);
});

test('[chat].provider asking for another type than the active [llm] provider is a warning; the same type is not', async () => {
  const clash = await load(undefined, '[chat]\nprovider = "openai"\n\n[llm]\ndefault = "l"\n[llm.providers.l]\ntype = "ollama"\n');
  assert.deepEqual(clash.problems.map((p) => [p.code, p.keyPath, p.line, p.severity]), [['config.ignored_key', 'chat.provider', 2, 'warning']]);
  assert.match(clash.problems[0].message, /"l", local_runner/);
  const same = await load('[llm]\ndefault = "l"\n[llm.providers.l]\ntype = "local_runner"\n', '[chat]\nprovider = "ollama"\n');
  assert.deepEqual(same.problems, []);
  const implicit = await load(undefined, '[chat]\nprovider = "cloud_b"\n');
  assert.deepEqual(implicit.problems, []);
});
