// Types of chunker.js: the original's names and JSON shapes, every call a Promise.
// Offsets and spans are JavaScript string indices (UTF-16 code units); sizes count
// characters as Python does (code points: an emoji is one).

/** Where something sits in a text: `text.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}

/** What `onProgress` hears as loading goes, stages in this order, each entered once, with a
 * `fraction` that never falls: `download` (repeated as the bytes of the runtime, its standard
 * library and the memory snapshot arrive), `compile`, then `restore` (Python's memory put back
 * as the snapshot holds it, chunker imported) or `boot` (Python starts, where no snapshot
 * could be had), `unpack` (chunker's files), `import` (after `boot` only), and `ready` last,
 * with `fraction` 1. A stage may be skipped when the one after it starts first; a `restore`
 * that fails goes on with `boot` (and the stages after it). Later, the first call that counts
 * tokens loads the tokenizer: `tokenizer`, fraction 0 then 1. */
export interface LoadProgress {
  stage:
    | 'download'
    | 'compile'
    | 'boot'
    | 'restore'
    | 'unpack'
    | 'import'
    | 'ready'
    | 'tokenizer';
  fraction?: number;
  message: string;
}

export interface LoadOptions {
  /** The folder holding worker.js, bundle.js, pyodide/ and wheels/ (default: beside
   * chunker.js, which is wrong once a bundler has bundled it: see chunker-web-copy). A
   * relative URL resolves against the page's address. */
  baseUrl?: string | URL;
  onProgress?: (progress: LoadProgress) => void;
  /** Reject if the worker is not ready by then (default 60000). */
  timeoutMs?: number;
}

/**
 * Start Python in a module worker and answer the API once it is ready. Bad input to any call
 * rejects with a `RangeError` (Python's `ValueError`) or `TypeError`, whose message is
 * Python's and whose `field`, when set, names the argument (see `InputError`).
 */
export function loadChunker(options?: LoadOptions): Promise<Chunker>;

/** A rejection for bad input: `field` is the Python name of the argument, e.g.
 * `"chunk_overlap"`: set on every error Python's checks raise, absent on JavaScript's own
 * (JSON cannot carry a BigInt). */
export type InputError = (RangeError | TypeError) & { readonly field?: string };

// --- token budgets ---------------------------------------------------------------------

/** The tokenizers counted in the page (OpenAI's: text-embedding-3 and GPT-4 count with
 * cl100k_base, GPT-4o with o200k_base). */
export type TokenizerName = 'cl100k_base' | 'o200k_base';

// A token budget, in every chunker's options (`maxTokens`, `tokenizer`): with either, each
// chunk has `tokenCount`; with `maxTokens`, none holds more (a chunk over it is cut again,
// docs/tokens.md). The first call with one loads the tokenizer into the worker; when it
// cannot be loaded, the call rejects with an `Error` whose `field` is 'tokenizer'.

/** Options that count tokens: a budget, or a tokenizer alone. */
export type Counting = { maxTokens: number } | { tokenizer: TokenizerName };

/** A chunk (or passage) counted: its tokens by the tokenizer given. */
export type Counted<T> = T & { tokenCount: number };

// --- SemanticChunker -------------------------------------------------------------------

export type BoundaryType = 'heading' | 'code-block' | 'paragraph' | 'sentence' | 'fixed';

/** Where each overlap starts: anywhere in the last `overlap` characters ('chars', the
 * original's), or at the first word or sentence start among them (none when there is none). */
export type OverlapBoundary = 'chars' | 'word' | 'sentence';

export interface SemanticChunkerConfig {
  targetSize?: number;
  maxSize?: number;
  minSize?: number;
  overlap?: number;
  preserveCodeBlocks?: boolean;
  respectHeadings?: boolean;
  /** Tokens no chunk holds more of, its overlap included (a whole number, at least 1). */
  maxTokens?: number;
  /** What counts the tokens (default 'cl100k_base'). */
  tokenizer?: TokenizerName;
  /** Where each overlap starts (default 'chars'). */
  overlapBoundary?: OverlapBoundary;
  /** Add `span` and `overlapSpan` to every chunk. */
  spans?: boolean;
}

/** One chunk, in the original's shape. */
export interface Chunk {
  text: string;
  index: number;
  startOffset: number;
  endOffset: number;
  boundaryType: BoundaryType;
  /** Its tokens: present when the options count them (`Counting`). */
  tokenCount?: number;
}

