// `hearth agents` and `hearth ask --agent` as subprocesses: a workspace with cards, an aimock
// provider for the internal agent and a profile running the project's scripted ACP agent.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { GOOD_KEY, startMockLlm, type MockLlm } from '../llm/mockLlm';
import { FIXTURE } from './acp/helpers';
import { KILN_NOTES, tempDir, writeFiles } from './helpers';
import { runHearth, type HearthRun } from '../cli/runHearth';

let server: MockLlm;
let root: string;
let cleanup: () => Promise<void>;

function hearth(args: string[], stdin = ''): Promise<HearthRun> {
  return runHearth(args, { cwd: root, env: { HOME: root, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_CACHE_HOME: join(root, 'xdg-cache'), CLOUD_A_API_KEY: GOOD_KEY, HEARTH_TRUST: '1' }, stdin });
}

before(async () => {
  server = await startMockLlm();
  const toolsThisTurn = (r: { messages: { role: string }[] }) => r.messages.slice(r.messages.map((m) => m.role).lastIndexOf('user')).filter((m) => m.role === 'tool').length;
  const mentions = (r: { messages: unknown[] }, key: string) => JSON.stringify(r.messages).includes(key);
  server.mock.on({ predicate: (r: never) => mentions(r, 'KEY-delete') && toolsThisTurn(r) > 0 } as never, { content: 'Finished.' });
  server.mock.on({ predicate: (r: never) => mentions(r, 'KEY-delete') } as never, { content: 'Deleting it.', toolCalls: [{ id: 'd1', name: 'delete_note', arguments: '{"path":"old.md"}' }] });
  server.mock.on({ predicate: (r: never) => mentions(r, 'KEY-bread') && toolsThisTurn(r) > 0 } as never, { content: 'Bake at 230 C, see recipes/bread.md:6.' });
  server.mock.on({ predicate: (r: never) => mentions(r, 'KEY-bread') } as never, {
    toolCalls: [
      { id: 'r1', name: 'read_note', arguments: '{"path":"recipes/bread.md","start_line":4,"end_line":6}' },
      { id: 's1', name: 'text_search', arguments: '{"query":"flour"}' },
    ],
  });
  const made = await tempDir('hearth-agents-cli-');
  root = made.dir;
  cleanup = made.cleanup;
  await writeFiles(root, {
    ...KILN_NOTES,
    '.hearth/config.toml': `[llm]
default = "mock"

[llm.providers.mock]
type = "openai"
endpoint = "${server.url}/v1"
default_model = "big-model"

[acp]
enable_discovery = false

[acp.agents.scripted]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(FIXTURE)}]

[acp.agents.missing]
command = "/nonexistent/acp-agent"
`,
    'agents/writer.md': '---\nname: writer\ndescription: Writes notes\ntools: ["create_note"]\n---\nYou write.',
    '.hearth/agents/broken.md': 'no frontmatter',
  });
});
after(async () => {
  await server.stop();
  await cleanup();
});

test('hearth agents --json: cards, profiles with availability, the default, card problems', async () => {
  const { code, stdout } = await hearth(['agents', '--json']);
  assert.equal(code, 0);
  const out = JSON.parse(stdout);
  assert.equal(out.default, 'scripted');
  assert.deepEqual(
    out.agents.map((a: { name: string; kind: string; available: boolean }) => [a.name, a.kind, a.available]),
    [
      ['kiln', 'internal', true],
      ['writer', 'internal', true],
      ['scripted', 'external', true],
      ['missing', 'external', false],
    ],
  );
  assert.deepEqual(out.agents[1].tools, ['create_note']);
  assert.equal(out.problems.length, 1);
  assert.match(out.problems[0].file, /broken\.md$/);

  const text = await hearth(['agents']);
  assert.match(text.stdout, /Internal agents:\n {2}kiln/);
  assert.match(text.stdout, /missing +not available: "\/nonexistent\/acp-agent" does not exist/);
  assert.match(text.stdout, /Default: scripted/);
  assert.match(text.stdout, /Cards not loaded:\n {2}\.hearth\/agents\/broken\.md: no YAML frontmatter/);
});

