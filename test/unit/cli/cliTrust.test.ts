// The trust list and the terminal offer, in process: parents cover children after realpath, the
// offer is made only on a terminal and defaults to no.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { TrustedFolders } from '../../../src/core/config/trustedFolders';
import { offerTrust } from '../../../src/cli/cliTrust';

function scratch(): { dir: string; store: TrustedFolders; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-trusted-'));
  return { dir, store: new TrustedFolders(join(dir, 'cfg', 'hearth', 'trusted-folders.json')), done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('TrustedFolders: add once, parents cover children, symlinks compare by real path, remove', async () => {
  const { dir, store, done } = scratch();
  try {
    mkdirSync(join(dir, 'notes', 'deep'), { recursive: true });
    mkdirSync(join(dir, 'other'));
    symlinkSync(join(dir, 'notes'), join(dir, 'link'));
    assert.equal(await store.covering(join(dir, 'notes')), undefined);
    assert.equal(await store.add(join(dir, 'link')), join(dir, 'notes'), 'stored as the real path');
    await store.add(join(dir, 'notes'));
    assert.deepEqual(await store.list(), [join(dir, 'notes')]);
    assert.equal(statSync(store.file).mode & 0o777, 0o600);
    assert.equal(await store.covering(join(dir, 'notes', 'deep')), join(dir, 'notes'));
    assert.equal(await store.covering(join(dir, 'link', 'deep')), join(dir, 'notes'));
    assert.equal(await store.covering(join(dir, 'other')), undefined);
    assert.equal(await store.covering(join(dir, 'notes-evil')), undefined, 'a sibling sharing the prefix is not covered');
    await assert.rejects(store.add(join(dir, 'missing')), (error: unknown) => (error as { code?: string }).code === 'trust.not_a_folder');
    await assert.rejects(store.add(join(dir, 'cfg', 'hearth', 'trusted-folders.json')), (error: unknown) => (error as { code?: string }).code === 'trust.not_a_folder');
    assert.equal(await store.remove(join(dir, 'other')), false);
    assert.equal(await store.remove(join(dir, 'link')), true);
    assert.deepEqual(await store.list(), []);
  } finally {
    done();
  }
});

const terminal = (isTTY: boolean, answer?: string) => {
  const stdin = Object.assign(new PassThrough(), { isTTY });
  const stderr = Object.assign(new PassThrough(), { isTTY });
  let written = '';
  stderr.on('data', (d) => (written += d));
  if (answer !== undefined) stdin.end(answer);
  return { stdin, stderr, written: () => written };
};

const KEY = { keyPath: 'mcp.servers[0]', area: 'mcp' as const, why: 'it starts a program', file: '/w/.hearth/config.toml', line: 3 };

test('offerTrust: only on a terminal; empty, "n" and end of input mean no; "y" stores the folder', async () => {
  const { dir, store, done } = scratch();
  try {
    const notTty = terminal(false, 'y\n');
    assert.equal(await offerTrust(store, dir, [KEY], notTty), false);
    assert.equal(notTty.written(), '', 'no prompt without a terminal');
    for (const answer of ['\n', 'n\n', 'nope\n', '']) assert.equal(await offerTrust(store, dir, [KEY], terminal(true, answer)), false, JSON.stringify(answer));
    assert.deepEqual(await store.list(), []);
    const yes = terminal(true, 'y\n');
    assert.equal(await offerTrust(store, dir, [KEY], yes), true);
    assert.match(yes.written(), /config\.toml:3: mcp\.servers\[0\][\s\S]*\[y\/N\]/);
    assert.deepEqual(await store.list(), [dir]);
  } finally {
    done();
  }
});