/** A chunk cut with `spans: true`. */
export interface ChunkWithSpans extends Chunk {
  /** The chunk's own text (after the overlap) in the input. */
  span: Span;
  /** The overlap it repeats from the chunk before, in the input; null when none. */
  overlapSpan: Span | null;
}

export interface SemanticChunker<C extends Chunk = Chunk> {
  /** Cut `text`. The chunks carry the very `metadata` object given, when one is. */
  chunk(text: string): Promise<C[]>;
  chunk<M extends object>(text: string, metadata: M): Promise<Array<C & { metadata: M }>>;
}

export interface SemanticChunkerConstructor {
  new (
    config: SemanticChunkerConfig & { spans: true } & Counting,
  ): SemanticChunker<Counted<ChunkWithSpans>>;
  new (config: SemanticChunkerConfig & Counting): SemanticChunker<Counted<Chunk>>;
  new (config: SemanticChunkerConfig & { spans: true }): SemanticChunker<ChunkWithSpans>;
  new (config?: SemanticChunkerConfig): SemanticChunker<Chunk>;
}

// --- ChunkingEngine --------------------------------------------------------------------

export type Strategy = 'fixed' | 'semantic' | 'hierarchical' | 'layout';

/** Where `fixed` windows end: every `chunkSize` less `chunkOverlap` characters ('position',
 * the original's), or at words the text's own content chooses, so an edit moves only the
 * windows next to it ('content'; `fixed` only). */
export type Boundaries = 'position' | 'content';

/** One vector a sentence; plain arrays or typed ones (a model's Float32Array). */
export type Vectors = ArrayLike<number>[];
export type EmbedFn = (sentences: string[]) => Vectors | Promise<Vectors>;

export interface ChunkOptions {
  strategy?: Strategy;
  chunkSize?: number;
  chunkOverlap?: number;
  /** Used by `semantic`, which without it cuts as `fixed`; runs on the page's thread. */
  embedFn?: EmbedFn;
  /** Tokens no chunk holds more of, its overlap included (a whole number, at least 1). */
  maxTokens?: number;
  /** What counts the tokens (default 'cl100k_base'). */
  tokenizer?: TokenizerName;
  /** Where `fixed` windows end (default 'position'). */
  boundaries?: Boundaries;
  /** Add `span` to every chunk. */
  spans?: boolean;
}

/** One chunk of `ChunkingEngine`, in the original's shape. */
export interface DocumentChunk {
  content: string;
  index: number;
  /** The section's heading (`hierarchical`). */
  heading?: string;
  /** `headingLevel` and `ancestorHeadings` (`hierarchical`), or `type` (`layout`). */
  metadata?: {
    headingLevel?: number;
    ancestorHeadings?: string[];
    type?: 'code' | 'table';
    [key: string]: unknown;
  };
  /** Its tokens: present when the options count them (`Counting`). */
  tokenCount?: number;
}

/** A chunk cut with `spans: true`. */
export interface DocumentChunkWithSpans extends DocumentChunk {
  /** Where the chunk's content sits in the input. */
  span: Span;
}

export interface ChunkingEngine {
  chunk(
    content: string,
    options: ChunkOptions & { spans: true } & Counting,
  ): Promise<Counted<DocumentChunkWithSpans>[]>;
  chunk(content: string, options: ChunkOptions & Counting): Promise<Counted<DocumentChunk>[]>;
  chunk(
    content: string,
    options: ChunkOptions & { spans: true },
  ): Promise<DocumentChunkWithSpans[]>;
  chunk(content: string, options?: ChunkOptions): Promise<DocumentChunk[]>;
}

export interface ChunkingEngineConstructor {
  new (): ChunkingEngine;
}

// --- transcripts -----------------------------------------------------------------------

export interface Turn {
  seq: number;
  text: string;
  itemId?: string | null;
  startMs?: number | null;
  endMs?: number | null;
}

export interface ChunkTurnsOptions {
  maxChars?: number;
  overlapTurns?: number;
  /** Tokens no chunk holds more of, its overlap included (a whole number, at least 1). */
  maxTokens?: number;
  /** What counts the tokens (default 'cl100k_base'). */
  tokenizer?: TokenizerName;
  /** Add `repeatedTurns` to every passage. */
  spans?: boolean;
}

/** Where one turn sits in its passage's text. */
export interface TurnSpan {
  seq: number;
  itemId?: string;
  start: number;
  end: number;
}

