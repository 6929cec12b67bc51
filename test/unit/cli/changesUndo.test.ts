// `hearth changes` and `hearth undo` on changes made by a real MCP client through `hearth gateway`.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { HEARTH_MAIN, runHearth, TSX_LOADER } from './runHearth';

async function gatewayCalls(root: string, env: Record<string, string>, calls: [string, Record<string, unknown>][]): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', TSX_LOADER, HEARTH_MAIN, 'gateway', '--yes', '-w', root],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(transport);
  try {
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
    }
  } finally {
    await client.close();
  }
}

test('gateway edits are journaled per call; hearth undo restores byte for byte, refuses conflicts, --force overrides', async () => {
  const root = await mkdtemp(join(tmpdir(), 'hearth-undo-cli-'));
  const env = { XDG_CONFIG_HOME: join(root, '.xdg'), HOME: root, HEARTH_TRUST: '1' };
  try {
    const crlf = '---\r\ntags: [a]\r\n---\r\n# Keep\r\nline one\r\n';
    await writeFile(join(root, 'keep.md'), crlf);
    await writeFile(join(root, 'doomed.md'), '\ufeff# Doomed\nbody\n');
    await gatewayCalls(root, env, [
      ['create_note', { path: 'made.md', content: '# Made\n' }],
      ['update_note', { path: 'keep.md', content: 'replaced body\n' }],
      ['delete_note', { path: 'doomed.md' }],
    ]);

    const listed = await runHearth(['changes', '--json'], { cwd: root, env });
    assert.equal(listed.code, 0, listed.stderr);
    const rows = JSON.parse(listed.stdout) as { id: string; turn: string; path: string; kind: string; tool: string; client: string | null; agent: string | null; time: string }[];
    assert.deepEqual(rows.map((row) => [row.path, row.kind, row.tool, row.client]), [
      ['doomed.md', 'delete', 'delete_note', 'test-client'],
      ['keep.md', 'update', 'update_note', 'test-client'],
      ['made.md', 'create', 'create_note', 'test-client'],
    ]);
    // One gateway call is one turn.
    assert.equal(new Set(rows.map((row) => row.turn)).size, 3);
    assert.deepEqual(Object.keys(rows[0]).sort(), ['agent', 'client', 'id', 'kind', 'path', 'state', 'time', 'tool', 'turn']);
    const limited = JSON.parse((await runHearth(['changes', '--json', '--limit', '1'], { cwd: root, env })).stdout) as unknown[];
    assert.equal(limited.length, 1);

    // Without a TTY and without --yes: refused, nothing restored.
    const refused = await runHearth(['undo'], { cwd: root, env });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /--yes/);
    assert.equal(existsSync(join(root, 'doomed.md')), false);

    const undone = await runHearth(['undo', '--yes'], { cwd: root, env });
    assert.equal(undone.code, 0, undone.stderr);
    assert.equal(await readFile(join(root, 'doomed.md'), 'utf8'), '\ufeff# Doomed\nbody\n');

    // The user edits keep.md after the agent: undo shows the conflict and exits 1, even with --yes.
    await writeFile(join(root, 'keep.md'), 'the user wrote this\n');
    const keepRow = rows.find((row) => row.path === 'keep.md')!;
    const conflict = await runHearth(['undo', keepRow.id, '--yes'], { cwd: root, env });
    assert.equal(conflict.code, 1);
    assert.match(conflict.stderr, /keep\.md changed after the agent's change/);
    assert.match(conflict.stderr, /\+the user wrote this/);
    assert.equal(await readFile(join(root, 'keep.md'), 'utf8'), 'the user wrote this\n');
    const forced = await runHearth(['undo', keepRow.id, '--yes', '--force'], { cwd: root, env });
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(await readFile(join(root, 'keep.md'), 'utf8'), crlf);

    const unknown = await runHearth(['undo', 'no-such-id', '--yes'], { cwd: root, env });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No journaled change with id "no-such-id"/);
    assert.equal((await runHearth(['changes', '--limit', 'x'], { cwd: root, env })).code, 2);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
