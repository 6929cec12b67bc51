import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { after } from 'node:test';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { McpServerConfig } from '../../../src/core/config/schema';
import { McpServerSchema } from '../../../src/core/config/schema';
import type { GatewayOptions } from '../../../src/core/gateway/gateway';
import { resolveSecret } from '../../../src/core/config/resolveSecret';
import { silentLogger } from '../../../src/core/host';

export const EVERYTHING = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = resolve('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** A server entry as the config loader would produce it (defaults filled by the real schema). */
export function serverConfig(entry: Record<string, unknown>): McpServerConfig {
  return McpServerSchema.parse(entry);
}

export function everythingStdio(name: string, prefix: string, extra: Record<string, unknown> = {}): McpServerConfig {
  return serverConfig({ name, prefix, transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }, ...extra });
}

/** Fast reconnects so the suite stays quick; everything else as in production. */
export function testGatewayOptions(overrides: Partial<GatewayOptions> = {}): GatewayOptions {
  return {
    log: silentLogger,
    env: process.env,
    resolveSecret: (value) => resolveSecret(value, { env: process.env }),
    backoff: { initialMs: 100, maxMs: 400, jitter: 0.1 },
    pingIntervalMs: 300,
    stopGraceMs: 250,
    ...overrides,
  };
}

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
}

/** A guard only: a loaded 2-core machine has been seen to need more than 15 s to start server-everything. */
const START_GUARD_MS = 60_000;

/** Starts server-everything's HTTP flavour (`sse` or `streamableHttp`) on PORT and waits until it listens. */
export async function startEverythingHttp(mode: 'sse' | 'streamableHttp', port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  try {
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`server-everything ${mode} did not start within ${START_GUARD_MS} ms: ${stderr}`)), START_GUARD_MS);
      child.stderr!.on('data', (chunk: Buffer) => {
        // The line may arrive split over chunks.
        stderr += chunk.toString();
        if (/listening|running/i.test(stderr)) {
          clearTimeout(timer);
          done();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`server-everything ${mode} exited with ${code}: ${stderr}`));
      });
    });
  } catch (error) {
    // A child left running would keep the test file's process, and so the whole run, from ever ending.
    await stopChild(child);
    throw error;
  }
  child.stderr!.resume();
  return child;
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGKILL');
  await exited;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 25));
  }
}

export function textOf(result: unknown): string {
  const content = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return content.map((part) => part.text ?? '').join('');
}

const tempDirs: string[] = [];
after(() => Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A fresh folder under the OS temp dir, removed when the test file finishes. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `hearth-${prefix}-`));
  tempDirs.push(dir);
  return dir;
}
