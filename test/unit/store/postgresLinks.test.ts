// The link graph in the team database: two members with the same kiln id, each holding other notes,
// see each other's backlinks (PGlite over the real wire protocol), in the store and through
// `hearth links`.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readKilnLinks } from '../../../src/core/kiln/links/kilnLinks';
import { PostgresLinks } from '../../../src/core/index/store/postgresLinks';
import { mergeBacklinks, TeamLinks } from '../../../src/core/kiln/links/teamLinks';
import { createKilnTools } from '../../../src/core/kiln/tools/kilnTools';
import { silentLogger } from '../../../src/core/host';
import { makeKiln, removeKiln } from '../index/kilnIndexHelpers';
import { runHearth } from '../cli/runHearth';
import { usePgServers } from './pgHelpers';

const RULES = { exclude: [], max_file_size_kb: 1024 };
const { server } = usePgServers();

async function publishAll(team: PostgresLinks, root: string) {
  const links = await readKilnLinks(root, RULES);
  await team.publish([...links.graph.allNotes()].map((n) => ({ path: n.path, links: n.links })));
  return links;
}

test('two members see each other\'s backlinks; a republished note replaces its rows; kiln ids stay apart', { timeout: 120_000 }, async () => {
  const alice = makeKiln({ 'Plan.md': '# Plan\n', 'alice/Notes.md': 'Alice: see [[Plan#Goals]].\n' });
  const bob = makeKiln({ 'Plan.md': '# Plan\n', 'bob/Ideas.md': 'Bob links [[plan]] and [[Nowhere]].\n', 'bob/Big.md': Array.from({ length: 10_000 }, (_, i) => `[[Plan]] ${i}`).join('\n') });
  const a = new PostgresLinks(server.url, 'team/links');
  const b = new PostgresLinks(server.url, 'team/links');
  const other = new PostgresLinks(server.url, 'other/kiln');
  try {
    await publishAll(a, alice);
    const bobLinks = await publishAll(b, bob);
    const seen = await b.backlinks('Plan.md', 20_000);
    assert.deepEqual([...new Set(seen.map((l) => l.source))], ['alice/Notes.md', 'bob/Big.md', 'bob/Ideas.md']);
    assert.equal(seen.find((l) => l.source === 'alice/Notes.md')!.context, 'Alice: see [[Plan#Goals]].');
    assert.equal(seen.find((l) => l.source === 'alice/Notes.md')!.fragment, 'Goals');
    assert.equal(seen.filter((l) => l.source === 'bob/Big.md').length, 10_000);
    const merged = mergeBacklinks(bobLinks.graph.backlinks('Plan.md'), seen);
    assert.equal(merged.filter((l) => l.source === 'alice/Notes.md').length, 1);
    assert.equal(merged.filter((l) => l.source === 'bob/Ideas.md').length, 1, 'local rows are not doubled by the team\'s');
    writeFileSync(join(alice, 'alice/Notes.md'), 'Alice no longer links.\n');
    await publishAll(a, alice);
    assert.deepEqual((await b.backlinks('Plan.md', 20_000)).filter((l) => l.source.startsWith('alice')), []);
    assert.deepEqual(await other.backlinks('Plan.md'), []);
  } finally {
    await Promise.all([a.dispose(), b.dispose(), other.dispose()]);
    removeKiln(alice);
    removeKiln(bob);
  }
});

test('hearth links with store = "postgres" lists the other member\'s backlinks', { timeout: 120_000 }, async () => {
  const config = `[processing]\nstore = "postgres"\ndatabase_url = "${server.url}"\nkiln_id = "team/cli"\n`;
  const alice = makeKiln({ 'Plan.md': '# Plan\n', 'alice/Notes.md': 'Alice: see [[Plan]].\n' });
  const bob = makeKiln({ 'Plan.md': '# Plan\n', 'bob/Ideas.md': 'Bob: [[Plan]].\n' });
  try {
    for (const root of [alice, bob]) {
      mkdirSync(join(root, '.hearth'), { recursive: true });
      writeFileSync(join(root, '.hearth', 'config.toml'), config);
    }
    const env = (root: string) => ({ XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg'), HEARTH_TRUST: '1' });
    const first = await runHearth(['links', 'Plan.md', '--json', '--workspace', alice], { cwd: alice, env: env(alice) });
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout).backlinks.map((b: { source: string }) => b.source), ['alice/Notes.md']);
    const second = await runHearth(['links', 'Plan.md', '--json', '--workspace', bob], { cwd: bob, env: env(bob) });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(JSON.parse(second.stdout).backlinks.map((b: { source: string }) => b.source), ['alice/Notes.md', 'bob/Ideas.md']);
  } finally {
    removeKiln(alice);
    removeKiln(bob);
  }
});

test('get_links with the team database: each member\'s tool lists the other\'s backlinks, sending only what changed', { timeout: 120_000 }, async () => {
  const alice = makeKiln({ 'Plan.md': '# Plan\n', 'alice/Notes.md': 'Alice: see [[Plan]].\n' });
  const bob = makeKiln({ 'Plan.md': '# Plan\n', 'bob/Ideas.md': 'Bob: [[Plan]].\n' });
  try {
    const published: number[] = [];
    const toolFor = (root: string) => {
      const teamLinks = new TeamLinks(async () => {
        const store = new PostgresLinks(server.url, 'team/tool');
        const publish = store.publish.bind(store);
        store.publish = async (notes) => (published.push(notes.length), publish(notes));
        return store;
      });
      return createKilnTools({ kilnRoot: root, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false, teamLinks }).find((t) => t.name === 'get_links')!;
    };
    const sources = async (tool: ReturnType<typeof toolFor>) => ((await tool.call({ path: 'Plan.md' })).structuredContent as { backlinks: { source: string }[] }).backlinks.map((b) => b.source);
    const a = toolFor(alice);
    const b = toolFor(bob);
    assert.deepEqual(await sources(a), ['alice/Notes.md']);
    assert.deepEqual(await sources(b), ['alice/Notes.md', 'bob/Ideas.md']);
    assert.deepEqual(await sources(a), ['alice/Notes.md', 'bob/Ideas.md']);
    assert.deepEqual(published, [2, 2], 'the second answer to alice sent nothing: no note of hers changed');
  } finally {
    removeKiln(alice);
    removeKiln(bob);
  }
});
