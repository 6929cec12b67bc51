// Auto context on a real index (tiny local_cpu model, transformers.js in this thread): the best
// sections with path and line range, budgeted, a cut that says where; a cold index (model not
// loaded) searches lexically and never loads the model, and so does an index whose run is still
// loading it (it does not wait for the load); no index → skipped with a reason; then the
// chat controller giving the sections to the agent and listing them as sources.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gatherAutoContext } from '../../../src/core/chat/context/autoContext';
import { ChatController } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/conversation/historyStore';
import type { HostMessage } from '../../../src/core/chat/protocol';
import { makeKiln, removeKiln, tinyIndex, writeNotes } from '../index/kilnIndexHelpers';
import { FakeCatalog, MemoryStorage } from './fakeCatalog';
import { silentLogger } from '../../../src/core/host';

let kiln: string;
const BIG_LINE = 'compost rotation filler words for a very large note. ';

before(async () => {
  kiln = makeKiln({
    'techniques/Composting.md': '# Composting\n\nTurn the compost heap weekly.\nKeep the compost moist like a sponge.\n\n## Browns\n\nDry leaves are browns.\n',
    'garden/beds.md': '# Raised beds\n\nBeds need drainage.\n',
    'huge.md': `# Huge compost rotation\n\n${Array.from({ length: 3_000 }, () => BIG_LINE).join('\n')}\n`,
  });
  const builder = tinyIndex(kiln);
  await builder.update();
  await builder.dispose();
});
after(() => removeKiln(kiln));

test('a cold index searches lexically without loading the model; sections carry path, lines and text', async () => {
  const index = tinyIndex(kiln);
  try {
    const context = await gatherAutoContext('how often to turn the compost heap', index, { maxSections: 2 });
    assert.equal(context.lexicalOnly, true);
    assert.equal(index.created, 0, 'the embedding model was not loaded');
    assert.equal(context.skipped, undefined);
    const first = context.attachments[0]!;
    assert.equal(first.path, 'techniques/Composting.md');
    assert.ok(first.startLine! >= 1 && first.endLine! >= first.startLine!);
    assert.match(first.text, /Turn the compost heap weekly/);
    assert.ok(context.attachments.length <= 2);
  } finally {
    await index.dispose();
  }
});

test('hits below the relevance floor are not context: a message sharing nothing with the notes adds none', async () => {
  const index = tinyIndex(kiln);
  try {
    await index.search('warm up', { mode: 'semantic' }); // the model loaded: hybrid, where every note gets some vector score
    const context = await gatherAutoContext('first message', index);
    assert.equal(context.lexicalOnly, false);
    assert.deepEqual(context.attachments, []);
    const relevant = await gatherAutoContext('how often to turn the compost heap', index);
    assert.equal(relevant.attachments[0]?.path, 'techniques/Composting.md');
  } finally {
    await index.dispose();
  }
});

test('while a run is still loading the model, auto context answers from the words at once; with the model once it has answered', async () => {
  const dir = makeKiln({ 'soil.md': '# Soil\n\nCompost feeds the soil.\n' });
  const builder = tinyIndex(dir);
  await builder.update();
  await builder.dispose();
  writeNotes(dir, { 'peas.md': '# Peas\n\nSow peas in March.\n' });
  // The run's embedder is made at once, but its first embed (where a local model loads) waits.
  const index = tinyIndex(dir);
  const make = index.setup.create;
  let loaded!: () => void;
  const loading = new Promise<void>((resolve) => (loaded = resolve));
  let asked!: () => void;
  const embedAsked = new Promise<void>((resolve) => (asked = resolve));
  index.setup.create = async () => {
    const embedder = await make();
    return {
      providerType: embedder.providerType,
      model: embedder.model,
      embed: async (texts: string[], signal?: AbortSignal) => {
        asked();
        await loading;
        return embedder.embed(texts, signal);
      },
      dispose: async () => embedder.dispose?.(),
    };
  };
  try {
    const run = index.update();
    await embedAsked;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'stalled'>((resolve) => (timer = setTimeout(() => resolve('stalled'), 10_000)));
    const meanwhile = await Promise.race([gatherAutoContext('compost for the soil', index), timeout]);
    clearTimeout(timer);
    if (meanwhile === 'stalled') assert.fail('auto context waited for the model to load');
    assert.equal(meanwhile.lexicalOnly, true);
    assert.equal(meanwhile.attachments[0]?.path, 'soil.md');
    loaded();
    await run;
    const after = await gatherAutoContext('compost for the soil', index);
    assert.equal(after.lexicalOnly, false, 'the model has answered: hybrid');
    assert.equal(after.attachments[0]?.path, 'soil.md');
  } finally {
    loaded();
    await index.dispose();
    removeKiln(dir);
  }
});