/** Whole turns joined by line feeds. */
export interface Passage {
  text: string;
  index: number;
  firstSeq: number;
  lastSeq: number;
  itemIds: Array<string | null>;
  startMs?: number | null;
  endMs?: number | null;
  turns: TurnSpan[];
  /** Its tokens: present when the options count them (`Counting`). */
  tokenCount?: number;
}

/** A passage cut with `spans: true`. */
export interface PassageWithSpans extends Passage {
  /** How many of its first turns repeat the passage before (0 for the first). */
  repeatedTurns: number;
}

// --- words and search ------------------------------------------------------------------

export interface SnippetOptions {
  before?: number;
  after?: number;
}

export interface Snippet {
  /** Where the matching word starts in the text; -1 when none matches. */
  at: number;
  /** The whole words around it, white space collapsed. */
  text: string;
}

export interface LexicalIndexOptions {
  /** How soon repeating a word stops adding to a score (default 1.2, at least 0). */
  k1?: number;
  /** How much a long document's score is lowered, 0 to 1 (default 0.75). */
  b?: number;
}

/** A document's metadata: a plain object, copied in (and out with each hit). */
export type Metadata = object;

export interface IndexedDocument<M extends Metadata = Record<string, unknown>> {
  /** Not empty; a document added again under the same id replaces the old one. */
  id: string;
  /** Not empty. */
  text: string;
  metadata?: M | null;
}

export interface SearchOptions {
  /** 'all' keeps only documents holding every word of the query (default 'any'). */
  match?: 'any' | 'all';
  /** Let a stored word that begins with a query word count as that word. */
  prefix?: boolean;
  /**
   * Answer each hit with its `snippet`: `snippetAround` of its text for the query's words
   * (true: before 80, after 120), with the `matchSpans` of those words in it. One round
   * trip to the worker for all a page draws of its hits.
   */
  snippet?: boolean | SnippetOptions;
}

export interface LexicalHit<M extends Metadata = Record<string, unknown>> {
  id: string;
  /** Its BM25 score for the query: higher is better. */
  score: number;
  /** Absent when the document has none. */
  metadata?: M;
}

/** What `snippet` adds to a hit: indices into its document's text, then into `text`. */
export interface HitSnippet extends Snippet {
  /** Where each word of `text` that begins with one of the query's words lies. */
  spans: Span[];
}

export interface LexicalHitWithSnippet<M extends Metadata = Record<string, unknown>>
  extends LexicalHit<M> {
  /** null for a document of an index restored by `fromJSON`, which keeps no texts. */
  snippet: HitSnippet | null;
}

/** What `stats()` answers: the original's `getStats()` shape. */
export interface LexicalIndexStats {
  documentCount: number;
  /** How many distinct words the documents hold. */
  termCount: number;
  /** Their mean length in words (0 with no documents). */
  avgDocLength: number;
}

/** The JSON-safe form of an index, for `fromJSON`; its texts are not kept. */
export interface LexicalIndexJSON<M extends Metadata = Record<string, unknown>> {
  /** The format's version; `fromJSON` rejects one it cannot read, naming it. */
  version: number;
  k1: number;
  b: number;
  /** In the order they were (last) added, which ties keep. */
  documents: Array<{ id: string; terms: Record<string, number>; metadata?: M }>;
}

/** A BM25 keyword index living in the worker; `dispose()` frees it. */
export interface LexicalIndex<M extends Metadata = Record<string, unknown>> {
  /** Index each document, in order; all are checked before any is added. */
  addDocuments(docs: readonly IndexedDocument<M>[]): Promise<void>;
  /** A document added again under the same id replaces the old one. */
  addDocument(id: string, text: string, metadata?: M | null): Promise<void>;
  /** Whether there was such a document. */
  removeDocument(id: string): Promise<boolean>;
  /** The best `topK` (default 10, at least 1) documents for the words of `query`. */
  search(
    query: string,
    topK: number | undefined,
    options: SearchOptions & { snippet: true | SnippetOptions },
  ): Promise<LexicalHitWithSnippet<M>[]>;
  search(query: string, topK?: number, options?: SearchOptions): Promise<LexicalHit<M>[]>;
  stats(): Promise<LexicalIndexStats>;
  toJSON(): Promise<LexicalIndexJSON<M>>;
  /** Free it in the worker (whether there was anything to free); later calls reject. */
  dispose(): Promise<boolean>;
}

