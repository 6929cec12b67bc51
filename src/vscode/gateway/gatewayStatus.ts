import type { UpstreamStatus } from '../../core/gateway/gateway';

/** What clicking the status item runs (registered by gatewayCommands; the controller's item only names it). */
export const SHOW_TOOL_SERVERS_COMMAND = 'hearth.showToolServers';

export interface GatewayStatusPresentation {
  text: string;
  tooltip: string;
  /** True when some upstream is down (the item gets the warning colour). */
  warning: boolean;
}

/** How gateway health reads in the status bar; undefined (hidden) when no upstream is configured. Pure, for tests. */
export function gatewayStatusPresentation(statuses: readonly UpstreamStatus[]): GatewayStatusPresentation | undefined {
  if (statuses.length === 0) return undefined;
  const ready = statuses.filter((s) => s.state.kind === 'ready').length;
  const connecting = statuses.some((s) => s.state.kind === 'connecting');
  const down = statuses.filter((s) => s.state.kind === 'down');
  const icon = connecting ? '$(sync~spin)' : down.length > 0 ? '$(warning)' : '$(plug)';
  const lines = statuses.map((s) => `${s.name}: ${describeState(s)}`);
  return { text: `${icon} ${ready}/${statuses.length}`, tooltip: `Hearth tool servers\n${lines.join('\n')}`, warning: down.length > 0 };
}

export function describeState(status: UpstreamStatus): string {
  const state = status.state;
  switch (state.kind) {
    case 'ready':
      return `ready, ${state.toolCount} tool${state.toolCount === 1 ? '' : 's'}`;
    case 'connecting':
      return 'connecting…';
    case 'stopped':
      return 'stopped';
    case 'down': {
      const retry = state.nextRetryAt !== undefined ? `retry in ${Math.max(0, Math.ceil((state.nextRetryAt - Date.now()) / 1000))} s` : 'not retrying';
      return `down (${retry}): ${state.error}`;
    }
  }
}
