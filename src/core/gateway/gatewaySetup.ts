import { openChangeJournal } from '../changes/changeJournal';
import type { ChangeReviewer } from '../changes/changeReview';
import type { HearthConfig } from '../config/schema';
import { ConfinedRoot } from '../fs/confinedRoot';
import { kilnProtection } from '../fs/kilnProtection';
import { kilnWriteGate } from '../kiln/tools/kilnTools';
import { resolveSecret } from '../config/resolveSecret';
import type { Host } from '../host';
import type { KilnToolContext, SemanticSearchFn } from '../kiln/tools/kilnTool';
import { Gateway, type GatewayOptions } from './gateway';

/**
 * Wires a Gateway and the kiln tool context from the effective config and a host. Shared by the
 * CLI (`hearth gateway`, `hearth tools`) and the editor so both build the same thing.
 */
export function createGateway(host: Pick<Host, 'log' | 'secrets'>, env: NodeJS.ProcessEnv, options: Partial<GatewayOptions> = {}): Gateway {
  const { redactor } = options;
  return new Gateway({
    log: host.log,
    env,
    resolveSecret: (value) => resolveSecret(value, { env, secrets: host.secrets, redactor }),
    ...options,
  });
}

export function kilnToolContext(
  config: HearthConfig,
  host: Pick<Host, 'log' | 'confirm' | 'confirmProtected'>,
  kilnRoot: string,
  semanticSearch?: SemanticSearchFn,
  reviewer?: ChangeReviewer,
): KilnToolContext {
  const root = config.kiln_path ?? kilnRoot;
  const files = new ConfinedRoot(root);
  const protection = kilnProtection(config, { kilnRoot: root, workspaceRoot: kilnRoot });
  return {
    kilnRoot: root,
    host,
    files,
    protection,
    gate: kilnWriteGate({ kilnRoot: root, host, protection }, files),
    reviewer,
    reviewEdits: config.chat.review_edits,
    journal: openChangeJournal(files, config.changes, host.log).journal,
    confirmDestructive: config.cli.confirm_destructive,
    semanticSearch,
    exclude: config.processing.exclude,
    maxFileSizeKb: config.processing.max_file_size_kb,
  };
}
