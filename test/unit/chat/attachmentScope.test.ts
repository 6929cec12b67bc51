// Paths from the chat webview are confined to the kiln, the workspace folders and the open editors
// (issue 12 part 5): on a real file system with a kiln, a workspace, a "home" holding a secret key,
// and symlinks out; then through the controller, which refuses, logs and never reads.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttachmentScope, ChatPathError } from '../../../src/core/chat/context/attachmentScope';
import { ChatController } from '../../../src/core/chat/chatController';
import { resolveKilnNote } from '../../../src/core/chat/context/kilnNoteTarget';
import { HistoryStore } from '../../../src/core/chat/conversation/historyStore';
import type { HostMessage } from '../../../src/core/chat/protocol';
import { FakeCatalog, MemoryStorage } from './fakeCatalog';
import { sinkLogger } from '../../../src/core/logging/sinkLogger';

let root: string;
let kiln: string;
let workspace: string;
let home: string;
const open: string[] = [];

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-scope-'));
  kiln = join(root, 'kiln');
  workspace = join(root, 'workspace');
  home = join(root, 'home');
  await mkdir(join(kiln, 'garden'), { recursive: true });
  await mkdir(workspace, { recursive: true });
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(kiln, 'garden', 'tomatoes.md'), '# Tomatoes\nsun\n');
  await writeFile(join(kiln, 'Ünïcode note.md'), '# Ü\n');
  await writeFile(join(workspace, 'plan.md'), '# Plan\n');
  await writeFile(join(home, '.ssh', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET\n');
  await writeFile(join(home, 'open-outside.md'), '# open in an editor\n');
  await symlink(join(home, '.ssh', 'id_rsa'), join(kiln, 'innocent.md'));
  await symlink(join(home, '.ssh'), join(kiln, 'dotssh'));
});
after(() => rm(root, { recursive: true, force: true }));

const scope = () => new AttachmentScope({ kiln: () => kiln, workspaceFolders: () => [workspace], openFiles: () => open });

async function refused(path: string, code = 'chat.path_outside_scope'): Promise<void> {
  await assert.rejects(scope().check(path), (error: unknown) => error instanceof ChatPathError && error.code === code, path);
}

test('kiln notes (relative or absolute, with spaces and unicode) and workspace files are allowed', async () => {
  assert.equal((await scope().check('garden/tomatoes.md')).display, 'garden/tomatoes.md');
  assert.equal((await scope().check(join(kiln, 'garden', 'tomatoes.md'))).display, 'garden/tomatoes.md');
  assert.equal((await scope().check('Ünïcode note.md')).display, 'Ünïcode note.md');
  assert.equal((await scope().check(join(workspace, 'plan.md'))).display.endsWith('plan.md'), true);
});

test('anything else is refused: absolute paths, .. escapes, symlinks out of the kiln, NUL bytes, directories', async () => {
  await refused(join(home, '.ssh', 'id_rsa'));
  await refused('../home/.ssh/id_rsa');
  await refused('garden/../../home/.ssh/id_rsa');
  await refused('innocent.md');
  await refused('dotssh/id_rsa');
  await refused('/etc/passwd');
  await refused('garden/tomatoes.md\0/etc/passwd');
  await refused('garden', 'chat.path_not_a_file');
});

test('a missing file outside reads as outside, never as missing; inside it is missing', async () => {
  await refused(join(home, 'no-such-key'));
  await refused('dotssh/no-such-key');
  await refused('garden/gone.md', 'chat.path_not_found');
});

test('a file open in an editor is allowed while it is open', async () => {
  const file = join(home, 'open-outside.md');
  await refused(file);
  open.push(file);
  try {
    assert.equal((await scope().check(file)).absolute.endsWith('open-outside.md'), true);
  } finally {
    open.pop();
  }
  await refused(file);
});

