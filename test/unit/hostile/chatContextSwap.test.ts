/**
 * Finding 8 of the third review: the chat's context reads — auto context, `[[` heading completion,
 * the editor's attachment read (and `@hearth`'s named notes in VS Code's Chat view) — checked `realpath` and then read with a plain readFile, so a note
 * swapped for a link to an outside file between the two was read (699 of 20,000 reads returned the
 * outside file). A swapper thread flips the note between a regular file and such a link as fast as it
 * can while the three readers run 20,000 reads: none returns the outside text.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { AttachmentScope } from '../../../src/core/chat/context/attachmentScope';
import { gatherAutoContext, type AutoContextIndex } from '../../../src/core/chat/context/autoContext';
import { NoteCatalog } from '../../../src/core/chat/context/noteCompletions';
import { groundRequest } from '../../../src/core/chat/participant/participantGrounding';

const READS = 20_000;
const INSIDE = '# Inside\nplain note text about compost\n';
const OUTSIDE = '# Outside secret\nAKIA-OUTSIDE-SECRET compost\n';

/** Renames a fresh regular file, then a fresh link to the outside file, over the note, until told to stop. */
const SWAPPER = `
const { parentPort, workerData } = require('node:worker_threads');
const { renameSync, symlinkSync, writeFileSync, rmSync } = require('node:fs');
const { note, outside, inside } = workerData;
const stop = new Int32Array(workerData.stop);
let swaps = 0;
while (Atomics.load(stop, 0) === 0) {
  const file = note + '.f.tmp';
  const link = note + '.l.tmp';
  writeFileSync(file, inside);
  renameSync(file, note);
  rmSync(link, { force: true });
  symlinkSync(outside, link);
  renameSync(link, note);
  swaps += 2;
}
writeFileSync(note + '.f.tmp', inside);
renameSync(note + '.f.tmp', note);
parentPort.postMessage(swaps);
`;

let base: string;
let kiln: string;
before(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'hearth-swap-')));
  kiln = join(base, 'kiln');
  await mkdir(join(kiln, 'notes'), { recursive: true });
  await mkdir(join(base, 'elsewhere'));
  await writeFile(join(base, 'elsewhere', 'outside.md'), OUTSIDE);
  await writeFile(join(kiln, 'notes', 'compost.md'), INSIDE);
});
after(() => rm(base, { recursive: true, force: true }));

test('a swapper racing the chat context reads: 0 outside reads in 20,000', async () => {
  const stop = new SharedArrayBuffer(4);
  const worker = new Worker(SWAPPER, { eval: true, workerData: { note: join(kiln, 'notes', 'compost.md'), outside: join(base, 'elsewhere', 'outside.md'), inside: INSIDE, stop } });
  const swapsDone = new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });

  // The readers as the chat uses them: auto context over a search hit, heading completion, an attachment, @hearth's named note.
  const index: AutoContextIndex = {
    kilnRoot: kiln,
    embedderLoaded: true,
    setup: { providerType: 'ollama' },
    exists: async () => true,
    search: async () => [{ path: 'notes/compost.md', score: 1, startLine: 1, endLine: 2, text: '', heading: undefined } as never],
  };
  const catalog = new NoteCatalog(() => kiln);
  const scope = new AttachmentScope({ kiln: () => kiln, workspaceFolders: () => [join(base, 'kiln', 'notes')], openFiles: () => [] });
  const readers: (() => Promise<string[]>)[] = [
    async () => (await gatherAutoContext('compost', index)).attachments.map((a) => a.text),
    async () => (await catalog.complete('compost', '')).map((c) => c.heading ?? ''),
    async () => [(await scope.read('notes/compost.md')).text],
    async () => (await groundRequest('compost', [{ path: 'notes/compost.md' }], { kilnRoot: kiln, index: undefined, autoContext: false })).attachments.map((a) => a.text),
  ];

  const outsideReads: Record<number, number> = { 0: 0, 1: 0, 2: 0, 3: 0 };
  const insideReads: Record<number, number> = { 0: 0, 1: 0, 2: 0, 3: 0 };
  try {
    for (let i = 0; i < READS; i++) {
      const which = i % readers.length;
      const texts = await readers[which]!().catch(() => [] as string[]);
      if (texts.some((t) => /OUTSIDE|Outside secret/.test(t))) outsideReads[which]!++;
      if (texts.some((t) => /compost|Inside/.test(t))) insideReads[which]!++;
    }
  } finally {
    Atomics.store(new Int32Array(stop), 0, 1);
  }
  const swaps = await swapsDone;
  await worker.terminate();
  assert.deepEqual(outsideReads, { 0: 0, 1: 0, 2: 0, 3: 0 }, `outside reads by reader (auto context, heading completion, attachment, @hearth) with ${swaps} swaps`);
  // The race was real: the note was swapped many times, and each reader still read the note itself at times.
  assert.ok(swaps > 1000, `${swaps} swaps`);
  for (const which of [0, 1, 2, 3]) assert.ok(insideReads[which]! > 0, `reader ${which} never read the note`);
});

test('a note that is a link out of the kiln is left out of auto context with a notice, and refused as an attachment', async () => {
  const { symlink } = await import('node:fs/promises');
  await symlink(join(base, 'elsewhere', 'outside.md'), join(kiln, 'linked.md'));
  const index: AutoContextIndex = {
    kilnRoot: kiln,
    embedderLoaded: true,
    setup: { providerType: 'ollama' },
    exists: async () => true,
    search: async () => [{ path: 'linked.md', score: 1, startLine: 1, endLine: 2 } as never],
  };
  const context = await gatherAutoContext('compost', index);
  assert.deepEqual(context.attachments, []);
  assert.deepEqual(context.refused, ['linked.md']);
  const scope = new AttachmentScope({ kiln: () => kiln, workspaceFolders: () => [], openFiles: () => [] });
  await assert.rejects(scope.read('linked.md'), (error: Error & { code?: string }) => error.code === 'chat.path_outside_scope');
});
