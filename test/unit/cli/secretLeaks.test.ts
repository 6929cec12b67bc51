// Issue 12 "Secrets never leave": the real `hearth` CLI (subprocess) and the real openai and
// @anthropic-ai/sdk clients against a hostile local backend that echoes the key in 400, 401 and
// mid-stream errors. No surface may show the key: stderr, stdout, --json, transcripts; `hearth index`
// against an embeddings endpoint echoing `Bearer <key>`; `hearth config` with secrets in odd places.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEchoKeyServer, type EchoKeyServer } from '../llm/echoKeyServer';
import { runHearth, type HearthRun } from './runHearth';

// Not key-shaped on purpose: only the redactor (fed what Hearth resolved) can catch them.
const OPENAI_KEY = 'zz-openai-7f3a9c2e51d0';
const ANTHROPIC_KEY = 'zz-anthropic-c41d9e0b77';
const EMBED_KEY = 'zz-embed-90ab12cd34ef';
const KEYS = [OPENAI_KEY, ANTHROPIC_KEY, EMBED_KEY];

let server: EchoKeyServer;
let root: string;

function hearth(args: string[], cwd = join(root, 'ws')): Promise<HearthRun> {
  return runHearth(args, {
    cwd,
    env: {
      HOME: root,
      XDG_CONFIG_HOME: join(root, 'xdg'),
      XDG_CACHE_HOME: join(root, 'cache'),
      // The fixture's endpoints are the test's own: trusted for the run (issue 12 parts 1-2).
      HEARTH_TRUST: '1',
      ECHO_OPENAI_KEY: OPENAI_KEY,
      ECHO_ANTHROPIC_KEY: ANTHROPIC_KEY,
      CLOUD_B_API_KEY: EMBED_KEY,
    },
  });
}

function assertNoKey(text: string, where: string): void {
  for (const key of KEYS) assert.ok(!text.includes(key), `${where} shows the key ${key}:\n${text}`);
}

before(async () => {
  server = await startEchoKeyServer();
  root = await mkdtemp(join(tmpdir(), 'hearth-secrets-'));
  await mkdir(join(root, 'ws', '.hearth'), { recursive: true });
  await writeFile(join(root, 'ws', 'note.md'), '# A note\n\nSome text to embed.\n');
  await writeFile(
    join(root, 'ws', '.hearth', 'config.toml'),
    `[llm]
default = "oa"

[llm.providers.oa]
type = "openai"
endpoint = "${server.url}/v1"
api_key = "{env:ECHO_OPENAI_KEY}"
default_model = "echo-stream"
timeout_secs = 20

[llm.providers.an]
type = "anthropic"
endpoint = "${server.url}"
api_key = "{env:ECHO_ANTHROPIC_KEY}"
default_model = "echo-stream"
timeout_secs = 20

[embedding]
provider = "cloud_b"
api_url = "${server.url}/v1"
model = "embed-echo"
`,
  );
});

after(async () => {
  await server.stop();
  await rm(root, { recursive: true, force: true });
});

for (const [provider, key] of [
  ['oa', OPENAI_KEY],
  ['an', ANTHROPIC_KEY],
] as const) {
  for (const model of ['echo-400', 'echo-401', 'echo-stream']) {
    test(`hearth ask (${provider}, ${model}): the echoed key reaches neither stderr nor stdout`, async () => {
      const sent = server.keys.length;
      const run = await hearth(['ask', '--model', `${provider}/${model}`, 'hello']);
      assert.equal(run.code, 1, run.stderr);
      assert.ok(server.keys.slice(sent).includes(key), 'the key was really sent');
      assertNoKey(run.stdout + run.stderr, 'hearth ask');
      assert.match(run.stderr, new RegExp(`hearth ask: .*provider "${provider}"`));
      if (model !== 'echo-401') assert.match(run.stderr, /«redacted»/, 'the backend text is kept, scrubbed');
    });
  }

  test(`hearth ask --json (${provider}): a stream error echoing the key`, async () => {
    const run = await hearth(['ask', '--json', '--model', `${provider}/echo-stream`, 'hello']);
    assert.equal(run.code, 1);
    assertNoKey(run.stdout + run.stderr, 'hearth ask --json');
  });
}

