// Types of setup.mjs for the TypeScript tests (harness.ts picks its editor from the same table).
export interface EditorSpec {
  codeServer: string;
  vscode: string;
  node: string | undefined;
  dir: string;
}
export interface EditorPaths extends EditorSpec {
  nodeDir: string | undefined;
  nodeBin: string | undefined;
  bin: string;
  marker: string;
}
export type EditorName = '1.100' | '1.139';
export const EDITORS: Record<EditorName, EditorSpec>;
export const NEWEST_EDITOR: EditorName;
export const CODE_SERVER_VERSION: string;
export function selectedEditors(value?: string): EditorName[];
export function editorPaths(editor: string): EditorPaths;
export function codeServerInstalled(editor?: string): boolean;
export function ensureCodeServer(options?: { editor?: string; quiet?: boolean }): string;
export class CodeServerInstallError extends Error {
  readonly code: 'setup.platform' | 'setup.node_unavailable' | 'setup.ripgrep_missing' | 'setup.npm_install_failed' | 'setup.rebuild_failed' | 'setup.not_runnable';
  readonly remedy: string;
  constructor(code: CodeServerInstallError['code'], message: string, remedy: string, options?: { cause?: unknown });
}
export function installFailureLine(error: unknown, editor: string): string;
