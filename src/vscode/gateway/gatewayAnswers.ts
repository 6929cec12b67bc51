/**
 * The editor's answers to an upstream's elicitation and sampling when Hearth's own chat or agents
 * are the caller (no MCP client to relay to): input boxes and quick picks naming the server, and a
 * modal showing the prompt before it runs through the active provider. Parsing, bounds and checks
 * live in core (gateway/hostAnswers); this file only draws.
 */
import * as vscode from 'vscode';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { LlmRuntime } from '../../core/llm/llmRuntime';
import { fieldTextProblem, fieldValueFromText, type ElicitForm, type FieldValue, type FormField } from '../../core/gateway/hostAnswers/elicitForm';
import type { FormAnswer, HostAnswers } from '../../core/gateway/hostAnswers/hostPeer';
import { runSampling } from '../../core/gateway/hostAnswers/samplingRequest';

/** Escape on any field: the whole form is dismissed. */
const DISMISSED = Symbol('dismissed');

export function editorGatewayAnswers(llm: () => LlmRuntime | undefined): HostAnswers {
  return {
    async elicit(form, signal) {
      const choice = await vscode.window.showInformationMessage(`The tool server "${form.server}" asks for input`, { modal: true, detail: form.message }, 'Answer', 'Decline');
      if (choice === 'Decline') return { action: 'decline' };
      if (choice !== 'Answer' || signal.aborted) return { action: 'cancel' };
      const cancel = tokenFor(signal);
      try {
        const content: Record<string, FieldValue | undefined> = {};
        for (const [index, field] of form.fields.entries()) {
          const value = await askField(form, field, `${form.server}: ${field.title} (${index + 1}/${form.fields.length})`, cancel.token);
          if (value === DISMISSED || signal.aborted) return { action: 'cancel' } satisfies FormAnswer;
          content[field.name] = value;
        }
        return { action: 'accept', content };
      } finally {
        cancel.dispose();
      }
    },
    async sample(request, signal) {
      const runtime = llm();
      if (!runtime) throw new McpError(ErrorCode.InternalError, `sampling/createMessage from upstream "${request.server}": no chat model is set up in Hearth`);
      const provider = runtime.provider();
      const model = provider.settings.model ?? provider.settings.name;
      const choice = await vscode.window.showWarningMessage(
        `The tool server "${request.server}" asks to run this prompt through ${model}`,
        { modal: true, detail: `${request.shown}\n\n(at most ${request.maxTokens} tokens)` },
        'Run',
      );
      if (choice !== 'Run' || signal.aborted) return undefined;
      return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Hearth: answering "${request.server}" with ${model}`, cancellable: true }, (_progress, token) => {
        const abort = new AbortController();
        const onAbort = () => abort.abort();
        signal.addEventListener('abort', onAbort, { once: true });
        const listener = token.onCancellationRequested(onAbort);
        return runSampling(provider, request, abort.signal).finally(() => (listener.dispose(), signal.removeEventListener('abort', onAbort)));
      });
    },
  };
}

/** The upstream withdrawing its question closes whatever is open. */
function tokenFor(signal: AbortSignal): vscode.CancellationTokenSource {
  const source = new vscode.CancellationTokenSource();
  signal.addEventListener('abort', () => source.cancel(), { once: true });
  return source;
}

async function askField(form: ElicitForm, field: FormField, title: string, token: vscode.CancellationToken): Promise<FieldValue | undefined | typeof DISMISSED> {
  const placeHolder = field.description ?? form.message;
  const skip = field.required ? [] : [{ label: '$(dash) Leave empty', value: undefined }];
  switch (field.kind) {
    case 'boolean': {
      const items = [{ label: 'Yes', value: true as boolean | undefined }, { label: 'No', value: false as boolean | undefined }, ...skip];
      if (field.default === false) items.reverse();
      const picked = await vscode.window.showQuickPick(items, { title, placeHolder, ignoreFocusOut: true }, token);
      return picked ? picked.value : DISMISSED;
    }
    case 'choice': {
      const items: { label: string; description?: string; value: string | undefined }[] = [...field.options.map((option) => ({ label: option.label, description: option.value === field.default ? 'default' : undefined, value: option.value })), ...skip];
      const picked = await vscode.window.showQuickPick(items, { title, placeHolder, ignoreFocusOut: true }, token);
      return picked ? picked.value : DISMISSED;
    }
    case 'choices': {
      const items = field.options.map((option) => ({ label: option.label, value: option.value, picked: field.default?.includes(option.value) }));
      const picked = await vscode.window.showQuickPick(items, { title, placeHolder, ignoreFocusOut: true, canPickMany: true }, token);
      return picked ? picked.map((item) => item.value) : DISMISSED;
    }
    default: {
      const text = await vscode.window.showInputBox(
        { title, prompt: placeHolder, value: field.default === undefined ? '' : String(field.default), ignoreFocusOut: true, validateInput: (value) => fieldTextProblem(field, value) },
        token,
      );
      if (text === undefined) return DISMISSED;
      return text === '' && !field.required ? undefined : fieldValueFromText(field, text);
    }
  }
}
