import { readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AcpSchema, type AcpAgentProfile } from '../../../../src/core/config/schema';
import type { Logger } from '../../../../src/core/host';
import { sinkLogger } from '../../../../src/core/logging/sinkLogger';
import type { AgentEvent, AgentSessionHost, PermissionOutcome, PermissionRequest } from '../../../../src/core/agents/agentSession';
import { AcpAgents, type AcpAgentsOptions } from '../../../../src/core/agents/acp/acpAgents';
import type { AcpLimits } from '../../../../src/core/agents/acp/acpLimits';
import { spawnAgent } from '../../../../src/core/agents/acp/connection/agentProcess';
import type { AgentTransport } from '../../../../src/core/agents/acp/connection/agentTransport';
import { serveScriptedAgent } from './fixtures/scriptedAgentScript.mjs';
import { inProcessAgent, type InProcessChannel } from './inProcessAgent';

export const FIXTURE = join(__dirname, 'fixtures', 'scriptedAgent.mjs');

/**
 * The scripted agent in the test's own process for every profile that runs FIXTURE; any other
 * profile (a real agent, a script that dies at start) is spawned as in production. `channels`
 * lists the in-process agents started, so a test sees restarts without pids.
 */
export function scriptedInProcess(): AgentTransport & { channels: InProcessChannel[]; store: Map<string, unknown> } {
  // The agent's saved sessions survive its restarts, as a real agent's on-disk sessions do.
  const store = new Map<string, unknown>();
  const inProcess = inProcessAgent((peer) =>
    serveScriptedAgent(peer.stream, {
      store,
      env: peer.launch.env,
      args: peer.launch.args.slice(1),
      writeRaw: peer.writeRaw,
      crash(code, stderr) {
        peer.writeStderr(stderr);
        peer.exit(code);
      },
      spawnChild: () => {
        throw new Error('an in-process agent has no process tree: use createAgents({ spawn: true })');
      },
    }),
  );
  return Object.assign((launch: Parameters<AgentTransport>[0]) => (launch.args[0] === FIXTURE ? inProcess(launch) : spawnAgent(launch)), { channels: inProcess.channels, store });
}

/** A profile that runs the scripted agent with this very node. */
export function fixtureProfile(extra: Partial<AcpAgentProfile> = {}): AcpAgentProfile {
  return { command: process.execPath, args: [FIXTURE], ...extra };
}

export const FAST_LIMITS: Partial<AcpLimits> = { sessionIdleMs: 60_000, streamingIdleMs: 30_000, startTimeoutMs: 15_000, cancelGraceMs: 2_000, probeTimeoutMs: 2_000 };

/** Records `level message` lines (trace left out), sub-loggers' lines included with their prefix. */
export class RecordingLog implements Logger {
  readonly lines: string[] = [];
  private readonly log = sinkLogger((level, message) => {
    if (level !== 'trace') this.lines.push(`${level} ${message}`);
  });
  readonly error = this.log.error;
  readonly warn = this.log.warn;
  readonly info = this.log.info;
  readonly debug = this.log.debug;
  readonly trace = this.log.trace;
  readonly child = this.log.child;
}

/** A surface that answers permission prompts with a script and records what it was asked. */
export class ScriptedHost implements AgentSessionHost {
  readonly asked: PermissionRequest[] = [];
  constructor(public answer: (request: PermissionRequest, signal: AbortSignal) => Promise<PermissionOutcome> | PermissionOutcome = () => ({ outcome: 'cancelled' })) {}
  async requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionOutcome> {
    this.asked.push(request);
    return this.answer(request, signal);
  }
}

/**
 * External agents as production builds them. The scripted agent runs in process unless `spawn` is
 * set: tests whose subject is the process (crash, stderr, process-group kill) spawn it.
 */
export function createAgents(overrides: { profiles?: Record<string, AcpAgentProfile>; limits?: Partial<AcpLimits>; acp?: Record<string, unknown>; spawn?: boolean } & Partial<AcpAgentsOptions> = {}) {
  const log = new RecordingLog();
  const { spawn, ...options } = overrides;
  const transport = scriptedInProcess();
  const config = AcpSchema.parse({ enable_discovery: false, ...overrides.acp, agents: overrides.profiles ?? { scripted: fixtureProfile() } });
  const agents = new AcpAgents({
    config, confirmDestructive: true, log, env: { ...process.env }, clientVersion: '0.0.0-test', ...(spawn ? {} : { transport }), ...options, limits: { ...FAST_LIMITS, ...overrides.limits },
  });
  return { agents, log, channels: transport.channels, store: transport.store };
}

export async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

export function textOf(events: AgentEvent[]): string {
  return events.map((event) => (event.type === 'text' ? event.text : '')).join('');
}

export async function tempWorkspace(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'hearth-acp-')));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Running, and not a zombie waiting for a parent (in containers PID 1 may reap slowly). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

export async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}