test('hearth ask --agent kiln: an edit is shown as a diff and, with nobody at a terminal, rejected (the agent is told, exit 4); --yes accepts it', async () => {
  const rejected = await hearth(['ask', '--agent', 'kiln', 'KEY-delete old please'], 'y\n');
  // (#29) The edit asked for was not applied: exit 4, and the tool line reads "rejected", not "failed".
  assert.equal(rejected.code, 4, rejected.stderr);
  assert.match(rejected.stderr, /⊘ rejected delete_note: The user rejected the change to old\.md/);
  assert.doesNotMatch(rejected.stderr, /✗ failed/);
  // The answer's text before the tool call ends its line ("Deleting it." / "→ Delete note").
  assert.equal(rejected.stdout, 'Deleting it.\nFinished.\n');
  assert.match(rejected.stderr, /→ Delete note \{"path":"old.md"\}/);
  // One question: the diff review replaces the old yes/no permission prompt.
  assert.doesNotMatch(rejected.stderr, /Always allow in this conversation/);
  assert.match(rejected.stderr, /kiln wants to delete old\.md \(delete_note\):\n--- a\/old\.md\n\+\+\+ \/dev\/null/);
  assert.match(rejected.stderr, /rejected: no terminal to ask; pass --yes/);
  assert.ok(existsSync(join(root, 'old.md')));

  const allowed = await hearth(['ask', '--agent', 'kiln', '--yes', '--json', 'KEY-delete old now']);
  assert.equal(allowed.code, 0, allowed.stderr);
  const turn = JSON.parse(allowed.stdout);
  assert.equal(turn.agent, 'kiln');
  assert.equal(turn.message, 'Deleting it.Finished.');
  assert.deepEqual(turn.toolCalls.map((c: { name: string; status: string }) => [c.name, c.status]), [['delete_note', 'completed']]);
  assert.ok(!existsSync(join(root, 'old.md')));
  // Every run left a transcript in the workspace.
  assert.ok(existsSync(join(root, '.hearth', 'transcripts', `${turn.transcript}.jsonl`)));
});

test('hearth ask --agent: the notes the kiln tools read or found are the sources (--json and after a plain answer)', async () => {
  const json = await hearth(['ask', '--agent', 'kiln', '--json', 'KEY-bread how hot?']);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout).sources, [
    { path: 'recipes/bread.md', startLine: 4, endLine: 6, via: 'read_note' },
    { path: 'recipes/bread.md', startLine: 6, endLine: 6, via: 'text_search' },
  ]);
  const plain = await hearth(['ask', '--agent', 'kiln', 'KEY-bread how hot, again?']);
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /^Bake at 230 C, see recipes\/bread\.md:6\.\n\nSources:\n {2}recipes\/bread\.md:4\n {2}recipes\/bread\.md:6\n$/);
});

test('hearth ask --agent with an external ACP agent streams its answer; unknown agents are errors', async () => {
  const { code, stdout, stderr } = await hearth(['ask', '--agent', 'scripted', 'echo hello from acp']);
  assert.equal(code, 0, stderr);
  assert.equal(stdout, 'hello from acp\n');
  assert.match(stderr, /→ Look things up/);
  assert.match(stderr, /plan:\n {2}\[~\] echo back/);
  const transcripts = await readdir(join(root, '.hearth', 'transcripts'));
  assert.ok(transcripts.length >= 3);
  const history = await hearth(['agents', '--history', '--json']);
  const listed = JSON.parse(history.stdout) as { agent: string; title: string }[];
  assert.equal(listed.length, transcripts.length);
  assert.deepEqual([listed[0].agent, listed[0].title], ['scripted', 'echo hello from acp']);

  // --model names one of an external agent's own models; this one offers none: a usage error, no answer.
  const model = await hearth(['ask', '--agent', 'scripted', '--model', 'cloud/gpt-4o', 'echo hi']);
  assert.equal(model.code, 2, model.stderr);
  assert.match(model.stderr, /--model: the agent "scripted" offers no model choice/);
  assert.equal(model.stdout, '');

  const unknown = await hearth(['ask', '--agent', 'nobody', 'hi']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /no agent named "nobody" \(known: kiln, writer, scripted, missing\)/);
});
