import type { ChunkRecord } from '../store/vectorStore';
import type { LexicalQuery } from './noteBm25Scoring';

/**
 * What a search asks of the in-process word side: the index in memory (NoteBm25, the editor's) or
 * the lexical file read by position (DiskLexicon, a cold `hearth search`). search/noteRanking's
 * LexicalRanker is this without `query`.
 */
export interface QueryLexicon {
  query(text: string): LexicalQuery;
  /** Relevance by path of the best `top` notes and of those of `alsoPaths` that match. */
  relevances(q: LexicalQuery, top: number, alsoPaths: Iterable<string>): Map<string, number>;
  sectionRelevance(q: LexicalQuery, chunk: ChunkRecord): number;
  /** The note's chunks when this side holds them (an index built from the store's chunks). */
  chunksOf(notePath: string): ChunkRecord[] | undefined;
}