export interface LexicalIndexConstructor {
  /** Bad options reject the index's first call. */
  new <M extends Metadata = Record<string, unknown>>(
    options?: LexicalIndexOptions,
  ): LexicalIndex<M>;
  fromJSON<M extends Metadata = Record<string, unknown>>(
    json: LexicalIndexJSON<M>,
  ): Promise<LexicalIndex<M>>;
}

// --- LiveDocument (chunker-live.js; Python's chunker.LiveDocument) -----------------------

/** A LiveDocument's settings: `SemanticChunker`'s config (strategy 'semantic', the default),
 * or an engine strategy with `ChunkingEngine.chunk`'s options but `embedFn`. */
export type LiveDocumentOptions =
  | (SemanticChunkerConfig & { strategy?: 'semantic' })
  | (Omit<ChunkOptions, 'strategy' | 'embedFn'> & {
      strategy: 'fixed' | 'hierarchical' | 'layout';
    });

/** What an edit did to the chunks: re-embed `added`, delete `removed`. */
export interface LiveChange<C> {
  /** The chunks carried over, in order, at their new indices and offsets: a plain array,
   * made when first read (the edit itself makes none), then the same array. */
  readonly kept: C[];
  /** How many chunks were kept: `kept.length`, without making `kept`. */
  readonly keptCount: number;
  /** The kept chunk `number` (from 0 to keptCount - 1), the one `kept[number]` holds, made
   * alone: the way to read a few chunks of a large document. A bad number throws a
   * `RangeError` or `TypeError` whose `field` is 'number'. */
  keptAt(number: number): C;
  /** The old chunks that are gone, as they were. */
  removed: C[];
  /** The new chunks, in order. */
  added: C[];
}

/** A text and its chunks, which stay a fresh chunking's under edits; each edit is re-cut in
 * the worker only where it can change them (docs/live.md). Indices are JavaScript's. */
export interface LiveDocument<C> {
  /** The text as edited (this page's copy: no call). */
  readonly text: string;
  /** The chunks of the text as edited, once the edits before have been made: a plain array,
   * the caller's own at each call, of chunks made at the first call after an edit. */
  chunks(): Promise<C[]>;
  /** Replace `text.slice(start, end)` with `replacement`. A bad index rejects with an
   * `InputError` whose `field` is 'start', 'end' or 'replacement', and changes nothing. */
  edit(start: number, end: number, replacement: string): Promise<LiveChange<C>>;
  /** Make the text `newText`, the edit found between their common start and end. */
  replaceText(newText: string): Promise<LiveChange<C>>;
  /** Free it in the worker; later calls reject. */
  dispose(): Promise<boolean>;
}

export interface LiveDocumentConstructor {
  /** Bad options reject every call on the document, with the reason. */
  new (
    text: string,
    options: SemanticChunkerConfig & { strategy?: 'semantic'; spans: true } & Counting,
  ): LiveDocument<Counted<ChunkWithSpans>>;
  new (
    text: string,
    options: SemanticChunkerConfig & { strategy?: 'semantic' } & Counting,
  ): LiveDocument<Counted<Chunk>>;
  new (
    text: string,
    options: SemanticChunkerConfig & { strategy?: 'semantic'; spans: true },
  ): LiveDocument<ChunkWithSpans>;
  new (
    text: string,
    options: LiveDocumentOptions & { strategy: 'fixed' | 'hierarchical' | 'layout' } & {
      spans: true;
    },
  ): LiveDocument<DocumentChunkWithSpans>;
  new (
    text: string,
    options: LiveDocumentOptions & { strategy: 'fixed' | 'hierarchical' | 'layout' },
  ): LiveDocument<DocumentChunk>;
  new (text: string, options?: SemanticChunkerConfig & { strategy?: 'semantic' }): LiveDocument<Chunk>;
}

// --- evaluation (chunker-evaluation.js; Python's chunker.evaluation) -------------------

/** Questions with their gold excerpts, as `[start, end]` JavaScript indices in a corpus. */
export interface EvaluationSet {
  corpora: Record<string, string>;
  questions: Array<{ question: string; corpusId: string; references: Array<[number, number]> }>;
}

/** The chunker's options (SemanticChunker's, or the engine's sizes), the strategy and k. */
export interface EvaluateOptions
  extends Omit<SemanticChunkerConfig, 'spans'>,
    Pick<ChunkOptions, 'chunkSize' | 'chunkOverlap' | 'boundaries'> {
  /** `semantic` (the default) or an engine strategy. */
  strategy?: 'semantic' | 'fixed' | 'hierarchical' | 'layout';
  /** Chunks retrieved per question (5). */
  k?: number;
  /** Random one-paragraph edits of each corpus for `stability` (0: not measured). */
  edits?: number;
  /** What draws the edits (0). */
  editSeed?: number;
}

