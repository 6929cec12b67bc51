/**
 * `hearth acp`: Hearth's internal agents (the built-in `kiln` and the cards) served over ACP to any
 * client (Zed, JetBrains, another Hearth). Each ACP session is one internal agent session, recorded
 * as a Hearth transcript whose id is the session id, so `session/list`, `load` and `resume` work
 * from the transcripts. Modes: `ask` (read-only: writes refused) and `edit` (each write asked of the
 * client); the agent and the model are config options; tool calls, plans and text stream as updates.
 */
import * as acp from '@agentclientprotocol/sdk';
import { describeError } from '../../errors';
import type { Logger } from '../../host';
import type { AgentCatalog, AgentEvent, AgentSession, HistoryMessage, PermissionOutcome, PermissionRequest, PromptAttachment } from '../agentSession';
import { RecordedSession, type TranscriptStore } from '../transcripts';
import type { ClientReviewer } from './clientReviewer';
import { eventToUpdate, historyUpdates, stopReasonFor } from './eventUpdates';
import { ClientFiles } from './clientFiles';
import { connectClientMcpServers, type ClientMcpTools } from './clientMcpServers';
import { historyFromTranscript } from './transcriptHistory';

export interface HearthAcpDeps {
  catalog: AgentCatalog;
  transcripts?: TranscriptStore;
  reviewer: ClientReviewer;
  /** Hearth's configured chat models (`provider/model`) and the active one. */
  models(): Promise<string[]>;
  currentModel(): string;
  version: string;
  log: Logger;
  /** The environment a stdio MCP server of the client inherits (before the client's own variables). */
  env?: NodeJS.ProcessEnv;
  /** The kiln's folder: with a client that offers `fs/*`, its notes are read and written through the client. */
  kilnRoot?: string;
}

const MODES: acp.SessionMode[] = [
  { id: 'ask', name: 'Ask', description: 'Read-only: the kiln tools read and search; every write is refused.' },
  { id: 'edit', name: 'Edit', description: 'The kiln tools may change notes; each change is asked first.' },
];

interface ServedSession {
  id: string;
  cwd: string;
  agent: string;
  model: string;
  mode: 'ask' | 'edit';
  history: HistoryMessage[];
  inner?: AgentSession;
  turn?: AbortController;
  /** The client's own MCP servers for this session (session/new's `mcpServers`). */
  mcp?: ClientMcpTools;
}

