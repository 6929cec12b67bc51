import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { link, mkdir, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Gateway } from '../../../src/core/gateway/gateway';
import { createGatewayServer } from '../../../src/core/gateway/gatewayServer';
import { silentLogger } from '../../../src/core/host';
import { createKilnTools } from '../../../src/core/kiln/tools/kilnTools';
import { collect, createAgents, ScriptedHost, textOf as agentText } from '../agents/acp/helpers';
import { testGatewayOptions } from '../gateway/helpers';
import { tinyIndex } from '../index/kilnIndexHelpers';

const SWAPPER = join(__dirname, 'fixtures', 'swapper.mjs');
const GATEWAY_ROUNDS = 250;
const ACP_ROUNDS = 120;

interface Sandbox {
  base: string;
  kiln: string;
  outside: string;
}

async function sandbox(): Promise<Sandbox> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'hearth-race-')));
  const kiln = join(base, 'kiln');
  const outside = join(base, 'outside');
  await mkdir(join(kiln, 'flipdir'), { recursive: true });
  await mkdir(join(outside, 'dir'), { recursive: true });
  await writeFile(join(outside, 'secret.md'), 'OUTSIDE SECRET\n');
  await writeFile(join(outside, 'dir', 'note.md'), 'OUTSIDE DIR NOTE\n');
  await writeFile(join(kiln, 'flip.md'), 'inside file\n');
  await writeFile(join(kiln, 'flipdir', 'note.md'), 'inside dir note\n');
  return { base, kiln, outside };
}

/** Runs `work` while the swapper flips entries; returns how many flips it made meanwhile. */
async function whileSwapping(box: Sandbox, work: () => Promise<void>): Promise<number> {
  const child = spawn(process.execPath, [SWAPPER, box.kiln, box.outside], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    await work();
  } finally {
    child.stdin.end();
    await exited;
  }
  return Number(out.trim());
}

async function allNames(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.map((entry) => join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name));
}

/** Nothing outside changed: the same two files with the same bytes, nothing created, no temp files. */
async function assertOutsideUntouched(box: Sandbox): Promise<void> {
  assert.deepEqual((await readdir(box.outside)).sort(), ['dir', 'secret.md']);
  assert.deepEqual(await readdir(join(box.outside, 'dir')), ['note.md']);
  assert.equal(await readFile(join(box.outside, 'secret.md'), 'utf8'), 'OUTSIDE SECRET\n');
  assert.equal(await readFile(join(box.outside, 'dir', 'note.md'), 'utf8'), 'OUTSIDE DIR NOTE\n');
}

async function assertNoTempFiles(box: Sandbox): Promise<void> {
  const temps = [...(await allNames(box.kiln)), ...(await allNames(box.outside))].filter((name) => /\.tmp$|hearth-tmp/.test(name));
  assert.deepEqual(temps, []);
}

