/**
 * What the "Hearth" status bar item shows, computed from the loaded config. Free of the `vscode`
 * import so the rules (which provider, which model, when to warn) are unit-tested; statusBar.ts only
 * copies the result onto the item.
 */
import type { ConfigProblem, ConfigSource } from '../../core/config/problem';
import type { HearthConfig } from '../../core/config/schema';
import { activeProvider, type ActiveProvider } from '../../core/llm/activeProvider';

/** Opens the Problems view: where a click on the warning state leads. */
export const SHOW_PROBLEMS_COMMAND = 'workbench.actions.view.problems';
/** Where a click on the normal state leads: the model switcher (modelSwitcher.ts). */
export const SWITCH_MODEL_COMMAND = 'hearth.switchModel';

export interface StatusInput {
  config: HearthConfig;
  sources: Record<string, ConfigSource>;
  problems: readonly ConfigProblem[];
  /** The session's selection (ModelSelection.current()); the configuration's active provider when unset. */
  selected?: ActiveProvider;
  /** Whether the selected provider answered its last model listing, for the tooltip. */
  providerState?: { ok: boolean; detail: string };
}

export interface StatusPresentation {
  /** With codicons: `$(flame) provider/model` or `$(warning) Hearth: N config problem(s)`. */
  text: string;
  /** Plain-text tooltip (lines joined with \n). */
  tooltip: string;
  /** True when the config has errors: the item takes the warning background. */
  warning: boolean;
  command: string;
}

const MAX_TOOLTIP_PROBLEMS = 5;

export function statusPresentation(input: StatusInput): StatusPresentation {
  const configured = activeProvider(input.config, input.sources);
  const active = input.selected ?? configured;
  const overridden = active.name !== configured.name || active.model !== configured.model;
  // The implicit provider is called "chat" internally; its type says more to a user.
  const label = active.implicit ? active.type : active.name;
  const providerText = active.model ? `${label}/${active.model}` : label;
  const providerLines = [
    `Hearth: ${providerText}`,
    `Provider: ${active.name}${active.implicit ? ' ([chat])' : ''} (${active.type})`,
    `Endpoint: ${active.endpoint ?? '(none)'}`,
    ...(input.providerState ? [`State: ${input.providerState.ok ? '' : 'unavailable — '}${input.providerState.detail}`] : []),
    ...(overridden ? [`Switched for this session (configured: ${configured.implicit ? configured.type : configured.name}/${configured.model ?? ''})`] : []),
  ];

  const errors = input.problems.filter((p) => p.severity === 'error');
  const warnings = input.problems.length - errors.length;
  if (errors.length > 0) {
    const listed = errors.slice(0, MAX_TOOLTIP_PROBLEMS).map((p) => `• ${p.keyPath ? `${p.keyPath}: ` : ''}${p.message}`);
    if (errors.length > MAX_TOOLTIP_PROBLEMS) listed.push(`• … and ${errors.length - MAX_TOOLTIP_PROBLEMS} more`);
    return {
      text: `$(warning) Hearth: ${errors.length} config problem${errors.length === 1 ? '' : 's'}`,
      tooltip: ['The Hearth configuration has errors (click to open the Problems view):', ...listed, '', ...providerLines].join('\n'),
      warning: true,
      command: SHOW_PROBLEMS_COMMAND,
    };
  }
  const warningLine = warnings > 0 ? [`${warnings} config warning${warnings === 1 ? '' : 's'} in the Problems view`] : [];
  return {
    text: `$(flame) ${providerText}`,
    tooltip: [...providerLines, ...warningLine, '', 'Click to switch the model'].join('\n'),
    warning: false,
    command: SWITCH_MODEL_COMMAND,
  };
}
