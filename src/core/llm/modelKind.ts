/**
 * Whether a listed model chats or only embeds. Runners and OpenAI-compatible servers list both in
 * one list; an embedding model picked for chat fails with an error that points nowhere near the
 * cause, so pickers leave them out and `hearth models --json` marks them (`kind`).
 */
export type ModelKind = 'chat' | 'embedding';

/** BERT-style families the local runner reports for its embedding models. */
const EMBEDDING_FAMILIES = new Set(['bert', 'nomic-bert', 'xlm-roberta', 'jina-bert-v2', 'new', 'gte', 'e5']);

/** By the backend's family where it reports one, else by the name (`*embed*`, `bge-*`, `e5-*`, `gte-*`, MiniLM). */
export function modelKind(id: string, family?: string): ModelKind {
  if (family && EMBEDDING_FAMILIES.has(family.toLowerCase())) return 'embedding';
  const name = id.toLowerCase().split('/').pop() ?? '';
  return /embed|(^|[-_:])(bge|e5|gte)([-_:.]|$)|minilm|mpnet/.test(name) ? 'embedding' : 'chat';
}
