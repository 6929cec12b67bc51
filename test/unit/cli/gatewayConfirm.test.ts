// `hearth gateway`/`tools` cannot prompt on stdin (it may be the MCP channel): destructive kiln tools
// ask the MCP client when it can, else are refused unless --yes or [cli].confirm_destructive = false.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGatewayContext } from '../../../src/cli/gatewayContext';

test('gateway host confirm: client answer, refusal naming --yes, --yes, confirm_destructive = false', async () => {
  const root = await mkdtemp(join(tmpdir(), 'hearth-gwconfirm-'));
  try {
    await mkdir(join(root, '.hearth'));
    const run = async (flags: { yes?: boolean }, answer?: boolean) => {
      const stderr = new PassThrough();
      let text = '';
      stderr.on('data', (d) => (text += d));
      const stdin = new PassThrough();
      stdin.write('y\n'); // never read: stdin is the protocol here
      const ctx = await createGatewayContext({ stdout: new PassThrough(), stderr, stdin, env: { XDG_CONFIG_HOME: join(root, 'xdg'), HEARTH_TRUST: '1' }, cwd: root }, flags, async () => answer);
      const confirmed = await ctx.host.confirm('Delete the note "a.md"?');
      await ctx.gateway.dispose();
      return { confirmed, text };
    };
    assert.deepEqual(await run({}, true), { confirmed: true, text: '' });
    assert.deepEqual(await run({}, false), { confirmed: false, text: '' });
    const refused = await run({});
    assert.equal(refused.confirmed, false);
    assert.match(refused.text, /refused .*Delete the note "a\.md"\?.*--yes/);
    assert.equal((await run({ yes: true })).confirmed, true);
    await writeFile(join(root, '.hearth', 'config.toml'), '[cli]\nconfirm_destructive = false\n');
    assert.equal((await run({})).confirmed, true);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