export type Metric = 'recall' | 'precision' | 'iou' | 'precisionOmega';

export interface QuestionFigures {
  recall: number;
  precision: number;
  iou: number;
  precisionOmega: number;
  /** The chunks retrieved, best first, with the retriever's score (BM25). */
  retrieved: Array<{ corpusId: string; start: number; end: number; score: number }>;
}

/** Means and standard deviations over the questions, each in [0, 1]. */
export interface EvaluationReport {
  recall: number;
  recallStd: number;
  precision: number;
  precisionStd: number;
  iou: number;
  iouStd: number;
  precisionOmega: number;
  precisionOmegaStd: number;
  chunkCount: number;
  meanChunkLength: number;
  maxChunkLength: number;
  settings: Record<string, unknown>;
  seconds: number;
  /** The mean share of chunks kept under the edits asked for (`edits`), else null. */
  stability: number | null;
  stabilityStd: number | null;
  questions: QuestionFigures[];
}

export interface SweepCell {
  settings: Record<string, unknown>;
  /** null when the chunker refused the settings (`error` says why). */
  report: EvaluationReport | null;
  error: string | null;
  /** The Python name of the option `error` or `warning` is about. */
  field: string | null;
  /** Why settings the chunker takes make no sense; the report is still made. */
  warning: string | null;
}

export interface SweepOptions extends EvaluateOptions {
  metric?: Metric;
  /** After each cell, with the cell done (a page can draw it at once). */
  onProgress?: (progress: { done: number; total: number; cell: SweepCell }) => void;
  /** Stops the sweep between cells; it rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface SweepReport {
  cells: SweepCell[];
  metric: Metric;
  /** The index of the best cell by `metric`, or null if none ran. */
  best: number | null;
}

// --- the API ---------------------------------------------------------------------------

export interface Versions {
  chunker: string;
  pyodide: string;
  python: string;
}

/** What `loadChunker` answers (frozen). */
export interface Chunker {
  readonly SemanticChunker: SemanticChunkerConstructor;
  readonly ChunkingEngine: ChunkingEngineConstructor;
  readonly LexicalIndex: LexicalIndexConstructor;
  readonly LiveDocument: LiveDocumentConstructor;
  chunkTurns(
    turns: Turn[],
    options: ChunkTurnsOptions & { spans: true } & Counting,
  ): Promise<Counted<PassageWithSpans>[]>;
  chunkTurns(turns: Turn[], options: ChunkTurnsOptions & Counting): Promise<Counted<Passage>[]>;
  chunkTurns(
    turns: Turn[],
    options: ChunkTurnsOptions & { spans: true },
  ): Promise<PassageWithSpans[]>;
  chunkTurns(turns: Turn[], options?: ChunkTurnsOptions): Promise<Passage[]>;
  /** The tokens `tokenizer` (default 'cl100k_base') makes of `text`; the first call that
   * counts loads the tokenizer. */
  countTokens(text: string, tokenizer?: TokenizerName): Promise<number>;
  /** The words of `text`, NFC and lower case. */
  lexicalTokens(text: string): Promise<string[]>;
  /** The first word starting with one of `words`, and its context. */
  snippetAround(text: string, words: string[], options?: SnippetOptions): Promise<Snippet>;
  /** Where each word of `text` that begins with one of `words` lies. */
  matchSpans(text: string, words: string[]): Promise<Span[]>;
  /** Where each chunk content sits in `text`, in order; null where it is not found. */
  locateChunks(text: string, contents: string[]): Promise<Array<Span | null>>;
  /** Score a chunking of `set`'s corpora: BM25 retrieval, Chroma's metrics, exact spans. */
  evaluate(set: EvaluationSet, options?: EvaluateOptions): Promise<EvaluationReport>;
  /** `evaluate` on every cell of `grid`, one worker call a cell. */
  sweep(
    set: EvaluationSet,
    grid: Partial<Record<keyof EvaluateOptions, unknown[]>>,
    options?: SweepOptions,
  ): Promise<SweepReport>;
  readonly versions: Versions;
  /** Milliseconds the worker took from its start to ready. */
  readonly bootMs: number;
  /** Stop the worker; later calls reject. */
  close(): void;
}
