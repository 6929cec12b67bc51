import type { WorkspaceEdits } from '../../../changes/workspaceEdits';
import type { Logger } from '../../../host';
import type { ProtectedPathRules } from '../../../fs/protectedPaths';
import type { AgentDescriptor, AgentSessionHost } from '../../agentSession';
import type { AcpLimits } from '../acpLimits';
import type { AgentTransport } from '../connection/agentTransport';
import type { GatewayOffer } from '../connection/gatewayOffer';

/** What an AcpSession is given: the agent to start, where, with which limits, and the host's hooks. */
export interface AcpSessionOptions {
  descriptor: AgentDescriptor;
  command: string;
  args: string[];
  /** The complete environment of the agent process. */
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Where attachment paths that are not absolute resolve (kiln-relative ones: the kiln); cwd when unset. */
  attachmentRoot?: string;
  host: AgentSessionHost;
  log: Logger;
  limits: AcpLimits;
  /** `[cli].confirm_destructive`: overwriting a file asks the user first. */
  confirmDestructive: boolean;
  /** Configured protected paths (rules files, agent_directories); the built-in ones always apply. */
  protection?: Omit<ProtectedPathRules, 'root'>;
  /** Review and journal of the agent's writes ([chat].review_edits, the kiln's change journal). */
  edits?: WorkspaceEdits;
  gateway?: GatewayOffer;
  clientVersion: string;
  onDisposed?: () => void;
  /** How the agent is started (see AgentTransport); a process unless injected. */
  transport?: AgentTransport;
  /** The agent's session to continue (a conversation reopened after a reload). */
  resume?: string;
  /** Option choices remembered for this agent (option id → value), applied when a session opens. */
  preferences?: Record<string, string | boolean>;
  /** Whether the folder is trusted now (commands run only then); absent: trusted (agents start only in trusted folders). */
  trusted?: () => boolean;
  /** Keys given at sign-in are registered here before anything could log them. */
  redactor?: { add(secret: string): void };
  /** Keeps a key the user gave when signing in (the editor's secret storage), so it is asked once. */
  rememberKey?(variable: string, key: string): Promise<void>;
  /** Forgets the kept keys (on logout). */
  forgetKeys?(): Promise<void>;
}
