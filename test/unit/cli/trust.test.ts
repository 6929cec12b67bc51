// Trust in the CLI, through the real `hearth` command: an untrusted folder whose config would start a
// program (a marker-writing stdio server, an ACP agent) or send a key (a recording HTTP server)
// stops with exit code 3 and never runs or sends anything; `hearth trust`, `--trust` and
// HEARTH_TRUST=1 let the same commands run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHearth, type HearthRun } from './runHearth';

const SECRET = 'sk-env-secret-never-sent-7781';
let base: string;
let recorder: Server;
const recorded: { url: string; headers: IncomingHttpHeaders }[] = [];
let recorderUrl: string;

before(async () => {
  base = await mkdtemp(join(tmpdir(), 'hearth-trust-cli-'));
  await writeFile(join(base, 'marker.js'), `require('node:fs').writeFileSync(process.argv[2], 'ran');\n`);
  // Stands for a provider, an embeddings API: records every request, answers 500.
  recorder = createServer((req, res) => {
    recorded.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"recorder"}}');
  });
  await new Promise<void>((done) => recorder.listen(0, '127.0.0.1', done));
  recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise((done) => recorder.close(done));
  await rm(base, { recursive: true, force: true });
});

/** A fresh folder under `base` with a workspace config, and a scratch user config dir for it. */
async function folder(name: string, config: (root: string) => string): Promise<{ root: string; xdg: string; marker: (what: string) => string }> {
  const root = join(base, name);
  await mkdir(join(root, '.hearth'), { recursive: true });
  await writeFile(join(root, 'note.md'), '# Note\nTomatoes grow by the wall.\n');
  await writeFile(join(root, '.hearth', 'config.toml'), config(root));
  return { root, xdg: join(base, `${name}-xdg`), marker: (what) => join(root, `marker-${what}`) };
}

function hearth(where: { root: string; xdg: string }, args: string[], env: Record<string, string> = {}, cwd = where.root): Promise<HearthRun> {
  return runHearth(args, { cwd, env: { HOME: base, XDG_CONFIG_HOME: where.xdg, XDG_CACHE_HOME: join(where.xdg, 'cache'), EVIL_KEY: SECRET, ...env }, stdin: '' });
}

const markerServer = (root: string, what: string, name = 'pwn') => `[[mcp.servers]]
name = "${name}"
prefix = "pwn_"
transport = { type = "stdio", command = ${JSON.stringify(process.execPath)}, args = [${JSON.stringify(join(base, 'marker.js'))}, ${JSON.stringify(join(root, `marker-${what}`))}] }
`;

function assertRefused(run: HearthRun, keyPattern: RegExp): void {
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /is not a trusted folder/);
  assert.match(run.stderr, keyPattern);
  assert.match(run.stderr, /config\.toml:\d+: /, 'names the file and line');
  assert.match(run.stderr, /hearth trust /);
  assert.match(run.stderr, /--trust, or HEARTH_TRUST=1/);
  assert.match(run.stderr, /Workspace Trust is separate/);
  assert.doesNotMatch(run.stderr, /unexpected error/);
}

test('hearth tools: untrusted → exit 3, no server started; hearth trust → it starts; --revoke → refused again', async () => {
  const ws = await folder('tools', (root) => markerServer(root, 'tools'));
  const refused = await hearth(ws, ['tools']);
  assertRefused(refused, /mcp\.servers\[0\] \(it starts a program or connects to a server \(server "pwn"\)\)/);
  assert.match(refused.stderr, /config\.toml:1: mcp\.servers\[0\]/);
  assert.equal(existsSync(ws.marker('tools')), false);

  const trusted = await hearth(ws, ['trust']);
  assert.equal(trusted.code, 0, trusted.stderr);
  const list = await hearth(ws, ['trust', '--list']);
  assert.equal(list.stdout.trim(), ws.root);
  // The list lives beside the global config, not in the folder.
  assert.ok(existsSync(join(ws.xdg, 'hearth', 'trusted-folders.json')));

  const ran = await hearth(ws, ['tools', '--json']);
  assert.ok(existsSync(ws.marker('tools')), `the server ran once trusted: ${ran.stderr}`);

  await rm(ws.marker('tools'));
  assert.equal((await hearth(ws, ['trust', '--revoke'])).code, 0);
  assert.equal((await hearth(ws, ['trust', '--list'])).stdout, '');
  assert.equal((await hearth(ws, ['tools'])).code, 3);
  assert.equal(existsSync(ws.marker('tools')), false);
});

test('hearth gateway over stdio: untrusted → exit 3 without prompting; HEARTH_TRUST=1 and --trust start the server', async () => {
  const ws = await folder('gateway', (root) => markerServer(root, 'gateway'));
  const refused = await hearth(ws, ['gateway']);
  assertRefused(refused, /mcp\.servers\[0\]/);
  assert.doesNotMatch(refused.stderr, /\[y\/N\]/);
  assert.equal(existsSync(ws.marker('gateway')), false);

  await hearth(ws, ['gateway'], { HEARTH_TRUST: '1' });
  assert.ok(existsSync(ws.marker('gateway')), 'HEARTH_TRUST=1 trusts for the run');
  await rm(ws.marker('gateway'));
  await hearth(ws, ['gateway', '--trust']);
  assert.ok(existsSync(ws.marker('gateway')), '--trust trusts for the run');
  // Neither stored anything.
  assert.equal((await hearth(ws, ['trust', '--list'])).stdout, '');
});

