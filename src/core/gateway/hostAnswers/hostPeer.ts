import { ErrorCode, McpError, type ElicitRequestFormParams, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayPeer } from '../clientRelay';
import { checkFormAnswer, elicitForm, type ElicitForm, type FieldValue } from './elicitForm';
import { createMessageResult, sampleRequest, type SampleAnswer, type SampleRequest } from './samplingRequest';

/** The user's answer to a form: filled in (the values typed per field), declined, or dismissed. */
export type FormAnswer = { action: 'accept'; content: Record<string, FieldValue | undefined> } | { action: 'decline' } | { action: 'cancel' };

/**
 * What a host with a user in front of it (the editor) answers itself when an upstream asks while
 * Hearth is the one calling it: there is no MCP client to relay to.
 */
export interface HostAnswers {
  /** Asks the user to fill in the form, naming the server. */
  elicit(form: ElicitForm, signal: AbortSignal): Promise<FormAnswer>;
  /** Shows the prompt; runs it through the active provider once approved; undefined when the user refused. */
  sample(request: SampleRequest, signal: AbortSignal): Promise<SampleAnswer | undefined>;
}

/** JSON-RPC code the MCP specification names for "user rejected sampling request". */
export const USER_REJECTED = -1;

/**
 * The host as one more gateway peer: it never has a call of its own running on an upstream
 * through a session, so a session that is calling the upstream is asked first; otherwise the host
 * answers. URL-mode elicitation is declined here (the editor would open a page it cannot vouch for).
 */
export function hostPeer(answers: HostAnswers): GatewayPeer {
  return {
    canElicit: () => true,
    canSample: () => true,
    canListRoots: () => false,
    busyWith: () => false,
    async elicit(upstream, params, signal): Promise<ElicitResult> {
      if (params.mode === 'url') return { action: 'decline' };
      const form = elicitForm(upstream, params as ElicitRequestFormParams);
      const answer = await answers.elicit(form, signal);
      if (answer.action !== 'accept') return { action: answer.action };
      return { action: 'accept', content: checkFormAnswer(form, answer.content) };
    },
    async sample(upstream, params, signal) {
      if (params.tools?.length) throw new McpError(ErrorCode.InvalidParams, `sampling/createMessage from upstream "${upstream}": tool use in sampling is not supported by the editor`);
      const answer = await answers.sample(sampleRequest(upstream, params), signal);
      if (!answer) throw new McpError(USER_REJECTED, `sampling/createMessage from upstream "${upstream}": user rejected sampling request`);
      return createMessageResult(answer);
    },
    listRoots: () => Promise.reject(new McpError(ErrorCode.MethodNotFound, 'roots/list: the editor answers it through its MCP sessions')),
    log: () => {},
  };
}
