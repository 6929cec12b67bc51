import type { Logger } from '../../../host';
import type { AgentEvent, AgentStopReason, PromptAttachment } from '../../agentSession';
import { AcpError } from '../acpErrors';
import type { AcpLimits } from '../acpLimits';
import type { AgentConnection } from '../connection/agentConnection';
import { rpcErrorText } from '../connection/rpcErrorText';
import { errorEvent } from './acpClientSide';
import type { EventChannel } from './eventChannel';
import { promptBlocks } from './promptBlocks';
import type { StreamingWatchdog } from './streamingWatchdog';
import { stopReasonOf } from '../requests/updateEvents';

/** One `session/prompt` of an AcpSession, from the user's message to its `done` event. */
export interface Turn {
  /** Groups the turn's file writes in the change journal. */
  id: string;
  channel: EventChannel<AgentEvent>;
  /** Aborted when the turn ends for any reason: open permission prompts close with it. */
  controller: AbortController;
  watchdog: StreamingWatchdog;
  /** Settles when the agent is done with the turn (after a cancel, possibly after its reader left). */
  finished?: Promise<void>;
}

/** What a turn needs of its session. */
export interface TurnContext {
  agentName: string;
  limits: AcpLimits;
  /** Where attachment paths that are not absolute resolve. */
  attachmentRoot: string;
  log: Logger;
  connection(): Promise<AgentConnection>;
  /** Forgets a connection whose process died or ignored a cancel, so the next message starts the agent again. */
  dropConnection(conn: AgentConnection): void;
  /** Ends the commands the agent runs through Hearth (terminal/*). */
  killTerminals(): void;
}

/**
 * Sends the message and pushes the turn's end onto its channel: the agent's answer, its process
 * dying, the user's cancel or the streaming time-out. Never throws; every outcome ends in `done`.
 */
export async function runTurn(turn: Turn, text: string, attachments: PromptAttachment[], signal: AbortSignal | undefined, context: TurnContext): Promise<void> {
  const { agentName, limits } = context;
  const push = (event: AgentEvent) => turn.channel.push(event);
  const finish = (stopReason: AgentStopReason) => {
    turn.watchdog.stop();
    turn.controller.abort();
    push({ type: 'done', stopReason });
    turn.channel.end();
  };
  let conn: AgentConnection;
  try {
    conn = await context.connection();
  } catch (error) {
    push(errorEvent(error));
    return finish('error');
  }
  if (turn.channel.isEnded) return finish('cancelled');
  const stop = new Promise<'aborted' | 'timeout'>((resolveStop) => {
    if (signal?.aborted) resolveStop('aborted');
    signal?.addEventListener('abort', () => resolveStop('aborted'), { once: true });
    turn.controller.signal.addEventListener('abort', () => resolveStop('aborted'), { once: true });
    turn.watchdog.onTimeout = () => resolveStop('timeout');
  });
  turn.watchdog.touch();
  const embedded = conn.agentCapabilities?.promptCapabilities?.embeddedContext === true;
  const response = conn.prompt(promptBlocks(text, attachments, embedded, context.attachmentRoot));
  const outcome = await Promise.race([
    response.then((value) => ({ kind: 'response' as const, value }), (error: unknown) => ({ kind: 'failed' as const, error })),
    conn.process.exit.then(() => ({ kind: 'exited' as const })),
    stop.then((kind) => ({ kind })),
  ]);
  if (outcome.kind === 'response') return finish(stopReasonOf(outcome.value.stopReason));
  if (outcome.kind === 'failed' || outcome.kind === 'exited') {
    // A request fails when the connection closes, so look at the process before blaming the agent.
    const exited = conn.exited || (await Promise.race([conn.process.exit.then(() => true), delay(100).then(() => false)]));
    if (exited) {
      context.dropConnection(conn);
      const stderr = conn.process.stderr ? `: ${conn.process.stderr.slice(-500)}` : '';
      push(errorEvent(new AcpError('acp.agent_exited', `Agent "${agentName}" stopped in the middle of its answer${stderr}`, 'Send the message again to restart the agent.')));
    } else {
      const error = (outcome as { error?: unknown }).error;
      push(errorEvent(new AcpError('acp.prompt_failed', `Agent "${agentName}" failed: ${rpcErrorText(error)}`)));
    }
    return finish('error');
  }
  if (outcome.kind === 'timeout') {
    const minutes = limits.streamingIdleMs / 60_000;
    push(errorEvent(new AcpError('acp.streaming_timeout', `Agent "${agentName}" sent nothing for ${minutes >= 1 ? `${minutes} min` : `${limits.streamingIdleMs} ms`}; the turn was cancelled.`, 'Raise [acp].streaming_timeout_minutes if the agent needs longer.')));
  }
  // Cancelled by the user or the time-out: the commands it runs end now; ask the agent to stop and give it a moment to say so.
  context.killTerminals();
  turn.controller.abort();
  conn.cancel();
  const settled = await Promise.race([response.then(() => true, () => true), delay(limits.cancelGraceMs).then(() => false)]);
  if (!settled) {
    context.log.warn(`the agent ignored session/cancel; restarting it on the next message`);
    context.dropConnection(conn);
    void conn.close(200);
  }
  finish('cancelled');
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms).unref?.());
}
