/**
 * Wires the agent catalog for a host (the editor and the CLI build the same thing): cards from the
 * configured directories, internal sessions on the host's LlmRuntime with the kiln tools and the
 * gateway, the ACP side when the host has one, transcripts under the host's storage directory.
 */
import { join } from 'node:path';
import type { HearthConfig } from '../config/schema';
import type { Logger } from '../host';
import type { KilnToolContext } from '../kiln/tools/kilnTool';
import type { LlmRuntime } from '../llm/llmRuntime';
import type { Redactor } from '../logging/redactor';
import { HearthAgentCatalog } from './agentCatalog';
import { cardDirectories, loadAgentCards, workspaceCardDirectories } from './agentCards';
import type { GatewayToolSource } from './agentTools';
import type { ExternalAgents } from './externalAgents';
import { TranscriptStore } from './transcripts';

export interface AgentSetupOptions {
  config: () => HearthConfig;
  runtime: LlmRuntime;
  kilnContext: KilnToolContext;
  gateway?: GatewayToolSource;
  external?: ExternalAgents;
  /** `<user config dir>/hearth` (globalConfigDir). */
  globalConfigDir: string;
  workspaceRoot: string;
  /** Where transcripts go: the editor's workspace storage, or `<workspace>/.hearth` in the CLI (see transcriptDir). */
  storageDir?: string;
  /** Why external agents may not run (an untrusted folder); see AgentCatalogOptions. */
  untrustedReason?: () => string | undefined;
  log: Logger;
  /** The host's redactor: transcripts are redacted before they are written. */
  redactor?: Redactor;
  maxSteps?: number;
}

/** `<storage>/transcripts`. */
export function transcriptDir(storageDir: string): string {
  return join(storageDir, 'transcripts');
}

export function createAgentCatalog(options: AgentSetupOptions): HearthAgentCatalog {
  const { config, log } = options;
  const loadCards = () =>
    loadAgentCards(
      cardDirectories({
        globalConfigDir: options.globalConfigDir,
        agentDirectories: config().agent_directories,
        workspaceRoot: options.workspaceRoot,
        kilnRoot: options.kilnContext.kilnRoot,
      }),
      workspaceCardDirectories(options.kilnContext.kilnRoot),
    );
  return new HearthAgentCatalog({
    config,
    loadCards,
    // The agent loop and the kiln tools (note parsing, YAML) load with the first internal session.
    startInternal: async (card, start) =>
      (await import('./internal/internalAgents')).startInternalAgent(card, start, { runtime: options.runtime, config, kilnContext: options.kilnContext, gateway: options.gateway, log, maxSteps: options.maxSteps }),
    external: options.external,
    untrustedReason: options.untrustedReason,
    transcripts: options.storageDir ? new TranscriptStore(transcriptDir(options.storageDir), log, options.redactor) : undefined,
    log,
  });
}