test('the controller refuses attachHit outside the scope: logged, said in the panel, nothing attached or read', async () => {
  const posts: HostMessage[] = [];
  const warnings: string[] = [];
  const reads: string[] = [];
  const s = scope();
  const controller = new ChatController({
    catalog: new FakeCatalog(),
    post: (m) => posts.push(m),
    store: new HistoryStore(new MemoryStorage()),
    models: { currentId: () => 'p/m', switchTo: async (id) => id, list: async () => ({ ids: [], errors: [] }), openSwitcher: async () => {} },
    notes: { activeNote: () => undefined, open: async () => {}, confine: (path) => s.check(path), read: async (ref) => (reads.push(ref.path), 'text') },
    confirm: async () => true,
    settings: () => ({ enableMarkdown: true, lazyAgentSelection: false }),
    cwd: () => workspace,
    log: sinkLogger((level, m) => void (level === 'error' || level === 'warn' ? warnings.push(m) : undefined)),
  });
  await controller.handle({ type: 'attachHit', path: join(home, '.ssh', 'id_rsa') });
  await controller.handle({ type: 'attachHit', path: 'innocent.md' });
  assert.equal(posts.filter((m) => m.type === 'attachments').length, 0, 'nothing was attached');
  assert.equal(warnings.length, 2);
  assert.match(warnings[0]!, /chat\.path_outside_scope.*id_rsa/);
  const notices = posts.flatMap((m) => (m.type === 'notice' ? [m] : []));
  assert.equal(notices.length, 2);
  assert.equal(notices[0]!.level, 'error');
  assert.match(notices[0]!.text, /outside the kiln/);

  // A mention of a note deleted meanwhile: said in the panel, nothing attached.
  await controller.handle({ type: 'attachHit', path: 'garden/deleted-meanwhile.md' });
  assert.match(posts.flatMap((m) => (m.type === 'notice' ? [m.text] : [])).at(-1) ?? '', /does not exist \(moved or deleted\?\)/);
  assert.equal(posts.filter((m) => m.type === 'attachments').length, 0);
  await controller.handle({ type: 'attachHit', path: join(kiln, 'garden', 'tomatoes.md'), startLine: 1, endLine: 2 });
  const attached = posts.filter((m) => m.type === 'attachments').at(-1);
  assert.deepEqual(attached, { type: 'attachments', attachments: [{ path: 'garden/tomatoes.md', startLine: 1, endLine: 2 }] });
  await controller.send('what about tomatoes?');
  assert.deepEqual(reads, ['garden/tomatoes.md']);
  await controller.dispose();
});

test('a clicked note link opens only kiln notes: paths and wiki names; workspace, open editors, .., absolute and symlinks out are refused', async () => {
  assert.equal((await resolveKilnNote(kiln, 'garden/tomatoes.md')).display, 'garden/tomatoes.md');
  assert.equal((await resolveKilnNote(kiln, 'Tomatoes')).display, 'garden/tomatoes.md');
  assert.equal((await resolveKilnNote(kiln, 'Ünïcode note')).display, 'Ünïcode note.md');
  for (const target of [join(workspace, 'plan.md'), join(home, 'open-outside.md'), '../home/.ssh/id_rsa', join(home, '.ssh', 'id_rsa'), 'innocent.md', 'dotssh/id_rsa.md', 'https://x.org/a.md', 'command:workbench.action.terminal.new']) {
    await assert.rejects(resolveKilnNote(kiln, target), (error: unknown) => error instanceof ChatPathError && error.code === 'chat.path_outside_scope', target);
  }
  await assert.rejects(resolveKilnNote(kiln, 'No such note'), (error: unknown) => error instanceof ChatPathError && error.code === 'chat.path_not_found');
});

test('the controller hands openNote to the notes, and a refusal is logged and said, never thrown', async () => {
  const posts: HostMessage[] = [];
  const warnings: string[] = [];
  const opened: string[] = [];
  const controller = new ChatController({
    catalog: new FakeCatalog(),
    post: (m) => posts.push(m),
    store: new HistoryStore(new MemoryStorage()),
    models: { currentId: () => 'p/m', switchTo: async (id) => id, list: async () => ({ ids: [], errors: [] }), openSwitcher: async () => {} },
    notes: {
      activeNote: () => undefined,
      confine: (path) => scope().check(path),
      read: async () => '',
      open: async (target, line) => {
        const note = await resolveKilnNote(kiln, target);
        opened.push(`${note.display}:${line ?? 1}`);
      },
    },
    confirm: async () => true,
    settings: () => ({ enableMarkdown: true, lazyAgentSelection: false }),
    cwd: () => workspace,
    log: sinkLogger((level, m) => void (level === 'error' || level === 'warn' ? warnings.push(m) : undefined)),
  });
  await controller.handle({ type: 'openNote', target: 'garden/tomatoes.md', line: 2 });
  await controller.handle({ type: 'openNote', target: '../home/.ssh/id_rsa' });
  await controller.handle({ type: 'openNote', target: 'x', line: -3 });
  assert.deepEqual(opened, ['garden/tomatoes.md:2']);
  assert.equal(warnings.length, 2, 'the refusal and the malformed message are logged');
  assert.match(warnings[0]!, /refused to open a note.*chat\.path_outside_scope/);
  assert.equal(posts.filter((m) => m.type === 'notice').length, 1);
  await controller.dispose();
});
