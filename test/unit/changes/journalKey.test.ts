import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { defaultJournalKeyFile, JournalKey } from '../../../src/core/changes/journalKey';
import { silentLogger } from '../../../src/core/host';
import { sinkLogger } from '../../../src/core/logging/sinkLogger';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-key-test-'));
  dirs.push(dir);
  return dir;
}

test('the key lives in the user data folder, is created 0600 once, and processes racing for it share one', async () => {
  assert.equal(defaultJournalKeyFile({ XDG_DATA_HOME: '/data' }), '/data/hearth/journal.key'.replace(/\//g, process.platform === 'win32' ? '\\' : '/'));
  const file = join(scratch(), 'nested', 'journal.key');
  const keys = await Promise.all([1, 2, 3, 4].map(() => new JournalKey(file, silentLogger).bytes()));
  assert.ok(keys.every((key) => key.equals(keys[0])));
  assert.equal(readFileSync(file, 'utf8'), keys[0].toString('hex'));
  if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
  const mac = await new JournalKey(file, silentLogger).mac('entry');
  assert.equal(await new JournalKey(file, silentLogger).verify('entry', mac), true);
  assert.equal(await new JournalKey(join(scratch(), 'other.key'), silentLogger).verify('entry', mac), false, 'another user\'s key does not verify');
});

test('a key file that is a link, or damaged, is not used: a key for this process only, said in the log', async () => {
  const dir = scratch();
  writeFileSync(join(dir, 'outside.key'), 'a'.repeat(64));
  symlinkSync(join(dir, 'outside.key'), join(dir, 'journal.key'));
  writeFileSync(join(dir, 'damaged.key'), 'not hex');
  for (const name of ['journal.key', 'damaged.key']) {
    const warnings: string[] = [];
    const key = await new JournalKey(join(dir, name), sinkLogger((level, line) => void (level === 'warn' && warnings.push(line)))).bytes();
    assert.notEqual(key.toString('hex'), 'a'.repeat(64));
    assert.match(warnings.join('\n'), /undone only while it runs/);
  }
  const noHome = await new JournalKey(undefined, silentLogger).bytes();
  assert.equal(noHome.length, 32);
});
