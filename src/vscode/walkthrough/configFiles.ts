/**
 * Which config files are in use, in words, for "Check Configuration" (the walkthrough's first step):
 * the global file is wherever this editor's environment puts it (HEARTH_CONFIG_DIR under `npm start`,
 * the user config folder elsewhere), so the walkthrough names the path rather than a fixed one.
 * Free of `vscode`, so the wording is unit-tested.
 */
export interface ConfigFilesInUse {
  global: string;
  globalExists: boolean;
  /** Undefined without a workspace folder. */
  workspace?: string;
  workspaceExists?: boolean;
}

export function describeConfigFiles(files: ConfigFilesInUse): string {
  const global = `Global config: ${files.global}${files.globalExists ? '' : ' (not created yet; "Hearth: Open Global Config" creates it)'}, the file the hearth CLI reads too.`;
  if (files.workspace === undefined) return global;
  return `${global} Workspace config: ${files.workspace}${files.workspaceExists ? ' (wins key by key)' : ' (none: the global config and the defaults apply)'}.`;
}
