/**
 * `confirm_destructive` for internal agents: a writing tool asks the surface first, with the same
 * options an ACP agent would offer. Only an explicit allow runs the tool; a reject, an unknown
 * option, a time-out or a closed prompt (`cancelled`) are all denials.
 */
import type { Logger } from '../../host';
import type { ToolCall } from '../../llm/types';
import { describeError } from '../../errors';
import type { AgentSessionHost, PermissionOption, PermissionRequest } from '../agentSession';
import type { AgentTool } from '../agentTools';

export const PERMISSION_OPTIONS: readonly PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow in this conversation', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Deny', kind: 'reject_once' },
];

export type PermissionAnswer = 'once' | 'always' | 'denied';

export function permissionRequest(tool: AgentTool, call: ToolCall): PermissionRequest {
  return {
    toolCallId: call.id,
    title: `Allow ${tool.title ?? tool.name}?`,
    detail: JSON.stringify(call.arguments, null, 2),
    options: [...PERMISSION_OPTIONS],
  };
}

export async function askPermission(
  host: AgentSessionHost,
  tool: AgentTool,
  call: ToolCall,
  signal: AbortSignal,
  log: Logger,
): Promise<PermissionAnswer> {
  try {
    const outcome = await host.requestPermission(permissionRequest(tool, call), signal);
    if (outcome.outcome !== 'selected') return 'denied';
    const option = PERMISSION_OPTIONS.find((o) => o.optionId === outcome.optionId);
    if (option?.kind === 'allow_once') return 'once';
    if (option?.kind === 'allow_always') return 'always';
    return 'denied';
  } catch (error) {
    log.child('agents').warn(`permission prompt for ${tool.name} failed, treated as a denial: ${describeError(error)}`);
    return 'denied';
  }
}
