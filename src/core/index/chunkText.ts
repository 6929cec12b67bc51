import { lazyCrypto } from '../lazyCrypto';
import type { ChunkRecord } from './store/vectorStore';

/** What the embedder sees of a chunk: the note title and heading path give a section its context. */
export function embeddingTextOf(title: string, headingPath: readonly string[], text: string): string {
  const context = [title, ...headingPath.filter((h) => h !== title)].join(' > ');
  return `${context}\n\n${text}`;
}

/** The key of a chunk's vector in a shared store: the hash of exactly what the embedder saw. */
export function chunkTextHash(chunk: Pick<ChunkRecord, 'title' | 'headingPath' | 'text'>): string {
  return textHash(embeddingTextOf(chunk.title, chunk.headingPath, chunk.text));
}

export function textHash(text: string): string {
  return lazyCrypto().createHash('sha256').update(text).digest('hex');
}
