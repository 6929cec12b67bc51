/**
 * When the chat's provider does not answer (issue 29), the error box offers what fits this machine,
 * found by the host: start the local runner when it is installed (install it when not), switch to
 * a configured provider that does answer, use a model the editor already has (`vscode.lm`, any
 * vendor), or set the key of a hosted provider that lacks one. Decided here, without the editor;
 * the host gathers the facts and carries out the chosen action.
 */

/** What the webview shows: a button per choice. */
export interface ProviderChoice {
  id: string;
  label: string;
  /** The button's tooltip. */
  detail?: string;
}

/** The errors that mean "the provider did not answer". */
export const UNANSWERED_CODES: ReadonlySet<string> = new Set(['llm.unreachable', 'llm.timeout']);

export interface UnansweredFacts {
  /** The provider chat used. */
  active: { name: string; type: string; endpoint?: string };
  /** For a local runner: whether its program is installed here (on PATH); undefined when not looked for. */
  runnerInstalled?: boolean;
  /** Other configured providers that answered, as the `provider/model` to switch to. */
  answering: readonly string[];
  /** The editor's chat models (any vendor but Hearth's), by the id the editor provider gives them. */
  editorModels: readonly { id: string; name: string; vendor: string }[];
  /** A configured provider of type `githubcopilot` (the editor's models), if any. */
  editorProvider?: string;
  /** Configured hosted providers without a key. */
  keyless: readonly string[];
}

export type ChoiceAction =
  | { kind: 'startRunner' }
  | { kind: 'installRunner' }
  | { kind: 'switch'; id: string }
  /** Switch to an editor model; `provider` absent: add a `githubcopilot` provider to the user config first. */
  | { kind: 'editorModel'; model: string; provider?: string }
  | { kind: 'setKey'; provider: string };

export interface PlannedChoice {
  choice: ProviderChoice;
  action: ChoiceAction;
}

const MAX_SWITCHES = 2;
const MAX_EDITOR_MODELS = 3;

export function unansweredChoices(facts: UnansweredFacts): PlannedChoice[] {
  const planned: PlannedChoice[] = [];
  if (facts.active.type === 'local_runner' && facts.runnerInstalled !== undefined) {
    planned.push(
      facts.runnerInstalled
        ? { choice: { id: 'runner.start', label: 'Start the local runner', detail: `Runs \`ollama serve\` in a terminal; chat then uses ${facts.active.endpoint ?? 'its default endpoint'}` }, action: { kind: 'startRunner' } }
        : { choice: { id: 'runner.install', label: 'Install the local runner', detail: 'The local runner (Ollama) is not installed here: opens its download page' }, action: { kind: 'installRunner' } },
    );
  }
  for (const id of facts.answering.slice(0, MAX_SWITCHES)) {
    planned.push({ choice: { id: `switch:${id}`, label: `Use ${id}`, detail: 'A configured provider that answers' }, action: { kind: 'switch', id } });
  }
  for (const model of facts.editorModels.slice(0, MAX_EDITOR_MODELS)) {
    const detail = facts.editorProvider
      ? `A model the editor has (${model.vendor}), through the provider "${facts.editorProvider}"`
      : `A model the editor has (${model.vendor}); adds a githubcopilot provider (the editor's models) to your user config`;
    planned.push({
      choice: { id: `editor:${model.id}`, label: `Use ${model.name} (${model.vendor})`, detail },
      action: { kind: 'editorModel', model: model.id, ...(facts.editorProvider ? { provider: facts.editorProvider } : {}) },
    });
  }
  for (const provider of facts.keyless) {
    planned.push({ choice: { id: `key:${provider}`, label: `Set API Key for ${provider}`, detail: 'Hearth: Set API Key, then chat switches to it' }, action: { kind: 'setKey', provider } });
  }
  return planned;
}
