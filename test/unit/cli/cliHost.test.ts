// The CLI host in-process with fake streams: the y/N prompt, --yes, refusal without a terminal,
// progress bar vs lines vs nothing, log levels, redaction, and createCliContext's flags.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliHost, type CliHostOptions } from '../../../src/cli/cliHost';
import { createCliContext, parseCommandLine } from '../../../src/cli/cliContext';
import { REDACTED } from '../../../src/core/logging/redactingLogger';
import { isHearthError } from '../../../src/core/errors';

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => (text += d));
  return { stream, text: () => text };
}

function host(overrides: Partial<CliHostOptions> = {}, stdinText?: string) {
  const stderr = capture();
  const stdin = new PassThrough();
  if (stdinText !== undefined) stdin.end(stdinText);
  const options: CliHostOptions = {
    stderr: stderr.stream,
    stdin,
    env: {},
    level: 'info',
    cli: { show_progress: true, confirm_destructive: true },
    interactive: true,
    progressBar: false,
    ...overrides,
  };
  return { host: new CliHost(options), stderr, stdin };
}

test('confirm: y and yes proceed, n / empty / anything else refuse (default No)', async () => {
  for (const [answer, expected] of [['y\n', true], ['YES\r\n', true], ['n\n', false], ['\n', false], ['maybe\n', false]] as const) {
    const { host: h, stderr } = host({}, answer);
    assert.equal(await h.confirm('Delete the index?', '3 files'), expected, `answer ${JSON.stringify(answer)}`);
    assert.match(stderr.text(), /Delete the index\?\n3 files\nContinue\? \[y\/N\] /);
  }
});

test('confirm: two prompts read one line each from a single chunk', async () => {
  const { host: h } = host({}, 'y\nn\n');
  assert.equal(await h.confirm('first?'), true);
  assert.equal(await h.confirm('second?'), false);
});

test('confirm: end of input refuses and says to pass --yes', async () => {
  const { host: h, stderr } = host({}, '');
  assert.equal(await h.confirm('Rebuild?'), false);
  assert.match(stderr.text(), /end of input.*--yes/);
});

test('confirm: no terminal refuses without reading stdin and says to pass --yes', async () => {
  const { host: h, stderr, stdin } = host({ interactive: false });
  stdin.write('y\n'); // must not be taken as an answer: piped input is not a person
  assert.equal(await h.confirm('Rebuild the index?'), false);
  assert.match(stderr.text(), /Rebuild the index\?/);
  assert.match(stderr.text(), /stdin is not a terminal; pass --yes/);
});

test('confirm: --yes and confirm_destructive = false proceed without asking', async () => {
  const yes = host({ yes: true, interactive: false });
  assert.equal(await yes.host.confirm('Rebuild?'), true);
  assert.equal(yes.stderr.text(), '');
  const off = host({ cli: { show_progress: true, confirm_destructive: false }, interactive: false });
  assert.equal(await off.host.confirm('Rebuild?'), true);
  assert.equal(off.stderr.text(), '');
});

test('confirmProtected: asked on the terminal even with --yes and confirm_destructive = false; no terminal refuses (undefined) without reading stdin', async () => {
  const request = { path: '.hearth/config.toml', action: 'create' as const, reason: 'this file configures commands Hearth runs', actor: 'claude' };
  for (const [answer, expected] of [['y\n', true], ['n\n', false], ['', false]] as const) {
    const { host: h, stderr } = host({ yes: true, cli: { show_progress: true, confirm_destructive: false } }, answer);
    assert.equal(await h.confirmProtected(request), expected, JSON.stringify(answer));
    assert.match(stderr.text(), /claude wants to create the protected file "\.hearth\/config\.toml"/);
    assert.match(stderr.text(), /this file configures commands Hearth runs/);
  }
  const { host: h, stderr, stdin } = host({ yes: true, interactive: false });
  stdin.write('y\n');
  assert.equal(await h.confirmProtected(request), undefined);
  assert.match(stderr.text(), /refused: .*\.hearth\/config\.toml[\s\S]*--yes does not cover protected paths/);
});

test('progress without a terminal: a line per step and per tenth, then done', async () => {
  const { host: h, stderr } = host();
  const result = await h.withProgress({ title: 'Indexing' }, async (progress) => {
    progress.report({ message: 'scanning' });
    for (let i = 0; i < 20; i++) progress.report({ increment: 5 });
    progress.report({ message: 'writing' });
    return 42;
  });
  assert.equal(result, 42);
  const lines = stderr.text().trimEnd().split('\n');
  assert.equal(lines[0], 'Indexing…');
  assert.equal(lines[1], 'Indexing: scanning');
  // 20 increments of 5 % print once per tenth: 5 %, 10 %, 20 % … 100 %.
  assert.deepEqual(
    lines.filter((l) => /^Indexing: \d+% scanning$/.test(l)).map((l) => Number(/(\d+)%/.exec(l)![1])),
    [5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100],
  );
  assert.equal(lines.at(-2), 'Indexing: 100% writing');
  assert.match(lines.at(-1)!, /^Indexing: done \(\d+\.\d s\)$/);
  assert.doesNotMatch(stderr.text(), /\r/);
});

