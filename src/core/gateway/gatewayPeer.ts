import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CreateMessageResultSchema, ElicitResultSchema, LoggingLevelSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';

/** A client answers roots/list from what it has open: a machine's answer, a machine's timeout. */
const ROOTS_TIMEOUT_MS = 10_000;
import type { GatewayPeer } from './clientRelay';

/** A person answers an elicitation: far longer than a machine's request timeout. */
export const ELICIT_TIMEOUT_MS = 10 * 60 * 1000;
/** Sampling waits on the user's approval and then a model. */
export const SAMPLE_TIMEOUT_MS = 5 * 60 * 1000;

const SEVERITY = new Map(LoggingLevelSchema.options.map((level, index) => [level, index]));

/**
 * One gateway session as upstreams see it. Requests go out as they came in (the params relayed
 * unchanged, the upstream's cancellation passed on as the signal); log messages are tagged with
 * the upstream's name and filtered by the level this session's client set.
 */
export function gatewayPeer(server: Server, busy: Map<string, number>): GatewayPeer & { setLevel(level: LoggingLevel): void } {
  let level: LoggingLevel | undefined;
  const connected = () => server.transport !== undefined && server.getClientCapabilities() !== undefined;
  return {
    setLevel: (next) => void (level = next),
    canElicit: () => connected() && !!server.getClientCapabilities()?.elicitation,
    canSample: () => connected() && !!server.getClientCapabilities()?.sampling,
    canListRoots: () => connected() && !!server.getClientCapabilities()?.roots,
    listRoots: (_upstream, signal) => server.listRoots(undefined, { signal, timeout: ROOTS_TIMEOUT_MS }),
    busyWith: (upstream) => (busy.get(upstream) ?? 0) > 0,
    elicit: (_upstream, params, signal) => server.request({ method: 'elicitation/create', params }, ElicitResultSchema, { signal, timeout: ELICIT_TIMEOUT_MS }),
    sample: (_upstream, params, signal) => server.request({ method: 'sampling/createMessage', params }, CreateMessageResultSchema, { signal, timeout: SAMPLE_TIMEOUT_MS }),
    log(upstream, params) {
      if (!connected()) return;
      if (level && (SEVERITY.get(params.level) ?? 0) < (SEVERITY.get(level) ?? 0)) return;
      const logger = params.logger ? `${upstream}/${params.logger}` : upstream;
      server.sendLoggingMessage({ ...params, logger }).catch(() => {});
    },
  };
}
