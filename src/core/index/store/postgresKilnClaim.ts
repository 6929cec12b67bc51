import type { PoolClient } from 'pg';
import { HearthError, isHearthError } from '../../errors';

/**
 * Asks the user whether this folder may take over a kiln id another folder already uses (the
 * editor: the Host's confirm). Without it (the CLI), a warning is written and the run goes on.
 */
export type ConfirmKilnClaim = (question: string, detail: string) => Promise<boolean>;

/** The user declined: this folder's notes do not replace the rows of the folder that claimed the id. */
export class KilnClaimedError extends HearthError {
  constructor(kilnId: string, others: readonly string[]) {
    super(
      'index.kiln_claimed',
      `Kiln id "${kilnId}" belongs to ${others.join(', ')} in the shared database; nothing was replaced. ` +
        'Give this kiln its own [processing].kiln_id, or allow the takeover when asked.',
    );
  }
}

/**
 * Records that `root` (host and real path of a kiln) writes under `kilnId`, before its first write.
 * A root already recorded goes on at once; the first root of an id claims it silently (so does the
 * first after the claims table was added: rows of an older Hearth had no claimant). Another root
 * is a clone of the same repository, a second machine, or a folder that took someone else's id
 * (a copied config, a forged remote): its rows would replace the claimant's for everyone, so the
 * user is warned and, where someone can be asked, asked first.
 */
export async function claimKiln(
  client: PoolClient,
  kilnId: string,
  root: string,
  options: { warn: (message: string) => void; confirm?: ConfirmKilnClaim },
): Promise<void> {
  const rows = await client.query<{ root: string; claimed_at: Date }>('SELECT root, claimed_at FROM hearth_kilns WHERE kiln = $1 ORDER BY claimed_at', [kilnId]);
  if (rows.rows.some((row) => row.root === root)) return;
  const others = rows.rows.map((row) => row.root);
  if (others.length > 0) {
    const since = rows.rows[0].claimed_at instanceof Date ? ` (since ${rows.rows[0].claimed_at.toISOString().slice(0, 10)})` : '';
    const question = `Kiln id "${kilnId}" is already used by another folder: ${others.join(', ')}${since}. Replace its notes in the shared database with this folder's?`;
    const detail =
      `Indexing ${root} under this id replaces the other folder's rows for everyone who searches them. ` +
      'Two clones of one repository share an id on purpose; anything else wants its own [processing].kiln_id.';
    options.warn(`kiln id "${kilnId}" is already used by ${others.join(', ')}${since}; indexing ${root} replaces its rows.`);
    if (options.confirm && !(await options.confirm(question, detail))) throw new KilnClaimedError(kilnId, others);
  }
  await client.query('INSERT INTO hearth_kilns (kiln, root) VALUES ($1, $2) ON CONFLICT DO NOTHING', [kilnId, root]);
}

/**
 * One store's claim, settled once: a refusal stays refused (nobody is asked on every save); a
 * database that was unreachable is asked again next time.
 */
export class ClaimOnce {
  private settled?: Promise<void>;

  settle(claim: () => Promise<void>): Promise<void> {
    this.settled ??= claim().catch((error: unknown) => {
      if (!isHearthError(error) || error.code !== 'index.kiln_claimed') this.settled = undefined;
      throw error;
    });
    return this.settled;
  }
}
