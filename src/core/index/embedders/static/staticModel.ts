import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EmbeddingError } from '../embedder';
import { readSafetensors } from './safetensors';
import { WordPieceTokenizer, wordPieceOptions } from './wordPiece';

/** Turns a text into token ids, unknown tokens left out, at most `maxTokens`. */
export interface TokenEncoder {
  encode(text: string, maxTokens: number): number[];
}

/** Tokens a text is cut to, as model2vec's `encode` does by default. */
const MAX_TOKENS = 512;

/**
 * A model2vec static embedding model: a token → vector table. A text's vector is the mean of its
 * tokens' rows (unknown tokens left out, at most 512 tokens, as model2vec does), scaled to unit
 * length (the stores compare vectors by dot product; model2vec normalizes too when its config says
 * `normalize: true`, which its released models do). A text without a known token has no direction:
 * its vector is all zeros and matches nothing.
 */
export class StaticModel {
  /** model2vec cuts the text to 512 × the vocabulary's median token length before tokenizing, so a huge text costs no more than a long one. */
  private readonly maxChars: number;

  constructor(
    private readonly table: Float32Array,
    readonly dim: number,
    private readonly encoder: TokenEncoder,
    medianTokenLength: number,
  ) {
    this.maxChars = MAX_TOKENS * Math.max(1, medianTokenLength);
  }

  embed(text: string): Float32Array {
    const ids = this.encoder.encode(text.length > this.maxChars ? text.slice(0, this.maxChars) : text, MAX_TOKENS);
    const out = new Float32Array(this.dim);
    const { table, dim } = this;
    for (const id of ids) {
      const row = id * dim;
      for (let j = 0; j < dim; j++) out[j] += table[row + j];
    }
    let sum = 0;
    for (let j = 0; j < dim; j++) sum += out[j] * out[j];
    if (sum > 0) {
      const scale = 1 / Math.sqrt(sum);
      for (let j = 0; j < dim; j++) out[j] *= scale;
    }
    return out;
  }
}

/**
 * Loads a model2vec folder: `tokenizer.json`, `model.safetensors` (an `embeddings` matrix, one row
 * per token) and optionally `config.json`. Anything broken is an `embedding.model_invalid` error
 * naming the file: a truncated file, a table whose rows disagree with the vocabulary, a NaN.
 */
export async function loadStaticModel(folder: string): Promise<StaticModel> {
  const tokenizerFile = join(folder, 'tokenizer.json');
  const tableFile = join(folder, 'model.safetensors');
  const tokenizerJson = await readJson(tokenizerFile);
  const tensors = readSafetensors(await readModelFile(tableFile), tableFile);
  const invalid = (why: string) => new EmbeddingError('embedding.model_invalid', `The embedding model in ${folder} cannot be used: ${why}. Fetch or copy the model again.`);
  for (const newer of ['mapping', 'weights']) {
    if (tensors.has(newer)) throw invalid(`${tableFile} holds a "${newer}" tensor (a newer model2vec format than Hearth reads)`);
  }
  const embeddings = tensors.get('embeddings');
  if (!embeddings) throw invalid(`${tableFile} has no "embeddings" tensor (it has ${[...tensors.keys()].join(', ') || 'none'})`);
  if (embeddings.shape.length !== 2 || !(embeddings.values instanceof Float32Array) || embeddings.shape[1] === 0) {
    throw invalid(`the "embeddings" tensor of ${tableFile} is ${embeddings.dtype} ${JSON.stringify(embeddings.shape)}, not a float matrix`);
  }
  const [rows, dim] = embeddings.shape;
  const tokens = vocabularyTokens(tokenizerJson);
  if (tokens.length !== rows) throw invalid(`${tokenizerFile} has ${tokens.length} tokens but ${tableFile} has ${rows} rows (a vocabulary/matrix size mismatch)`);
  const table = embeddings.values;
  for (let i = 0; i < table.length; i++) {
    if (!Number.isFinite(table[i])) throw invalid(`${tableFile} holds ${table[i]} in the row of token ${JSON.stringify(tokens[Math.floor(i / dim)])} (row ${Math.floor(i / dim)})`);
  }
  const encoder = await tokenEncoder(tokenizerJson, folder);
  const lengths = tokens.map((t) => [...t].length).sort((a, b) => a - b);
  return new StaticModel(table, dim, encoder, lengths[Math.floor(lengths.length / 2)] ?? 1);
}

async function readModelFile(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new EmbeddingError('embedding.model_missing', `The embedding model file ${file} cannot be read${code ? ` (${code})` : ''}; a model2vec model folder holds tokenizer.json and model.safetensors.`, undefined, { cause: error });
  }
}

async function readJson(file: string): Promise<unknown> {
  const bytes = await readModelFile(file);
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw new EmbeddingError('embedding.model_invalid', `The embedding model file ${file} is not valid JSON (${(error as Error).message}). Fetch or copy the model again.`, undefined, { cause: error });
  }
}

/** Every token of the vocabulary (its model's and the added ones), by id; a gap or a repeated id is refused. */
function vocabularyTokens(json: unknown): string[] {
  const t = json as { model?: { vocab?: unknown }; added_tokens?: { id?: unknown; content?: unknown }[] };
  const byId = new Map<number, string>();
  const vocab = t?.model?.vocab;
  if (Array.isArray(vocab)) vocab.forEach((entry, id) => byId.set(id, String(Array.isArray(entry) ? entry[0] : entry)));
  else if (vocab && typeof vocab === 'object') for (const [token, id] of Object.entries(vocab)) if (typeof id === 'number') byId.set(id, token);
  for (const added of Array.isArray(t?.added_tokens) ? t.added_tokens : []) if (typeof added.id === 'number') byId.set(added.id, String(added.content));
  const tokens: string[] = [];
  for (let id = 0; byId.has(id); id++) tokens.push(byId.get(id)!);
  // Ids past a gap would index rows the table may not have: counted, so the size check says so.
  return byId.size === tokens.length ? tokens : [...tokens, ...Array<string>(byId.size - tokens.length).fill('')];
}

/** The fast WordPiece tokenizer when the tokenizer.json is BERT-style; otherwise transformers.js's own (slower, any kind). */
async function tokenEncoder(json: unknown, folder: string): Promise<TokenEncoder> {
  const options = wordPieceOptions(json);
  if (options) {
    const tokenizer = new WordPieceTokenizer(options);
    return { encode: (text, maxTokens) => tokenizer.encode(text, maxTokens, true) };
  }
  const tf = await import('@huggingface/transformers');
  tf.env.allowLocalModels = true;
  tf.env.allowRemoteModels = false;
  tf.env.localModelPath = '';
  const tokenizer = await tf.AutoTokenizer.from_pretrained(folder);
  const model = (json as { model?: { unk_token?: string; unk_id?: number; vocab?: unknown } }).model;
  const vocab = model?.vocab && !Array.isArray(model.vocab) ? (model.vocab as Record<string, number>) : undefined;
  const unk = typeof model?.unk_id === 'number' ? model.unk_id : model?.unk_token !== undefined ? vocab?.[model.unk_token] : undefined;
  return {
    encode: (text, maxTokens) => (tokenizer.encode(text, { add_special_tokens: false }) as number[]).filter((id) => id !== unk).slice(0, maxTokens),
  };
}
