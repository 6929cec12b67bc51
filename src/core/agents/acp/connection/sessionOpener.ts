/**
 * Which ACP session a connection talks to. Asked to continue an earlier one, it tries
 * `session/resume` (the agent keeps the context), else `session/load` (the agent replays the history
 * as updates), else starts a new session and says why, so the surface can send Hearth's recap.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { AgentSessionInfo } from '../../agentControls';
import { AcpError } from '../acpErrors';
import { rpcErrorText } from './rpcErrorText';

export interface OpenedSession {
  sessionId: string;
  how: 'new' | 'resumed' | 'loaded';
  reason?: string;
  /** The agent's answer (modes, configOptions, models) for the session's controls. */
  response: unknown;
}

export interface OpenRequest {
  agentName: string;
  cwd: string;
  mcpServers: acp.McpServer[];
  /** An earlier session of this agent to continue. */
  resume?: string;
}

export async function openSession(connection: acp.ClientConnection, capabilities: acp.AgentCapabilities | undefined, request: OpenRequest): Promise<OpenedSession> {
  const { cwd, mcpServers, resume, agentName } = request;
  let reason: string | undefined;
  if (resume) {
    if (capabilities?.sessionCapabilities?.resume) {
      try {
        const response = await connection.agent.request(acp.methods.agent.session.resume, { sessionId: resume, cwd, mcpServers });
        return { sessionId: resume, how: 'resumed', response };
      } catch (error) {
        reason = `session/resume failed: ${rpcErrorText(error)}`;
      }
    }
    if (!reason && capabilities?.loadSession) {
      try {
        const response = await connection.agent.request(acp.methods.agent.session.load, { sessionId: resume, cwd, mcpServers });
        return { sessionId: resume, how: 'loaded', response };
      } catch (error) {
        reason = `session/load failed: ${rpcErrorText(error)}`;
      }
    }
    reason ??= `"${agentName}" offers neither session/resume nor session/load`;
  }
  const response = await connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers });
  return { sessionId: response.sessionId, how: 'new', ...(reason ? { reason } : {}), response };
}

/** Pages of session/list are followed up to this many sessions (an agent with years of history). */
export const MAX_LISTED_SESSIONS = 500;

export async function listSessions(connection: acp.ClientConnection, capabilities: acp.AgentCapabilities | undefined, agentName: string, cwd: string): Promise<AgentSessionInfo[]> {
  if (!capabilities?.sessionCapabilities?.list) throw new AcpError('acp.unsupported', `Agent "${agentName}" does not list its sessions (no session/list).`);
  const sessions: AgentSessionInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50 && sessions.length < MAX_LISTED_SESSIONS; page++) {
    const response = await connection.agent.request(acp.methods.agent.session.list, { cwd, ...(cursor ? { cursor } : {}) });
    for (const info of Array.isArray(response?.sessions) ? response.sessions : []) {
      if (sessions.length >= MAX_LISTED_SESSIONS) break;
      if (typeof info?.sessionId !== 'string' || typeof info.cwd !== 'string') continue;
      sessions.push({ sessionId: info.sessionId, cwd: info.cwd, ...(typeof info.title === 'string' ? { title: info.title.slice(0, 200) } : {}), ...(typeof info.updatedAt === 'string' ? { updatedAt: info.updatedAt } : {}) });
    }
    cursor = typeof response?.nextCursor === 'string' && response.nextCursor ? response.nextCursor : undefined;
    if (!cursor) break;
  }
  return sessions;
}
