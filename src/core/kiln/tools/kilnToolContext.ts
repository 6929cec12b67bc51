/**
 * The kiln tools' context built from the effective config, in one place: the CLI (`hearth gateway`,
 * `hearth tools`, `hearth ask --agent`) and the editor (gateway, chat agents) all call this, so the
 * confinement, protection, journal and limits the tools run under can never differ between hosts.
 */
import { openChangeJournal } from '../../changes/changeJournal';
import type { ChangeReviewer } from '../../changes/changeReview';
import type { HearthConfig } from '../../config/schema';
import { ConfinedRoot } from '../../fs/confinedRoot';
import { kilnProtection } from '../../fs/kilnProtection';
import type { Host } from '../../host';
import type { KilnToolContext, SemanticSearchFn } from './kilnTool';
import { kilnWriteGate } from './kilnWriteGate';
import { TeamLinks } from '../links/teamLinks';

export function kilnToolContext(
  config: HearthConfig,
  host: Pick<Host, 'log' | 'confirm' | 'confirmProtected'> & Partial<Pick<Host, 'secrets'>>,
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
    teamLinks: teamLinksFor(config, host, root),
  };
}

/**
 * With `store = "postgres"`, the team database's links (DESIGN.md decision 23): opened for each
 * answer and closed after it; its code (the `pg` driver) loads only then.
 */
export function teamLinksFor(config: HearthConfig, host: Pick<Host, 'log'> & Partial<Pick<Host, 'secrets'>>, kilnRoot: string): TeamLinks | undefined {
  const { processing } = config;
  if (processing.store !== 'postgres') return undefined;
  return new TeamLinks(async () => {
    const [{ postgresOptions }, { PostgresLinks }] = await Promise.all([import('../../index/store/postgresOptions'), import('../../index/store/postgresLinks')]);
    const { url, kilnId } = await postgresOptions({ kilnRoot, processing, embedderDeps: { env: process.env, secrets: host.secrets }, log: host.log }, '');
    return new PostgresLinks(url, kilnId, (message) => host.log.warn(message));
  });
}