test('progress on a terminal: a bar redrawn in place; failure is reported and rethrown', async () => {
  const { host: h, stderr } = host({ progressBar: true });
  await assert.rejects(
    h.withProgress({ title: 'Embedding' }, async (progress) => {
      await new Promise((done) => setTimeout(done, 100)); // redraws are throttled to one per 80 ms
      progress.report({ increment: 50, message: 'half' });
      throw new Error('model missing');
    }),
    /model missing/,
  );
  const text = stderr.text();
  assert.match(text, /\r\x1b\[2KEmbedding…/);
  assert.match(text, /Embedding \[#{12}-{12}\]  50% half/);
  assert.match(text, /Embedding: failed \(/);
});

test('progress: log lines clear the bar and redraw it after', async () => {
  const { host: h, stderr } = host({ progressBar: true });
  await h.withProgress({ title: 'Work' }, async () => {
    h.log.info('in between');
  });
  assert.match(stderr.text(), /Work…\r\x1b\[2K\[info\] in between\n\r\x1b\[2KWork…/);
});

test('progress: nothing at all when [cli].show_progress = false', async () => {
  const { host: h, stderr } = host({ cli: { show_progress: false, confirm_destructive: true } });
  assert.equal(await h.withProgress({ title: 'Indexing' }, async (p) => (p.report({ increment: 50, message: 'x' }), 'ok')), 'ok');
  assert.equal(stderr.text(), '');
});

test('log: level threshold, error stacks only at debug, secrets redacted in messages and arguments', async () => {
  const info = host();
  info.host.redactor.add('sk-live-0123456789');
  info.host.log.debug('hidden detail');
  info.host.log.warn('calling with sk-live-0123456789', { key: 'sk-live-0123456789' });
  info.host.log.error('failed', new Error('boom'));
  const text = info.stderr.text();
  assert.doesNotMatch(text, /hidden detail|sk-live-0123456789/);
  assert.match(text, new RegExp(`^\\[warn\\] calling with ${REDACTED} .*${REDACTED}`, 'm'));
  assert.match(text, /^\[error\] failed boom$/m);

  const debug = host({ level: 'debug' });
  debug.host.log.debug('shown detail');
  debug.host.log.error('failed', new Error('boom'));
  assert.match(debug.stderr.text(), /^\[debug\] shown detail$/m);
  assert.match(debug.stderr.text(), /Error: boom\n\s+at /);
});

test('secrets come from environment variables', async () => {
  const { host: h } = host({ env: { MY_TOKEN: 'abc' } });
  assert.equal(await h.secrets.get('MY_TOKEN'), 'abc');
  assert.equal(await h.secrets.get('OTHER'), undefined);
});

test('createCliContext: --verbose and [cli].verbose mean debug; [cli] reaches the host; config secrets are redacted', async () => {
  const root = await mkdtemp(join(tmpdir(), 'hearth-clictx-'));
  try {
    await mkdir(join(root, 'ws', '.hearth'), { recursive: true });
    const io = (stderr: PassThrough) => ({ stdout: new PassThrough(), stderr, stdin: new PassThrough(), env: { XDG_CONFIG_HOME: join(root, 'xdg'), HEARTH_TRUST: '1', CLOUD_B_API_KEY: 'env-secret-value-42' }, cwd: root });
    const file = join(root, 'ws', '.hearth', 'config.toml');
    await writeFile(file, '[cli]\nconfirm_destructive = false\n[llm.providers.a]\ntype = "openai"\napi_key = "sk-plain-config-key"\n[chat]\ntemperature = 9\n');
    const err = capture();
    const plain = await createCliContext(io(err.stream), { workspace: 'ws' });
    assert.equal(plain.workspaceRoot, join(root, 'ws'));
    assert.equal(plain.host.level, 'info');
    assert.equal(await plain.host.confirm('Delete?'), true, 'confirm_destructive = false applies');
    plain.host.log.info('keys: sk-plain-config-key env-secret-value-42');
    assert.equal(err.text().includes('sk-plain-config-key') || err.text().includes('env-secret-value-42'), false);
    plain.reportConfigProblems();
    plain.reportConfigProblems();
    assert.equal(err.text().split(`${file}:7:1: error:`).length - 1, 1, 'problems printed once, with file:line:col');

    const verbose = await createCliContext(io(capture().stream), { workspace: 'ws', verbose: true });
    assert.equal(verbose.host.level, 'debug');
    await writeFile(file, '[cli]\nverbose = true\n');
    assert.equal((await createCliContext(io(capture().stream), { workspace: 'ws' })).host.level, 'debug');
    await writeFile(file, '[logging]\nlevel = "trace"\n');
    assert.equal((await createCliContext(io(capture().stream), { workspace: 'ws', verbose: true })).host.level, 'trace', 'verbose never lowers a finer level');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('parseCommandLine: common flags, and usage errors naming the command', () => {
  const { values, positionals } = parseCommandLine('x', ['-w', 'dir', '--yes', '--verbose', 'pos', '--json'], { json: { type: 'boolean' } }, true);
  assert.deepEqual({ ...values }, { workspace: 'dir', yes: true, verbose: true, json: true });
  assert.deepEqual(positionals, ['pos']);
  assert.throws(
    () => parseCommandLine('x', ['--bogus'], {}),
    (error) => isHearthError(error) && error.code === 'cli.usage' && error.message === 'unknown option "--bogus" (see hearth x --help)',
  );
  assert.throws(() => parseCommandLine('x', ['stray'], {}), (error) => isHearthError(error) && /unexpected argument "stray"/.test(error.message));
  assert.throws(() => parseCommandLine('x', ['--workspace'], {}), (error) => isHearthError(error) && error.code === 'cli.usage');
});