/** close(): every served session ends (its turn, its internal session, the client's MCP servers it started). */
export function serveHearthAcp(stream: acp.Stream, deps: HearthAcpDeps): { close(): Promise<void> } {
  const sessions = new Map<string, ServedSession>();
  // What the client said it can do at initialize: `fs` decides whether notes go through it.
  let clientFs: acp.FileSystemCapabilities | undefined;
  const log = deps.log.child('acp-server');

  async function configOptions(session: ServedSession): Promise<acp.SessionConfigOption[]> {
    const agents = (await deps.catalog.list()).filter((a) => a.kind === 'internal' && a.available);
    const models = await deps.models().catch(() => [session.model]);
    return [
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: session.mode, options: MODES.map((m) => ({ value: m.id, name: m.name, description: m.description ?? null })) },
      { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: session.model, options: [...new Set([session.model, ...models])].slice(0, 200).map((id) => ({ value: id, name: id })) },
      { id: 'agent', name: 'Agent', type: 'select', currentValue: session.agent, options: agents.map((a) => ({ value: a.name, name: a.name, description: a.description ?? null })) },
    ];
  }

  async function state(session: ServedSession) {
    return { modes: { currentModeId: session.mode, availableModes: MODES }, configOptions: await configOptions(session) };
  }

  async function innerSession(session: ServedSession, client: acp.AgentContext): Promise<AgentSession> {
    if (session.inner) return session.inner;
    session.inner = await deps.catalog.start(session.agent, {
      cwd: session.cwd,
      model: session.model,
      ...(session.history.length ? { history: session.history } : {}),
      // The ask mode offers the model only read-only tools; the reviewer still refuses any write.
      readOnly: () => session.mode === 'ask',
      extraTools: () => session.mcp?.tools() ?? [],
      ...(deps.kilnRoot && (clientFs?.readTextFile || clientFs?.writeTextFile) ? { kilnFiles: clientFiles(deps.kilnRoot, session, client) } : {}),
      host: { requestPermission: (request, signal) => askClient(client, session.id, request, signal) },
    });
    return session.inner;
  }

  async function open(params: { cwd: string; sessionId?: string; mcpServers?: acp.McpServer[] }, client: acp.AgentContext): Promise<ServedSession> {
    // Only Hearth's own agents are served: a default that is an external agent gives way to the first internal one.
    const internal = (await deps.catalog.list()).filter((a) => a.kind === 'internal' && a.available).map((a) => a.name);
    const preferred = await deps.catalog.defaultAgent();
    const agent = internal.includes(preferred) ? preferred : (internal[0] ?? preferred);
    const session: ServedSession = { id: params.sessionId ?? '', cwd: params.cwd, agent, model: deps.currentModel(), mode: 'edit', history: [] };
    if (params.sessionId) {
      const earlier = await historyFromTranscript(deps.transcripts, params.sessionId);
      if (!earlier) throw acp.RequestError.resourceNotFound(params.sessionId);
      session.history = earlier.history;
      if (earlier.agent) session.agent = earlier.agent;
    }
    session.mcp = await connectClientMcpServers(params.mcpServers, { cwd: params.cwd, env: deps.env ?? {}, log });
    const inner = await innerSession(session, client).catch(async (error) => {
      await session.mcp?.close();
      throw error;
    });
    session.id ||= inner instanceof RecordedSession ? inner.transcriptId : inner.id;
    sessions.set(session.id, session);
    return session;
  }

  function clientFiles(kilnRoot: string, session: ServedSession, client: acp.AgentContext): ClientFiles {
    const sessionId = () => session.id;
    return new ClientFiles(kilnRoot, {
      ...(clientFs?.readTextFile ? { readTextFile: async (path: string) => (await client.request<acp.ReadTextFileResponse>('fs/read_text_file', { sessionId: sessionId(), path })).content } : {}),
      ...(clientFs?.writeTextFile ? { writeTextFile: async (path: string, content: string) => void (await client.request('fs/write_text_file', { sessionId: sessionId(), path, content })) } : {}),
    }, log);
  }

  const requireSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw acp.RequestError.resourceNotFound(id);
    return session;
  };

  const restart = async (session: ServedSession) => {
    // The agent or model changed: the next turn starts a fresh internal session seeded with the conversation.
    await session.inner?.dispose();
    session.inner = undefined;
  };

  acp
    .agent({ name: 'hearth' })
    .onRequest('initialize', ({ params }) => ((clientFs = params.clientCapabilities?.fs), {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { embeddedContext: true },
        // The client's own MCP servers are connected over each transport (clientMcpServers.ts).
        mcpCapabilities: { http: true, sse: true },
        sessionCapabilities: { list: {}, resume: {}, close: {} },
      },
      agentInfo: { name: 'hearth', title: 'Hearth', version: deps.version },
      authMethods: [],
    }))
    .onRequest('session/new', async ({ params, client }) => {
      const session = await open({ cwd: params.cwd, mcpServers: params.mcpServers }, client);
      return { sessionId: session.id, ...(await state(session)) };
    })
    .onRequest('session/resume', async ({ params, client }) => {
      const session = sessions.get(params.sessionId) ?? (await open({ cwd: params.cwd, sessionId: params.sessionId, mcpServers: params.mcpServers ?? [] }, client));
      return state(session);
    })
    .onRequest('session/load', async ({ params, client }) => {
      const session = sessions.get(params.sessionId) ?? (await open({ cwd: params.cwd, sessionId: params.sessionId, mcpServers: params.mcpServers }, client));
      for (const update of historyUpdates(session.history)) await client.notify('session/update', { sessionId: session.id, update });
      return state(session);
    })
    .onRequest('session/list', async ({ params }) => {
      const all = (await deps.transcripts?.list()) ?? [];
      const mine = all.filter((t) => t.kind === 'internal' && (!params.cwd || t.cwd === params.cwd)).slice(0, 500);
      return { sessions: mine.map((t) => ({ sessionId: t.id, cwd: t.cwd, title: t.title, updatedAt: t.updatedAt })) };
    })
    .onRequest('session/close', async ({ params }) => {
      const session = sessions.get(params.sessionId);
      session?.turn?.abort();
      await session?.inner?.dispose();
      await session?.mcp?.close();
      sessions.delete(params.sessionId);
      return {};
    })
    .onRequest('session/set_mode', async ({ params }) => {
      const session = requireSession(params.sessionId);
      if (params.modeId !== 'ask' && params.modeId !== 'edit') throw acp.RequestError.invalidParams(undefined, `no mode "${params.modeId}" (ask, edit)`);
      session.mode = params.modeId;
      return {};
    })
    .onRequest('session/set_config_option', async ({ params }) => {
      const session = requireSession(params.sessionId);
      const value = params.value;
      const options = await configOptions(session);
      const option = options.find((o) => o.id === params.configId);
      if (!option || option.type !== 'select' || typeof value !== 'string' || !(option.options as acp.SessionConfigSelectOption[]).some((o) => o.value === value)) {
        throw acp.RequestError.invalidParams(undefined, `no value "${String(value)}" for "${params.configId}"`);
      }
      if (params.configId === 'mode') session.mode = value as 'ask' | 'edit';
      else if (params.configId === 'model' && session.model !== value) {
        session.model = value;
        await restart(session);
      } else if (params.configId === 'agent' && session.agent !== value) {
        session.agent = value;
        await restart(session);
      }
      return { configOptions: await configOptions(session) };
    })
    .onRequest('session/prompt', async ({ params, client }) => {
      const session = requireSession(params.sessionId);
      if (session.turn) throw acp.RequestError.invalidRequest(undefined, 'a turn is already running in this session');
      const { text, attachments } = promptOf(params.prompt);
      const controller = new AbortController();
      session.turn = controller;
      let stopReason: acp.StopReason = 'end_turn';
      let reply = '';
      try {
        const inner = await innerSession(session, client);
        await deps.reviewer.run({ mode: () => session.mode, ask: (proposal, signal) => askWrite(client, session.id, proposal.path, proposal.kind, signal) }, async () => {
          for await (const event of inner.prompt(text, attachments, controller.signal)) {
            if (event.type === 'done') stopReason = stopReasonFor(event.stopReason);
            if (event.type === 'text') reply += event.text;
            const update = eventToUpdate(event);
            if (update) await client.notify('session/update', { sessionId: session.id, update });
          }
        });
        session.history.push({ role: 'user', text }, { role: 'assistant', text: reply });
      } catch (error) {
        log.warn(`turn failed: ${describeError(error)}`);
        throw acp.RequestError.internalError(undefined, describeError(error));
      } finally {
        session.turn = undefined;
      }
      return { stopReason: controller.signal.aborted ? 'cancelled' : stopReason };
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.turn?.abort();
    })
    .connect(stream);

  return {
    async close() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map(async (session) => {
        session.turn?.abort();
        await session.inner?.dispose().catch(() => undefined);
        await session.mcp?.close();
      }));
    },
  };
}

