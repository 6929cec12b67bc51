// The CLI's offer to trust a folder, on a real terminal: the built bin (dist/cli.js) runs under
// `script`, which gives it a pseudo-terminal (stdin and stderr are TTYs), as a person at a shell.
// Without a terminal nothing is asked (cliTrust.test.ts covers the logic with stand-in streams).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve('dist/cli.js');
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const skip = !existsSync(BIN) ? 'run npm run build first' : !hasScript ? 'no `script` (util-linux) to give the CLI a terminal' : false;

/** A cloned folder whose config sends the notes to an embeddings endpoint (a trust-gated key). */
function clonedFolder(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-tty-trust-')));
  mkdirSync(join(root, '.hearth'));
  writeFileSync(join(root, '.hearth', 'config.toml'), '[embedding]\nprovider = "cloud_b"\napi_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n');
  writeFileSync(join(root, 'note.md'), '# Note\nText.\n');
  return root;
}

/** `hearth index` on a pseudo-terminal; `answer` is typed once the question shows. */
function onTerminal(root: string, answer: string): Promise<{ code: number | null; output: string }> {
  const env = { ...process.env, XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg'), HEARTH_TRUST: '', TERM: 'dumb' };
  const command = [process.execPath, BIN, 'index', '--workspace', root].map((part) => `'${part}'`).join(' ');
  const child = spawn('script', ['-qefc', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let answered = false;
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  child.stdout.on('data', (data: Buffer) => {
    output += data.toString('utf8');
    if (!answered && output.includes('[y/N]')) {
      answered = true;
      child.stdin.write(answer);
    }
  });
  child.stderr.on('data', (data: Buffer) => (output += data.toString('utf8')));
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    }),
  );
}

function trustedFolders(root: string): string {
  const env = { ...process.env, XDG_CONFIG_HOME: join(root, '.xdg'), HEARTH_TRUST: '' };
  return spawnSync(process.execPath, [BIN, 'trust', '--list'], { encoding: 'utf8', env, input: '' }).stdout;
}

test('on a terminal, hearth asks before trusting a cloned folder: "n" stops with exit 3 and stores nothing; "y" stores it', { skip }, async () => {
  const root = clonedFolder();
  try {
    const refused = await onTerminal(root, 'n\r');
    assert.match(refused.output, /is not a trusted folder/);
    assert.match(refused.output, /\[embedding\]\.api_url|embedding\.api_url/);
    assert.match(refused.output, /Trust .* \[y\/N\]/);
    assert.equal(refused.code, 3, refused.output);
    assert.equal(trustedFolders(root).trim(), '', 'nothing stored');

    const accepted = await onTerminal(root, 'y\r');
    assert.match(accepted.output, /hearth: trusted /, accepted.output);
    assert.ok(trustedFolders(root).split('\n').includes(root), `stored: ${trustedFolders(root)}`);
    // Trusted, it goes on to the endpoint the folder names (nothing listens there): a clear error, not the question again.
    assert.doesNotMatch(accepted.output.slice(accepted.output.indexOf('hearth: trusted')), /\[y\/N\]/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
