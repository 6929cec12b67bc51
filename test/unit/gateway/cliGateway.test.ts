import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { main } from '../../../src/cli/main';
import { EVERYTHING, isAlive, textOf, waitFor, tempDir } from './helpers';

async function workspace(extra = ''): Promise<string> {
  const root = await tempDir('cli');
  await mkdir(join(root, '.hearth'));
  await writeFile(join(root, 'note.md'), '# Note\n');
  await writeFile(
    join(root, '.hearth', 'config.toml'),
    `[[mcp.servers]]\nname = "every"\nprefix = "ev_"\nallowed_tools = ["echo"]\n[mcp.servers.transport]\ntype = "stdio"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n${extra}`,
  );
  return root;
}

describe('CLI: hearth tools, hearth gateway --http', () => {
  test('hearth tools --json lists kiln and upstream tools with upstream and state, including a down upstream', async () => {
    const root = await workspace('\n[[mcp.servers]]\nname = "ghost"\nprefix = "gh_"\nauto_reconnect = false\n[mcp.servers.transport]\ntype = "stdio"\ncommand = "hearth-missing-binary"\n');
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    stdout.on('data', (chunk) => (out += chunk));
    stderr.resume();
    const code = await main(['tools', '--json'], { stdout, stderr, stdin: new PassThrough(), env: { ...process.env, XDG_CONFIG_HOME: join(root, 'xdg'), HEARTH_TRUST: '1' }, cwd: root });
    assert.equal(code, 0);
    const listing = JSON.parse(out) as { upstreams: { name: string; state: { kind: string; error?: string } }[]; tools: { name: string; upstream: string; state: string }[] };
    const echo = listing.tools.find((t) => t.name === 'ev_echo')!;
    assert.equal(echo.upstream, 'every');
    assert.equal(echo.state, 'ready');
    assert.ok(listing.tools.some((t) => t.name === 'read_note' && t.upstream === 'kiln'));
    const ghost = listing.upstreams.find((u) => u.name === 'ghost')!;
    assert.equal(ghost.state.kind, 'down');
    assert.match(ghost.state.error!, /hearth-missing-binary/);
  });

  test('hearth gateway --http 0 prints URL and token once; a client with the token works; SIGTERM ends everything', async () => {
    const root = await workspace();
    const child = spawn(process.execPath, ['--import', resolve('node_modules/tsx/dist/loader.mjs'), resolve('src/cli/main.ts'), 'gateway', '--http', '0'], {
      cwd: root,
      env: { ...process.env, XDG_CONFIG_HOME: join(root, 'xdg'), HEARTH_TRUST: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.resume();
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      // A guard only: tsx, the CLI and its upstreams start slowly on a loaded machine.
      const [, url, token] = await waitFor(() => /Hearth gateway: (\S+)\nAuthorization: Bearer (\S+)\n/.exec(out) ?? undefined, 60_000, 'URL and token');
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: 'cli-http', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      assert.match(textOf(await client.callTool({ name: 'ev_echo', arguments: { message: 'cli http' } })), /cli http/);
      await client.close();
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
      assert.equal(out.match(/Bearer/g)?.length, 1, 'token printed once');
      assert.ok(!isAlive(child.pid!));
    } finally {
      // Should the test fail, a running gateway would keep this file's process, and the run, from ending.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  });
});
