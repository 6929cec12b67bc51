import type { HistoryMessage } from '../agentSession';
import type { TranscriptStore } from '../transcripts';

/** A recorded conversation as chat history (prompts and the agent's text), for a resumed or loaded `hearth acp` session. */
export async function historyFromTranscript(transcripts: TranscriptStore | undefined, id: string): Promise<{ history: HistoryMessage[]; agent?: string } | undefined> {
  if (!transcripts) return undefined;
  let entries;
  try {
    entries = await transcripts.read(id);
  } catch {
    return undefined;
  }
  const history: HistoryMessage[] = [];
  let agent: string | undefined;
  for (const entry of entries) {
    if (entry.type === 'session') agent = entry.agent.kind === 'internal' ? entry.agent.name : undefined;
    else if (entry.type === 'prompt') history.push({ role: 'user', text: entry.text }, { role: 'assistant', text: '' });
    else if (entry.event.type === 'text' && history.length) history[history.length - 1]!.text += entry.event.text;
  }
  return { history: history.filter((m, i) => m.role === 'user' || m.text || (history[i - 1]?.role === 'user' && (m.text = '(no answer)'))), ...(agent ? { agent } : {}) };
}
