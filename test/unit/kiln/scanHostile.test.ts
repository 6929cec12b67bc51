// What the kiln scan (walk, then lstat in slices) does with what a cloned folder may hold in place
// of notes: a link out of the kiln, a FIFO and a directory named like notes, a note past the size
// limit — among more notes than one slice of the stat pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanKiln } from '../../../src/core/kiln/kilnScanner';

test('the scan lists only regular notes: a link out, a FIFO and a folder named .md are left out, a large note is skipped with its reason', { timeout: 20_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-scan-'));
  const outside = mkdtempSync(join(tmpdir(), 'hearth-outside-'));
  try {
    const notes = Array.from({ length: 600 }, (_, i) => `n/${String(i).padStart(3, '0')}.md`);
    mkdirSync(join(root, 'n'));
    for (const note of notes) writeFileSync(join(root, note), `# ${note}\n`);
    writeFileSync(join(outside, 'secret.md'), 'not yours\n');
    symlinkSync(join(outside, 'secret.md'), join(root, 'link.md'));
    execFileSync('mkfifo', [join(root, 'pipe.md')]);
    mkdirSync(join(root, 'folder.md'));
    writeFileSync(join(root, 'big.md'), 'x'.repeat(3 * 1024));
    const scan = await scanKiln(root, { exclude: [], max_file_size_kb: 2 });
    assert.deepEqual(scan.notes.map((n) => n.path), notes, 'the 600 notes, nothing else');
    assert.ok(scan.notes.every((n) => n.size > 0 && n.mtimeMs > 0));
    assert.deepEqual(scan.skipped.map((s) => s.path), ['big.md']);
    assert.match(scan.skipped[0].reason, /max_file_size_kb/);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});
