/**
 * Registers the kiln tools as VS Code language model tools (`hearth_<tool>`, DESIGN.md decision
 * 22) — the ones package.json contributes (VS Code refuses a tool it was not told of). Each call
 * builds on the kiln tool context of the moment (the config as loaded now), so it runs through the
 * same write gate, protected paths, diff review and change journal as the internal agents' calls;
 * every call is a turn of its own in the journal (client `vscode`), undone as one by "Undo Last
 * Agent Change". Writing tools ask in `prepareInvocation` before they run.
 */
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../core/host';
import { hasLanguageModelToolApi } from '../api/editorContributions';
import { callFromEditor, describeInvocation, kilnToolOf } from '../../core/kiln/tools/editorTools';
import type { KilnTool } from '../../core/kiln/tools/kilnTool';

export interface KilnLanguageModelToolsDeps {
  /** The kiln tools of the current config and kiln; undefined when no kiln is open. */
  tools(): Promise<KilnTool[] | undefined>;
  /** The tool names package.json contributes (`hearth_…`). */
  contributed: readonly string[];
  log: Logger;
}

export function registerKilnLanguageModelTools(deps: KilnLanguageModelToolsDeps): vscode.Disposable[] {
  if (!hasLanguageModelToolApi()) return [];
  const log = deps.log.child('tools');
  const find = async (name: string): Promise<KilnTool> => {
    const tools = await deps.tools();
    if (!tools) throw new Error('Hearth: no kiln is open (open a folder, or set kiln_path in .hearth/config.toml).');
    const tool = tools.find((t) => t.name === kilnToolOf(name));
    if (!tool) throw new Error(`Hearth: the tool ${name} is not available in this version.`);
    return tool;
  };
  return deps.contributed.map((name) =>
    vscode.lm.registerTool<unknown>(name, {
      async prepareInvocation(options) {
        const text = describeInvocation(await find(name), options.input);
        return {
          invocationMessage: text.invocation,
          ...(text.confirm ? { confirmationMessages: { title: text.confirm.title, message: new vscode.MarkdownString(text.confirm.message) } } : {}),
        };
      },
      async invoke(options, token) {
        const tool = await find(name);
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        try {
          const result = await callFromEditor(tool, options.input, abort.signal, { turn: `vscode-${randomUUID()}`, client: 'vscode' });
          if (result.isError) log.info(`${name} refused: ${result.text}`);
          // A refusal is the model's to read and correct, as with the internal agents.
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.isError ? `Error: ${result.text}` : result.text)]);
        } finally {
          cancel.dispose();
        }
      },
    }),
  );
}