describe('symlink swap races: zero escapes (issue 13 item 2)', () => {
  let box: Sandbox;
  before(async () => (box = await sandbox()));
  after(() => rm(box.base, { recursive: true, force: true }));

  test(`${GATEWAY_ROUNDS} rounds of gateway read_note / create_note / update_note while a file and a folder flip to links out`, async () => {
    const tools = createKilnTools({ kilnRoot: box.kiln, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false });
    const gateway = new Gateway(testGatewayOptions());
    const session = createGatewayServer({ gateway, kilnTools: tools, log: silentLogger });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    const client = new Client({ name: 'race', version: '1' });
    await client.connect(clientSide);
    const texts: string[] = [];
    let calls = 0;
    const call = async (name: string, args: Record<string, unknown>) => {
      calls++;
      const result = await client.callTool({ name, arguments: args });
      texts.push((result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join(''));
    };
    try {
      const flips = await whileSwapping(box, async () => {
        for (let i = 0; i < GATEWAY_ROUNDS; i++) {
          await Promise.all([
            call('read_note', { path: 'flip.md' }),
            call('read_note', { path: 'flipdir/note.md' }),
            call('read_metadata', { path: 'flipdir/note.md' }),
            call('create_note', { path: `flipdir/new-${i}.md`, content: 'created by the race' }),
            call('create_note', { path: `flipdir/sub-${i}/deep.md`, content: 'created by the race' }),
            call('update_note', { path: 'flip.md', content: `update ${i}` }),
            call('update_note', { path: 'flipdir/note.md', content: `update ${i}` }),
          ]);
        }
      });
      assert.ok(flips > 0, 'the swapper ran');
      assert.equal(calls, GATEWAY_ROUNDS * 7);
      const leaked = texts.filter((text) => text.includes('OUTSIDE'));
      assert.deepEqual(leaked, [], 'no outside content came back');
      await assertOutsideUntouched(box);
      await assertNoTempFiles(box);
    } finally {
      await client.close();
      session.dispose();
      await gateway.dispose();
    }
  });

  test(`${ACP_ROUNDS} rounds of ACP fs/read_text_file and fs/write_text_file while the same entries flip`, async () => {
    const host = new ScriptedHost(() => ({ outcome: 'selected', optionId: 'allow' }));
    const { agents } = createAgents();
    const session = await agents.start('scripted', { host, cwd: box.kiln });
    const replies: string[] = [];
    const ask = async (prompt: string) => replies.push(agentText(await collect(session.prompt(prompt))));
    try {
      const flips = await whileSwapping(box, async () => {
        for (let i = 0; i < ACP_ROUNDS; i++) {
          await ask(`read ${join(box.kiln, 'flip.md')}`);
          await ask(`read ${join(box.kiln, 'flipdir', 'note.md')}`);
          await ask(`write ${join(box.kiln, 'flip.md')} acp ${i}`);
          await ask(`write ${join(box.kiln, 'flipdir', 'note.md')} acp ${i}`);
          await ask(`write ${join(box.kiln, 'flipdir', `acp-${i}`, 'new.md')} acp ${i}`);
        }
      });
      assert.ok(flips > 0, 'the swapper ran');
      assert.equal(replies.length, ACP_ROUNDS * 5);
      assert.deepEqual(replies.filter((reply) => reply.includes('OUTSIDE')), [], 'no outside content came back');
      await assertOutsideUntouched(box);
      await assertNoTempFiles(box);
    } finally {
      await session.dispose();
      await agents.dispose();
    }
  });

  test('hard links: an ACP write and a kiln-tool update replace the entry, the linked outside file keeps its bytes', async () => {
    await writeFile(join(box.outside, 'hard-acp.md'), 'OUTSIDE HARD\n');
    await writeFile(join(box.outside, 'hard-kiln.md'), 'OUTSIDE HARD\n');
    await link(join(box.outside, 'hard-acp.md'), join(box.kiln, 'hard-acp.md'));
    await link(join(box.outside, 'hard-kiln.md'), join(box.kiln, 'hard-kiln.md'));
    const host = new ScriptedHost(() => ({ outcome: 'selected', optionId: 'allow' }));
    const { agents } = createAgents();
    const session = await agents.start('scripted', { host, cwd: box.kiln });
    try {
      assert.equal(agentText(await collect(session.prompt(`write ${join(box.kiln, 'hard-acp.md')} replaced`))), 'wrote');
    } finally {
      await session.dispose();
      await agents.dispose();
    }
    const tools = createKilnTools({ kilnRoot: box.kiln, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false });
    const update = await tools.find((t) => t.name === 'update_note')!.call({ path: 'hard-kiln.md', content: 'replaced' });
    assert.equal(update.isError, undefined, JSON.stringify(update));
    assert.equal(await readFile(join(box.outside, 'hard-acp.md'), 'utf8'), 'OUTSIDE HARD\n');
    assert.equal(await readFile(join(box.outside, 'hard-kiln.md'), 'utf8'), 'OUTSIDE HARD\n');
    assert.equal(await readFile(join(box.kiln, 'hard-acp.md'), 'utf8'), 'replaced');
  });
});

describe('incremental indexing refuses paths that lead out (issue 13 item 3)', () => {
  test('watcher paths through a linked folder or a linked note are not indexed; semantic search never returns outside text', async () => {
    const box = await sandbox();
    await writeFile(join(box.outside, 'dir', 'planted.md'), '# Planted\n\nOUTSIDE zebra quartz planted secret\n');
    await symlink(join(box.outside, 'dir'), join(box.kiln, 'linked'));
    await symlink(join(box.outside, 'secret.md'), join(box.kiln, 'secret-link.md'));
    await writeFile(join(box.kiln, 'real.md'), '# Real\n\nzebra quartz inside note\n');
    const index = tinyIndex(box.kiln);
    try {
      const report = await index.update({ paths: ['real.md', 'linked/planted.md', 'linked', 'secret-link.md', '../outside/secret.md'] });
      assert.equal(report.notes, 1, JSON.stringify(report));
      assert.ok(report.skipped.some((s) => s.path === 'linked/planted.md' && /refused/.test(s.reason)), JSON.stringify(report.skipped));
      const hits = await index.search('zebra quartz planted secret', { mode: 'semantic', limit: 10 });
      assert.ok(hits.length > 0);
      for (const hit of hits) assert.doesNotMatch(JSON.stringify(hit), /OUTSIDE|planted/i);
    } finally {
      await index.dispose();
      await rm(box.base, { recursive: true, force: true });
    }
  });
});
