/**
 * What an agent may ask of an AcpSession while its connection is up: its updates (the session's
 * controls first, a loaded session's replay, else events of the running turn), permission, files
 * and the terminal. The session's state is reached through the accessors it passes.
 */
import { describeError, errorCode } from '../../../errors';
import type { Logger } from '../../../host';
import type { AgentEvent } from '../../agentSession';
import { AcpError } from '../acpErrors';
import type { ClientSide } from '../connection/agentConnection';
import type { AgentRequests } from '../requests/agentRequests';
import type { AgentTerminals } from '../requests/agentTerminals';
import type { EventChannel } from './eventChannel';
import type { ReplayCollector } from './replayCollector';
import type { SessionControls } from './sessionControls';
import type { StreamingWatchdog } from './streamingWatchdog';
import { updateToEvents, type ToolCallTracker } from '../requests/updateEvents';

export interface ClientSideDeps {
  agentName: string;
  log: Logger;
  turn(): { channel: EventChannel<AgentEvent>; watchdog: StreamingWatchdog } | undefined;
  /** The open connection's session id; undefined while it opens. */
  connectedSessionId(): string | undefined;
  controls: SessionControls;
  replay(): ReplayCollector | undefined;
  tools: ToolCallTracker;
  requests: AgentRequests;
  terminals: AgentTerminals;
}

export function clientSideFor(deps: ClientSideDeps): ClientSide {
  const { log, requests } = deps;
  return {
    onActivity: () => {
      deps.turn()?.watchdog.touch();
    },
    onOversized: (limit) => {
      const error = new AcpError('acp.message_too_large', `Agent "${deps.agentName}" sent a message over the ${Math.round(limit / 1024 / 1024) || limit} ${limit >= 1024 * 1024 ? 'MB' : 'byte'} limit; it was refused.`, 'Raise [acp].max_message_size_mb if such messages are expected.');
      log.error(error.message);
      deps.turn()?.channel.push(errorEvent(error));
    },
    onUpdate: (params) => {
      const connected = deps.connectedSessionId();
      if (connected !== undefined && params.sessionId !== connected) {
        log.debug(`update for another session ignored`);
        return;
      }
      const update = params.update;
      if (typeof update === 'object' && update !== null && !Array.isArray(update)) {
        const record = update as Record<string, unknown>;
        if (deps.controls.applyUpdate(record)) return;
        // While session/load runs, the agent replays the conversation: it is history, not a turn.
        const replay = deps.replay();
        if (connected === undefined && replay) return replay.add(record);
      }
      const result = updateToEvents(params.update, deps.tools);
      if ('invalid' in result) {
        log.warn(`skipped an invalid session/update (${result.invalid})`);
        return;
      }
      for (const event of result.events) deps.turn()?.channel.push(event);
    },
    requestPermission: (params, signal) => requests.requestPermission(params, signal),
    readTextFile: (params) => requests.readTextFile(params),
    writeTextFile: (params, signal) => requests.writeTextFile(params, signal),
    terminals: deps.terminals,
  };
}

export function errorEvent(error: unknown): AgentEvent {
  if (error instanceof AcpError) return { type: 'error', code: error.code, message: error.message, ...(error.remedy ? { remedy: error.remedy } : {}) };
  return { type: 'error', code: errorCode(error, 'acp.prompt_failed'), message: describeError(error) };
}
