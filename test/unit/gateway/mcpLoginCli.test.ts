// `hearth mcp login NAME` end to end: the CLI (from source, as a user's shell runs it) against an
// authorization server of the test's own on loopback (fixtures/oauthServer.ts: RFC 8414/9728
// metadata, RFC 7591 registration, PKCE, refresh). The test is the browser: it opens the address
// the CLI prints and follows the server's redirect to the CLI's loopback callback. Hostile servers
// (unreadable metadata, a 4 MB answer, a token endpoint failing with 500, a redirect to another
// origin) end the login with a clear error — never a hang, a crash or a token on the terminal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startOAuthServer, type OAuthFixture, type OAuthMode } from './fixtures/oauthServer';
import { tempDir } from './helpers';
import { HEARTH_MAIN, TSX_LOADER } from '../cli/runHearth';

const servers: OAuthFixture[] = [];
after(() => Promise.all(servers.map((server) => server.close())));
async function oauthServer(mode: OAuthMode, elsewhere?: string): Promise<OAuthFixture> {
  const server = await startOAuthServer(mode, elsewhere);
  servers.push(server);
  return server;
}

async function workspace(url: string): Promise<{ root: string; env: Record<string, string> }> {
  const root = await tempDir('mcp-login');
  await mkdir(join(root, '.hearth'));
  await writeFile(join(root, '.hearth', 'config.toml'), `[[mcp.servers]]\nname = "remote"\nprefix = "rm_"\n[mcp.servers.transport]\ntype = "http"\nurl = "${url}"\n`);
  return { root, env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_DATA_HOME: join(root, 'xdg-data'), HEARTH_TRUST: '1' } };
}

/** Runs `hearth mcp ACTION remote`; when it prints an authorization address, `browser` gets it. */
function hearthMcp(action: 'login' | 'logout', cwd: string, env: Record<string, string>, browser?: (url: URL) => Promise<void>): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, HEARTH_MAIN, 'mcp', action, 'remote'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let opened = false;
    const read = (chunk: Buffer) => {
      out += chunk;
      const address = /^\s+(http:\/\/\S+\/authorize\S*)$/m.exec(out)?.[1];
      if (address && !opened && browser) {
        opened = true;
        void browser(new URL(address)).catch(() => {});
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    // A guard only: a login that hangs fails the test instead of holding the run.
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(guard);
      done({ code, out });
    });
  });
}

/** The browser: opens the authorization address and follows its redirect back to the CLI. */
async function browser(url: URL): Promise<void> {
  const answer = await fetch(url, { redirect: 'manual' });
  const location = answer.headers.get('location');
  if (location) await (await fetch(location)).text();
}

describe('hearth mcp login / logout (CLI, end to end)', () => {
  test('login prints the address, waits for the browser, stores the tokens 0600 and never prints them; logout forgets them', async () => {
    const as = await oauthServer('good');
    const { root, env } = await workspace(as.mcpUrl);
    const login = await hearthMcp('login', root, env, browser);
    assert.equal(login.code, 0, login.out);
    assert.match(login.out, /signed in to "remote"/);
    const file = join(env.XDG_DATA_HOME!, 'hearth', 'mcp-oauth.json');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const saved = await readFile(file, 'utf8');
    assert.ok(as.issued.length >= 2 && as.issued.every((token) => saved.includes(token)), 'access and refresh tokens kept in the file');
    for (const token of as.issued) assert.ok(!login.out.includes(token), 'no token on the terminal');
    assert.deepEqual(as.resources, [as.mcpUrl], 'the resource indicator names the MCP server');

    const logout = await hearthMcp('logout', root, env);
    assert.equal(logout.code, 0, logout.out);
    const left = await readFile(file, 'utf8');
    for (const token of as.issued) assert.ok(!left.includes(token), 'logout removed the tokens');
  });

  for (const [mode, expected] of [
    ['bad-metadata', /Sign-in to "remote" failed/],
    ['huge-metadata', /more than 1024 KB/],
    ['token-500', /Sign-in to "remote" failed.*500|HTTP 500/],
  ] as const) {
    test(`a hostile authorization server (${mode}) ends the login with a clear error, no token or code printed`, async () => {
      const as = await oauthServer(mode);
      const { root, env } = await workspace(as.mcpUrl);
      const codes: string[] = [];
      const login = await hearthMcp('login', root, env, async (url) => {
        const answer = await fetch(url, { redirect: 'manual' });
        const location = answer.headers.get('location');
        if (!location) return;
        codes.push(new URL(location).searchParams.get('code') ?? '');
        await (await fetch(location)).text();
      });
      assert.equal(login.code, 1, login.out);
      assert.match(login.out, expected);
      assert.doesNotMatch(login.out, /at .*\.(ts|js):\d+/, 'an error message, not a stack trace');
      for (const secret of [...as.issued, ...codes.filter(Boolean)]) assert.ok(!login.out.includes(secret), `"${secret}" was printed`);
    });
  }

  test('metadata redirected to another origin is never followed: that origin is never asked', async () => {
    const target = await oauthServer('good');
    const away = await oauthServer('redirect-away', target.base.replace('127.0.0.1', 'localhost'));
    const { root, env } = await workspace(away.mcpUrl);
    // The SDK then falls back to the MCP server's own origin (the 2025-03-26 layout), which this server also serves.
    const login = await hearthMcp('login', root, env, browser);
    assert.deepEqual(target.hits, [], 'the other origin was never asked');
    assert.ok(!login.out.includes(target.base.replace('127.0.0.1', 'localhost')), login.out);
  });
});
