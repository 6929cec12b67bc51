/**
 * Gateway benchmark (issue 5): tool-call latency through the gateway vs calling the upstream
 * directly (p50/p99 over 1,000 calls), tools/list over 10 upstreams, and crash-to-back time with
 * the production backoff. Run alone with `npm run bench:gateway`; test/bench/run.ts may import
 * `runGatewayBench` and print its lines.
 */
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServerSchema, type McpServerConfig } from '../../src/core/config/schema';
import { resolveSecret } from '../../src/core/config/resolveSecret';
import { Gateway } from '../../src/core/gateway/gateway';
import { createGatewayServer } from '../../src/core/gateway/gatewayServer';
import { ProcessTransport } from '../../src/core/gateway/processTransport';
import { silentLogger } from '../../src/core/host';

const EVERYTHING = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const CALLS = Number(process.env.BENCH_GATEWAY_CALLS ?? 1000);

export interface BenchLine {
  name: string;
  value: string;
}

function everything(name: string, prefix: string): McpServerConfig {
  return McpServerSchema.parse({ name, prefix, transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } });
}

function gateway(): Gateway {
  return new Gateway({ log: silentLogger, env: process.env, resolveSecret: (value) => resolveSecret(value, { env: process.env }) });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeCalls(call: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 50; i++) await call(); // warm-up (JIT, connection)
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = process.hrtime.bigint();
    await call();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

async function latency(lines: BenchLine[]): Promise<void> {
  const args = { message: 'bench' };
  // Direct: an SDK client on the upstream's stdio.
  const direct = new Client({ name: 'bench', version: '1' });
  await direct.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));
  const d = await timeCalls(() => direct.callTool({ name: 'echo', arguments: args }));
  await direct.close();

  // Through the gateway as an MCP client sees it: client → gateway MCP server (in-memory pipe) → upstream stdio.
  const gw = gateway();
  await gw.applyConfig([everything('every', 'ev_')]);
  const session = createGatewayServer({ gateway: gw, kilnTools: [], log: silentLogger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const viaServer = new Client({ name: 'bench', version: '1' });
  await viaServer.connect(clientSide);
  const g = await timeCalls(() => viaServer.callTool({ name: 'ev_echo', arguments: args }));
  await viaServer.close();
  await gw.dispose();

  // Through `hearth gateway` as a separate process: client → gateway stdio → upstream stdio (two process hops).
  const { mkdtemp, mkdir, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const root = await mkdtemp(join(tmpdir(), 'hearth-bench-'));
  await mkdir(join(root, '.hearth'));
  await writeFile(join(root, '.hearth', 'config.toml'), `[[mcp.servers]]\nname = "every"\nprefix = "ev_"\n[mcp.servers.transport]\ntype = "stdio"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n`);
  const proc = new Client({ name: 'bench', version: '1' });
  await proc.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', resolve('node_modules/tsx/dist/loader.mjs'), resolve('src/cli/main.ts'), 'gateway'],
      cwd: root,
      env: { ...process.env, XDG_CONFIG_HOME: join(root, 'xdg') } as Record<string, string>,
      stderr: 'ignore',
    }),
  );
  const p = await timeCalls(() => proc.callTool({ name: 'ev_echo', arguments: args }));
  await proc.close();
  await rm(root, { recursive: true, force: true });

  lines.push({ name: `tool call direct (p50 / p99, ${CALLS} calls)`, value: `${ms(d.p50)} / ${ms(d.p99)}` });
  lines.push({ name: 'tool call via gateway server, in-process (p50 / p99)', value: `${ms(g.p50)} / ${ms(g.p99)}  (+${ms(g.p50 - d.p50)} at p50)` });
  lines.push({ name: 'tool call via `hearth gateway` process over stdio (p50 / p99)', value: `${ms(p.p50)} / ${ms(p.p99)}  (+${ms(p.p50 - d.p50)} at p50)` });
}

async function listOverTen(lines: BenchLine[]): Promise<void> {
  const gw = gateway();
  const servers = Array.from({ length: 10 }, (_, i) => everything(`up${i}`, `u${i}_`));
  const started = performance.now();
  await gw.applyConfig(servers);
  const connectMs = performance.now() - started;
  const session = createGatewayServer({ gateway: gw, kilnTools: [], log: silentLogger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(clientSide);
  let count = 0;
  const list = await timeCalls(async () => {
    count = (await client.listTools()).tools.length;
  });
  await client.close();
  await gw.dispose();
  lines.push({ name: 'start 10 stdio upstreams (all ready)', value: ms(connectMs) });
  lines.push({ name: `tools/list over 10 upstreams, ${count} tools (p50 / p99)`, value: `${ms(list.p50)} / ${ms(list.p99)}` });
}

async function crashToBack(lines: BenchLine[]): Promise<void> {
  const gw = gateway(); // production backoff: first retry after 1 s ± 20 %
  await gw.applyConfig([everything('crashy', 'c_')]);
  const samples: number[] = [];
  for (let round = 0; round < 3; round++) {
    const upstream = (gw as unknown as { upstreams: Map<string, { upstream: { transport?: unknown } }> }).upstreams.get('crashy')!.upstream;
    const pid = (upstream.transport as ProcessTransport).pid!;
    const started = performance.now();
    process.kill(pid, 'SIGKILL');
    await new Promise<void>((done) => {
      const sub = gw.onDidChange(() => {
        const state = gw.statuses()[0].state;
        if (state.kind === 'ready' && (upstream.transport as ProcessTransport | undefined)?.pid !== pid) {
          sub.dispose();
          done();
        }
      });
    });
    samples.push(performance.now() - started);
  }
  await gw.dispose();
  samples.sort((a, b) => a - b);
  lines.push({ name: 'upstream SIGKILL → tools back (median of 3, 1 s backoff)', value: `${ms(samples[1])} (min ${ms(samples[0])}, max ${ms(samples[2])})` });
}

export async function runGatewayBench(): Promise<BenchLine[]> {
  const lines: BenchLine[] = [];
  await latency(lines);
  await listOverTen(lines);
  await crashToBack(lines);
  return lines;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve('test/bench/gateway.bench.ts')) {
  runGatewayBench().then(
    (lines) => {
      console.log('gateway');
      for (const line of lines) console.log(`  ${line.name.padEnd(66)} ${line.value}`);
    },
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