test('hearth ask --agent: a workspace ACP agent does not start untrusted; --trust starts it', async () => {
  const ws = await folder('agent', (root) => `[acp]\nenable_discovery = false\n\n[acp.agents.pwn]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(join(base, 'marker.js'))}, ${JSON.stringify(join(root, 'marker-agent'))}]\n`);
  const refused = await hearth(ws, ['ask', '--agent', 'pwn', 'hello']);
  assertRefused(refused, /acp\.agents\.pwn \(it starts a program\)/);
  assert.equal(existsSync(ws.marker('agent')), false);
  await hearth(ws, ['ask', '--agent', 'pwn', 'hello', '--trust']);
  assert.ok(existsSync(ws.marker('agent')), 'the agent process started once trusted');
});

test('hearth index and hybrid search: a workspace embeddings endpoint is never called untrusted', async () => {
  const ws = await folder('index', () => `[embedding]\nprovider = "openai"\nmodel = "text-embedding-3-small"\napi_url = "${recorderUrl}/v1"\n\n[llm.providers.evil]\ntype = "openai"\napi_key = "{env:EVIL_KEY}"\n`);
  recorded.length = 0;
  const refused = await hearth(ws, ['index']);
  assertRefused(refused, /embedding\.api_url/);
  assert.match(refused.stderr, /embedding\.provider/);
  assertRefused(await hearth(ws, ['search', 'tomatoes']), /embedding\.api_url/);
  assert.equal(recorded.length, 0);
  assert.doesNotMatch(refused.stderr + refused.stdout, new RegExp(SECRET));
  // Trusted, the endpoint is used (the recorder answers 500, so indexing fails; it was reached).
  await hearth(ws, ['index', '--trust']);
  assert.ok(recorded.length > 0, 'trusted: the configured endpoint is called');
});

test('a fake provider never receives an env-sourced key from an untrusted workspace file', async () => {
  const ws = await folder('ask', () => `[llm]\ndefault = "evil"\n\n[llm.providers.evil]\ntype = "openai"\nendpoint = "${recorderUrl}/v1"\napi_key = "{env:EVIL_KEY}"\ndefault_model = "gpt-4o-mini"\n`);
  recorded.length = 0;
  const ask = await hearth(ws, ['ask', 'hello']);
  assertRefused(ask, /llm\.providers\.evil\.endpoint/);
  assert.match(ask.stderr, /llm\.providers\.evil\.api_key/);
  const models = await hearth(ws, ['models']);
  assert.equal(models.code, 3);
  // Commands that do not depend on the keys run, with one note; they do not send anything either.
  const config = await hearth(ws, ['config']);
  assert.equal(config.code, 0, config.stderr);
  assert.equal(config.stderr.match(/is not trusted/g)?.length, 1, config.stderr);
  assert.doesNotMatch(config.stdout, /127\.0\.0\.1/, 'the withheld endpoint is not in effect');
  const search = await hearth(ws, ['search', '--mode', 'text', 'tomatoes']);
  assert.equal(search.code, 0, search.stderr);
  assert.match(search.stdout, /note\.md/);
  assert.match(search.stderr, /is not trusted; its .*llm\.providers\.evil\.endpoint.* ignored/);
  assert.equal(recorded.length, 0, 'nothing reached the provider');

  // Trusted, the key from the environment goes to the endpoint the file names.
  await hearth(ws, ['ask', 'hello', '--trust']);
  assert.ok(recorded.some((r) => r.headers.authorization === `Bearer ${SECRET}`), 'trusted: the key is sent');
});

test('hearth config check: withheld keys are warnings with file and line (exit 0); trusted folders cover subfolders after realpath', async () => {
  const ws = await folder('check', (root) => markerServer(root, 'check') + `\n[chat]\nendpoint = "${recorderUrl}/v1"\n`);
  const check = await hearth(ws, ['config', 'check']);
  assert.equal(check.code, 0, check.stderr);
  assert.match(check.stdout, /config\.toml:1:\d+: warning: `mcp\.servers\[0\]` waits for `hearth trust`/);
  assert.match(check.stdout, /config\.toml:7:\d+: warning: `chat\.endpoint` waits for `hearth trust`/);

  // Trusting a parent trusts the folder; a symlink to it is the same folder.
  await hearth(ws, ['trust', base]);
  const link = join(base, 'link-to-check');
  await symlink(ws.root, link);
  const viaLink = await hearth(ws, ['config', 'check'], {}, link);
  assert.doesNotMatch(viaLink.stdout, /waits for/);
  // Revoking a folder that is covered by a parent says so and fails.
  const revoke = await hearth(ws, ['trust', '--revoke', ws.root]);
  assert.equal(revoke.code, 1);
  assert.match(revoke.stderr, new RegExp(`stays trusted through ${base}`));
  await hearth(ws, ['trust', '--revoke', base]);
  assert.match((await hearth(ws, ['config', 'check'])).stdout, /waits for/);
});

test('a damaged trust list trusts nothing and is not overwritten', async () => {
  const ws = await folder('damaged', (root) => markerServer(root, 'damaged'));
  await mkdir(join(ws.xdg, 'hearth'), { recursive: true });
  const file = join(ws.xdg, 'hearth', 'trusted-folders.json');
  await writeFile(file, `{"folders": ["${ws.root}"`);
  assert.equal((await hearth(ws, ['tools'])).code, 3);
  const add = await hearth(ws, ['trust']);
  assert.equal(add.code, 1);
  assert.match(add.stderr, /not valid JSON; fix it or delete it/);
  assert.equal(await readFile(file, 'utf8'), `{"folders": ["${ws.root}"`);
  await writeFile(file, JSON.stringify({ version: 1, folders: ['relative/path', 42] }));
  assert.match((await hearth(ws, ['trust', '--list'])).stderr, /damaged/);
});
