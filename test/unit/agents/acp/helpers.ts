import { readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AcpSchema, type AcpAgentProfile } from '../../../../src/core/config/schema';
import type { Logger } from '../../../../src/core/host';
import type { AgentEvent, AgentSessionHost, PermissionOutcome, PermissionRequest } from '../../../../src/core/agents/agentSession';
import { AcpAgents, type AcpAgentsOptions } from '../../../../src/core/agents/acp/acpAgents';
import type { AcpLimits } from '../../../../src/core/agents/acp/acpLimits';

export const FIXTURE = join(__dirname, 'fixtures', 'scriptedAgent.mjs');

/** A profile that runs the scripted agent with this very node. */
export function fixtureProfile(extra: Partial<AcpAgentProfile> = {}): AcpAgentProfile {
  return { command: process.execPath, args: [FIXTURE], ...extra };
}

export const FAST_LIMITS: Partial<AcpLimits> = { sessionIdleMs: 60_000, streamingIdleMs: 30_000, startTimeoutMs: 15_000, cancelGraceMs: 2_000, probeTimeoutMs: 2_000 };

export class RecordingLog implements Logger {
  readonly lines: string[] = [];
  error(message: string) {
    this.lines.push(`error ${message}`);
  }
  warn(message: string) {
    this.lines.push(`warn ${message}`);
  }
  info(message: string) {
    this.lines.push(`info ${message}`);
  }
  debug(message: string) {
    this.lines.push(`debug ${message}`);
  }
  trace() {}
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

export function createAgents(overrides: { profiles?: Record<string, AcpAgentProfile>; limits?: Partial<AcpLimits>; acp?: Record<string, unknown> } & Partial<AcpAgentsOptions> = {}) {
  const log = new RecordingLog();
  const config = AcpSchema.parse({ enable_discovery: false, ...overrides.acp, agents: overrides.profiles ?? { scripted: fixtureProfile() } });
  const agents = new AcpAgents({ config, confirmDestructive: true, log, env: { ...process.env }, clientVersion: '0.0.0-test', ...overrides, limits: { ...FAST_LIMITS, ...overrides.limits } });
  return { agents, log };
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