test('hearth ask --agent --json: the error event, the --json output and the transcript carry no key', async () => {
  const run = await hearth(['ask', '--agent', 'kiln', '--json', '--model', 'oa/echo-stream', 'hello']);
  assertNoKey(run.stdout + run.stderr, 'hearth ask --agent --json');
  const result = JSON.parse(run.stdout) as { errors: { message: string }[]; transcript: string };
  assert.ok(result.errors.length > 0, run.stdout);
  assert.match(result.errors[0].message, /stream aborted for key «redacted»/);
  const dir = join(root, 'ws', '.hearth', 'transcripts');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl'));
  assert.ok(files.includes(`${result.transcript}.jsonl`));
  for (const file of files) {
    const text = await readFile(join(dir, file), 'utf8');
    assertNoKey(text, `transcript ${file}`);
  }
  const transcript = await readFile(join(dir, `${result.transcript}.jsonl`), 'utf8');
  assert.match(transcript, /"type":"error".*«redacted»/, 'the error is recorded, redacted');
});

test('hearth index: an embeddings endpoint echoing "Bearer <key>" does not print the key', async () => {
  const sent = server.keys.length;
  const run = await hearth(['index']);
  assert.notEqual(run.code, 0);
  assert.ok(server.keys.slice(sent).includes(EMBED_KEY), 'the key was really sent');
  assertNoKey(run.stdout + run.stderr, 'hearth index');
  assert.match(run.stderr, /embedding refused/);
});

test('hearth config: env literals under odd names, --token args, URL userinfo and query are masked; references print as written', async () => {
  const ws = join(root, 'cfg');
  await mkdir(join(ws, '.hearth'), { recursive: true });
  await writeFile(
    join(ws, '.hearth', 'config.toml'),
    `[llm.providers.proxy]
type = "openai"
endpoint = "https://alice:pa55-userinfo-93k@proxy.example/v1?api_key=query-secret-5521&region=eu"
api_key = "{env:PROXY_KEY}"

[[mcp.servers]]
name = "db"
prefix = "db_"
[mcp.servers.transport]
type = "stdio"
command = "db-mcp"
args = ["--token", "argtoken-77aa21", "--api-key=argkey-88bb32", "--verbose", "--log-level", "DEBUG", "--url", "postgres://dbuser:dbpass-4471@db.local/app"]
[mcp.servers.transport.env]
XQZ = "oddname-secret-6610"
MODE = "DEBUG"
FROM_ENV = "{env:SOME_VAR}"

[[mcp.servers]]
name = "remote"
prefix = "r_"
[mcp.servers.transport]
type = "http"
url = "https://tok-userinfo-5501@mcp.example/mcp?access_token=qtoken-4490"
auth_header = "Bearer {env:REMOTE_TOKEN}"
`,
  );
  const secrets = ['pa55-userinfo-93k', 'query-secret-5521', 'argtoken-77aa21', 'argkey-88bb32', 'dbpass-4471', 'oddname-secret-6610', 'tok-userinfo-5501', 'qtoken-4490'];
  for (const args of [['config'], ['config', '--json']]) {
    const run = await hearth(args, ws);
    assert.equal(run.code, 0, run.stderr);
    for (const secret of secrets) assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), `hearth ${args.join(' ')} shows ${secret}:\n${run.stdout}`);
    // References and harmless values print as written; masking keeps the rest of the URL readable.
    // MODE = "DEBUG" is masked in its env table, but is no secret: DEBUG elsewhere stays.
    for (const visible of ['{env:PROXY_KEY}', '{env:SOME_VAR}', 'Bearer {env:REMOTE_TOKEN}', 'proxy.example/v1', 'region=********', '--verbose', '"DEBUG"']) {
      assert.ok(run.stdout.includes(visible), `hearth ${args.join(' ')} hides ${visible}`);
    }
    assert.ok(run.stdout.includes('********'));
  }
});
