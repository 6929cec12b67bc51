/**
 * The BERT-style WordPiece tokenizer a `tokenizer.json` describes (BertNormalizer, BertPreTokenizer,
 * WordPiece model), as the Hugging Face tokenizers library applies it, written for speed: a vault's
 * chunks repeat the same few thousand words, so each word's pieces are looked up once and cached.
 * transformers.js's own tokenizer takes ~0.4 ms per chunk; this one is what lets a static model
 * embed over 1,000 chunks a second. `wordPieceOptions` says whether a tokenizer.json is of this kind.
 */
export interface WordPieceOptions {
  vocab: Map<string, number>;
  unkToken: string;
  prefix: string;
  maxInputCharsPerWord: number;
  cleanText: boolean;
  handleChineseChars: boolean;
  stripAccents: boolean;
  lowercase: boolean;
  /** Added tokens (`[CLS]`, `[MASK]`, …): matched in the raw text before anything else, as the tokenizers library does. */
  addedTokens: Map<string, number>;
}

/** The options of a tokenizer.json this tokenizer reproduces exactly, else undefined (another tokenizer is needed). */
export function wordPieceOptions(json: unknown): WordPieceOptions | undefined {
  const t = json as { normalizer?: Record<string, unknown> | null; pre_tokenizer?: { type?: string } | null; model?: Record<string, unknown> };
  const model = t?.model;
  if (!model || model.type !== 'WordPiece' || !model.vocab || typeof model.vocab !== 'object') return undefined;
  if (t.pre_tokenizer?.type !== 'BertPreTokenizer') return undefined;
  const n = t.normalizer;
  if (n && n.type !== 'BertNormalizer') return undefined;
  const lowercase = n ? n.lowercase !== false : false;
  const vocab = new Map<string, number>();
  for (const [token, id] of Object.entries(model.vocab as Record<string, unknown>)) if (typeof id === 'number') vocab.set(token, id);
  const added = (json as { added_tokens?: { id?: unknown; content?: unknown }[] }).added_tokens;
  const addedTokens = new Map<string, number>();
  for (const token of Array.isArray(added) ? added : []) if (typeof token.id === 'number' && typeof token.content === 'string' && token.content) addedTokens.set(token.content, token.id);
  return {
    addedTokens,
    vocab,
    unkToken: typeof model.unk_token === 'string' ? model.unk_token : '[UNK]',
    prefix: typeof model.continuing_subword_prefix === 'string' ? model.continuing_subword_prefix : '##',
    maxInputCharsPerWord: typeof model.max_input_chars_per_word === 'number' ? model.max_input_chars_per_word : 100,
    cleanText: n ? n.clean_text !== false : false,
    handleChineseChars: n ? n.handle_chinese_chars !== false : false,
    // null follows lowercase, as in BertNormalizer.
    stripAccents: n ? (typeof n.strip_accents === 'boolean' ? n.strip_accents : lowercase) : false,
    lowercase,
  };
}

// BERT's punctuation: every ASCII non-alphanumeric printable character, and Unicode's P categories.
const PRE_TOKEN = /[!-/:-@[-`{-~\p{P}]|[^\s!-/:-@[-`{-~\p{P}]+/gu;
const ASCII_PRE_TOKEN = /[!-/:-@[-`{-~]|[^\s!-/:-@[-`{-~]+/g;
const PLAIN_ASCII = /^[\x20-\x7e\t\n\r]*$/;
const CONTROL = /[\0\uFFFD]|(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}]/gu;
const WHITESPACE = /\p{White_Space}/gu;
const CJK = /[\u{4E00}-\u{9FFF}\u{3400}-\u{4DBF}\u{20000}-\u{2A6DF}\u{2A700}-\u{2B73F}\u{2B740}-\u{2B81F}\u{2B920}-\u{2CEAF}\u{F900}-\u{FAFF}\u{2F800}-\u{2FA1F}]/gu;
const MARKS = /\p{Mn}/gu;
/** Words cached before the cache starts over (a bound on memory for a kiln of endless distinct words). */
const CACHE_LIMIT = 200_000;

export class WordPieceTokenizer {
  readonly unkId: number;
  private readonly cache = new Map<string, number[]>();
  private readonly added?: RegExp;

  constructor(private readonly options: WordPieceOptions) {
    this.unkId = options.vocab.get(options.unkToken) ?? -1;
    const added = [...options.addedTokens.keys()].sort((a, b) => b.length - a.length);
    if (added.length > 0) this.added = new RegExp(added.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  }

  /**
   * The token ids of `text`, without special tokens; unknown words are left out when `dropUnknown`
   * (a static model has no use for them), and at most `maxTokens` are returned.
   */
  encode(text: string, maxTokens = Infinity, dropUnknown = false): number[] {
    const out: number[] = [];
    if (this.added) {
      this.added.lastIndex = 0;
      let at = 0;
      for (let m = this.added.exec(text); m !== null && out.length < maxTokens; m = this.added.exec(text)) {
        this.encodeText(text.slice(at, m.index), out, maxTokens, dropUnknown);
        const id = this.options.addedTokens.get(m[0])!;
        if (out.length < maxTokens && (!dropUnknown || id !== this.unkId)) out.push(id);
        at = m.index + m[0].length;
      }
      if (at > 0) {
        this.encodeText(text.slice(at), out, maxTokens, dropUnknown);
        return out;
      }
    }
    this.encodeText(text, out, maxTokens, dropUnknown);
    return out;
  }

  private encodeText(text: string, out: number[], maxTokens: number, dropUnknown: boolean): void {
    const ascii = PLAIN_ASCII.test(text);
    const normalized = ascii ? (this.options.lowercase ? text.toLowerCase() : text) : this.normalize(text);
    const pattern = ascii ? ASCII_PRE_TOKEN : PRE_TOKEN;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(normalized); m !== null && out.length < maxTokens; m = pattern.exec(normalized)) {
      const pieces = this.word(m[0]);
      for (let i = 0; i < pieces.length && out.length < maxTokens; i++) if (!dropUnknown || pieces[i] !== this.unkId) out.push(pieces[i]);
    }
  }

  private normalize(text: string): string {
    const o = this.options;
    let s = text;
    if (o.cleanText) s = s.replace(CONTROL, '').replace(WHITESPACE, ' ');
    if (o.handleChineseChars) s = s.replace(CJK, ' $& ');
    if (o.stripAccents) s = s.normalize('NFD').replace(MARKS, '');
    if (o.lowercase) s = s.toLowerCase();
    return s;
  }

  /** Greedy longest-match-first pieces of one word; a word with any unmatched part is one unknown token. */
  private word(word: string): number[] {
    const cached = this.cache.get(word);
    if (cached) return cached;
    const { vocab, prefix, maxInputCharsPerWord } = this.options;
    let pieces: number[] = [];
    if ([...word].length > maxInputCharsPerWord) pieces = [this.unkId];
    else {
      for (let start = 0; start < word.length; ) {
        let found = -1;
        let end = word.length;
        for (; end > start; end--) {
          const id = vocab.get(start > 0 ? prefix + word.slice(start, end) : word.slice(start, end));
          if (id !== undefined) {
            found = id;
            break;
          }
        }
        if (found < 0) {
          pieces = [this.unkId];
          break;
        }
        pieces.push(found);
        start = end;
      }
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(word, pieces);
    return pieces;
  }
}