test('a section over the budget is cut and the cut says where', async () => {
  const index = tinyIndex(kiln);
  try {
    const context = await gatherAutoContext('compost rotation filler', index, { maxSections: 1, maxChars: 400 });
    const huge = context.attachments.find((a) => a.path === 'huge.md');
    assert.ok(huge, 'the huge note matched');
    assert.ok(huge.text.length < 600, `${huge.text.length} characters`);
    assert.match(huge.text, /… \(cut at line \d+ of huge\.md; lines \d+-\d+ not included — read_note for the rest\)$/);
  } finally {
    await index.dispose();
  }
});

test('no index: skipped with a reason, nothing thrown', async () => {
  const empty = makeKiln({ 'a.md': '# A\n' });
  const index = tinyIndex(empty);
  try {
    const context = await gatherAutoContext('anything', index);
    assert.deepEqual(context.attachments, []);
    assert.match(context.skipped!, /no index yet/);
    assert.match((await gatherAutoContext('anything', undefined)).skipped!, /no index yet/);
  } finally {
    await index.dispose();
    removeKiln(empty);
  }
});

test('the panel: sections reach the agent with the message and are listed as auto_context sources; no index is said once', async () => {
  const index = tinyIndex(kiln);
  const catalog = new FakeCatalog();
  const posts: HostMessage[] = [];
  let indexReady = false;
  let enabled = true;
  const controller = new ChatController({
    catalog,
    post: (m) => posts.push(m),
    store: new HistoryStore(new MemoryStorage()),
    models: { currentId: () => 'p/m', switchTo: async (id) => id, list: async () => ({ ids: [], errors: [] }), openSwitcher: async () => {} },
    notes: { activeNote: () => undefined, confine: async (p) => ({ absolute: p, display: p }), read: async () => '', open: async () => {} },
    confirm: async () => true,
    settings: () => ({ enableMarkdown: true, lazyAgentSelection: false, autoContext: enabled }),
    autoContext: (text, signal) => gatherAutoContext(text, indexReady ? index : undefined, { signal }),
    cwd: () => kiln,
    log: silentLogger,
  });
  try {
    await controller.handle({ type: 'send', text: 'compost heap?' });
    await controller.handle({ type: 'send', text: 'compost again?' });
    const notices = posts.flatMap((m) => (m.type === 'notice' ? [m.text] : []));
    assert.deepEqual(notices, ['Answering without kiln context: no index yet.'], 'said once');
    assert.deepEqual(catalog.prompts.map((p) => p.attachments.length), [0, 0]);

    indexReady = true;
    await controller.handle({ type: 'send', text: 'how often to turn the compost heap' });
    const sent = catalog.prompts.at(-1)!;
    assert.equal(sent.attachments[0]!.path, 'techniques/Composting.md');
    assert.match(sent.attachments[0]!.text, /Turn the compost heap weekly/);
    const sources = posts.filter((m) => m.type === 'sources').at(-1);
    assert.ok(sources && sources.type === 'sources');
    assert.equal(sources.sources[0]!.via, 'auto_context');
    assert.equal(sources.sources[0]!.path, 'techniques/Composting.md');

    enabled = false;
    await controller.handle({ type: 'send', text: 'compost heap turning, no context please' });
    assert.deepEqual(catalog.prompts.at(-1)!.attachments, []);
  } finally {
    await controller.dispose();
    await index.dispose();
  }
});

test('(#29) auto context leaves out the attached notes and the rules files (already in the prompt), and still fills its sections', async () => {
  const dir = makeKiln({
    'AGENTS.md': '# Rules\n\nAnswer about compost heaps briefly. Compost heap rules.\n',
    'techniques/Composting.md': '# Composting\n\nTurn the compost heap weekly.\n',
    'garden/heap.md': '# Heap\n\nA compost heap by the shed.\n',
    'garden/bins.md': '# Bins\n\nCompost bins beat a heap.\n',
  });
  const index = tinyIndex(dir);
  try {
    await index.update();
    const all = await gatherAutoContext('compost heap', index, { maxSections: 2 });
    assert.ok(all.attachments.some((a) => a.path === 'AGENTS.md' || a.path === 'techniques/Composting.md'), JSON.stringify(all.attachments.map((a) => a.path)));
    const context = await gatherAutoContext('compost heap', index, { maxSections: 2, exclude: ['AGENTS.md', 'techniques/Composting.md'] });
    assert.deepEqual(context.attachments.map((a) => a.path).sort(), ['garden/bins.md', 'garden/heap.md']);
  } finally {
    await index.dispose();
    removeKiln(dir);
  }
});
