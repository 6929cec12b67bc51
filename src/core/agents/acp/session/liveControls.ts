import { describeError } from '../../../errors';
import type { Logger } from '../../../host';
import { acceptsValue, type AgentControls, type AgentControlsView } from '../../agentControls';
import { AcpError } from '../acpErrors';
import type { AgentConnection } from '../connection/agentConnection';
import { rpcErrorText } from '../connection/rpcErrorText';
import { SessionControls } from './sessionControls';

/**
 * One ACP session's controls as a surface uses them: the agent's state (SessionControls) and the
 * requests that change it — `session/set_config_option`, or `set_mode` / `set_model` for agents
 * that offer only those. A value is checked against the option before anything is sent.
 */
export class LiveControls implements AgentControls {
  readonly state: SessionControls;
  readonly onDidChange;

  constructor(
    private readonly agentName: string,
    private readonly connection: () => Promise<AgentConnection>,
    private readonly log: Logger,
  ) {
    this.state = new SessionControls((message) => log.warn(message));
    this.onDidChange = this.state.onDidChange;
  }

  current(): AgentControlsView {
    return this.state.view();
  }

  async setOption(id: string, value: string | boolean): Promise<void> {
    const option = this.state.view().options.find((o) => o.id === id);
    const route = this.state.route(id);
    if (!option || !route) throw new AcpError('acp.option_refused', `Agent "${this.agentName}" has no option "${id}".`);
    if (!acceptsValue(option, value)) throw new AcpError('acp.option_refused', `"${String(value)}" is not a choice of ${option.name} for agent "${this.agentName}".`);
    const conn = await this.connection();
    try {
      if (route.method === 'session/set_config_option') {
        const params = typeof value === 'boolean' ? { configId: route.configId, type: 'boolean', value } : { configId: route.configId, value };
        this.state.applyResponse(await conn.request(route.method, params));
      } else {
        await conn.request(route.method, route.method === 'session/set_mode' ? { modeId: value } : { modelId: value });
        this.state.chose(route, value as string);
      }
    } catch (error) {
      throw new AcpError('acp.option_refused', `Agent "${this.agentName}" refused ${option.name} = ${String(value)}: ${rpcErrorText(error)}`, undefined, { cause: error });
    }
  }

  /** Remembered choices that still fit the agent's options, applied one by one; a refusal is logged, not fatal. */
  async restore(preferences: Record<string, string | boolean>): Promise<void> {
    for (const [id, value] of Object.entries(preferences)) {
      const option = this.state.view().options.find((o) => o.id === id);
      if (!option || option.value === value || !acceptsValue(option, value)) continue;
      await this.setOption(id, value).catch((error) => this.log.warn(`restoring ${id} = ${String(value)} failed: ${describeError(error)}`));
    }
  }

  dispose(): void {
    this.state.dispose();
  }
}
