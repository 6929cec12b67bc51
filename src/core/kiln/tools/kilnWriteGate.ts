import type { ConfinedRoot } from '../../fs/confinedRoot';
import { ProtectedPaths } from '../../fs/protectedPaths';
import { WriteGate } from '../../fs/writeGate';
import type { KilnToolContext } from './kilnTool';

/** The kiln's write gate: protected paths from the context, asked through the host (refused where it cannot ask). */
export function kilnWriteGate(ctx: Pick<KilnToolContext, 'kilnRoot' | 'host' | 'protection'>, files: ConfinedRoot): WriteGate {
  const confirmProtected = ctx.host.confirmProtected?.bind(ctx.host);
  return new WriteGate({ files, protectedPaths: new ProtectedPaths({ root: ctx.kilnRoot, ...ctx.protection }), ...(confirmProtected ? { confirmProtected } : {}) });
}
