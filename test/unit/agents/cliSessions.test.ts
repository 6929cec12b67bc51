// `hearth agents --sessions NAME` and `hearth ask --agent NAME --resume [ID] --mode M --model X` as
// subprocesses, with the scripted ACP agent spawned as a real process that keeps its sessions in a file
// (as real agents keep them on disk) and offers config options.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURE } from './acp/helpers';
import { tempDir, writeFiles } from './helpers';
import { runHearth, type HearthRun } from '../cli/runHearth';

let root: string;
let cleanup: () => Promise<void>;

function hearth(args: string[]): Promise<HearthRun> {
  return runHearth(args, { cwd: root, env: { HOME: root, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_CACHE_HOME: join(root, 'xdg-cache'), HEARTH_TRUST: '1' } });
}

before(async () => {
  const made = await tempDir('hearth-acp-sessions-cli-');
  root = made.dir;
  cleanup = made.cleanup;
  const env = { HEARTH_FIXTURE_SESSIONS: 'resume,list,close', HEARTH_FIXTURE_CONTROLS: 'options', HEARTH_FIXTURE_STORE: join(root, 'agent-sessions.json') };
  await writeFiles(root, {
    '.hearth/config.toml': `[chat]
auto_context = false

[acp]
enable_discovery = false

[acp.agents.scripted]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(FIXTURE)}]
env = { ${Object.entries(env).map(([key, value]) => `${key} = ${JSON.stringify(value)}`).join(', ')} }

[acp.agents.plain]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(FIXTURE)}]
`,
  });
});
after(() => cleanup());

test('hearth ask --agent --json reports the session; --resume ID continues it; --resume alone the latest; hearth agents --sessions lists them', async () => {
  const first = await hearth(['ask', '--agent', 'scripted', '--json', 'remember the walnut']);
  assert.equal(first.code, 0, first.stderr);
  const firstOut = JSON.parse(first.stdout);
  assert.equal(firstOut.message, 'remembered:["remember the walnut"]');
  assert.equal(firstOut.session.how, 'new');
  const id = firstOut.session.id;

  const resumed = await hearth(['ask', '--agent', 'scripted', '--resume', id, 'remember']);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.stdout.trim(), 'remembered:["remember the walnut","remember"]');
  assert.match(resumed.stderr, new RegExp(`resumed session ${id}`));

  const hazel = await hearth(['ask', '--agent', 'scripted', '--json', 'remember the hazel']);
  assert.equal(hazel.code, 0, hazel.stderr);
  const other = JSON.parse(hazel.stdout).session.id;
  const latestRun = await hearth(['ask', '--agent', 'scripted', '--json', '--resume', 'remember']);
  assert.equal(latestRun.code, 0, latestRun.stderr);
  const latest = JSON.parse(latestRun.stdout);
  assert.deepEqual([latest.session.id, latest.session.how, latest.message], [other, 'resumed', 'remembered:["remember the hazel","remember"]']);

  const listed = await hearth(['agents', '--sessions', 'scripted', '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  const sessions = JSON.parse(listed.stdout);
  assert.equal(sessions.agent, 'scripted');
  assert.deepEqual(sessions.sessions.map((s: { sessionId: string }) => s.sessionId), [other, id], 'newest first');
  assert.deepEqual(sessions.sessions.map((s: { title: string }) => s.title), ['Title: remember the hazel', 'Title: remember the walnut']);
  const text = await hearth(['agents', '--sessions', 'scripted']);
  assert.match(text.stdout, /Title: remember the hazel\n {4}\S+/);
});

test('--resume of a session the agent no longer has: a new session, saying why', async () => {
  const run = await hearth(['ask', '--agent', 'scripted', '--resume', 'no-such-id', 'remember']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /could not continue session no-such-id \(session\/resume failed: .*\); a new session \S+ starts/);
  assert.equal(run.stdout.trim(), 'remembered:["remember"]');
});

test('--mode and --model pick the agent\'s own choices by id or name; an unknown one lists what it offers (exit 2)', async () => {
  const run = await hearth(['ask', '--agent', 'scripted', '--mode', 'Code', '--model', 'large', 'config']);
  assert.equal(run.code, 0, run.stderr);
  const config = JSON.parse(run.stdout.trim().slice('config:'.length));
  assert.deepEqual([config.options.mode, config.options.model], ['code', 'large']);
  const bad = await hearth(['ask', '--agent', 'scripted', '--model', 'huge', 'config']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--model huge: "scripted" offers small, large/);
  const none = await hearth(['ask', '--agent', 'plain', '--mode', 'plan', 'config']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--mode: the agent "plain" offers no mode choice/);
  const listless = await hearth(['agents', '--sessions', 'plain']);
  assert.equal(listless.code, 1);
  assert.match(listless.stderr, /does not list its sessions/);
});