async function askClient(client: acp.AgentContext, sessionId: string, request: PermissionRequest, signal: AbortSignal): Promise<PermissionOutcome> {
  const answer = await client.request<acp.RequestPermissionResponse>('session/request_permission', {
    sessionId,
    toolCall: { toolCallId: request.toolCallId, title: request.title, ...(request.detail ? { rawInput: request.detail } : {}) },
    options: request.options,
  }, { cancellationSignal: signal });
  return answer.outcome.outcome === 'selected' ? { outcome: 'selected', optionId: answer.outcome.optionId } : { outcome: 'cancelled' };
}

/** A note write asked of the client, naming the path; only an allow lets it through. */
async function askWrite(client: acp.AgentContext, sessionId: string, path: string, kind: string, signal?: AbortSignal): Promise<boolean> {
  const answer = await client.request('session/request_permission', {
    sessionId,
    toolCall: { toolCallId: `write:${path}`, title: `Hearth wants to ${kind} ${path}`, kind: kind === 'delete' ? 'delete' : 'edit', locations: [{ path }] },
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  }, signal ? { cancellationSignal: signal } : undefined);
  return answer.outcome.outcome === 'selected' && answer.outcome.optionId === 'allow';
}

/** The prompt's text, and embedded resources as attachments (links are named in the text). */
function promptOf(blocks: acp.ContentBlock[]): { text: string; attachments: PromptAttachment[] } {
  const parts: string[] = [];
  const attachments: PromptAttachment[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource_link') parts.push(`[${block.name}](${block.uri})`);
    else if (block.type === 'resource' && 'text' in block.resource) attachments.push({ path: block.resource.uri.replace(/^file:\/\//, ''), text: block.resource.text });
  }
  return { text: parts.join('\n'), attachments };
}

export type { AgentEvent };
