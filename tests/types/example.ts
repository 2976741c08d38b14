// A page author's code, typed against chunker.d.ts: `tsc --noEmit --strict` must pass it
// (tests/browser/test_typescript_types.py). Each `@ts-expect-error` is a mistake the types must catch: tsc
// fails on one that catches nothing, so a type gone loose (`any`) fails the test too.
import {
  loadChunker,
  type Boundaries,
  type Chunk,
  type ChunkWithSpans,
  type DocumentChunk,
  type EvaluationReport,
  type EvaluationSet,
  type InputError,
  type HitSnippet,
  type LexicalHit,
  type LexicalIndexJSON,
  type LexicalIndexStats,
  type OverlapBoundary,
  type Passage,
  type Span,
  type SweepReport,
} from 'chunker-web';

export async function example(text: string): Promise<void> {
  const api = await loadChunker({
    baseUrl: '/node_modules/chunker-web/',
    timeoutMs: 30_000,
    onProgress: ({ stage, fraction, message }) => console.log(stage, fraction ?? 0, message),
  });
  const version: string = api.versions.chunker + api.versions.pyodide + api.versions.python;
  const booted: number = api.bootMs;

  const chunker = new api.SemanticChunker({ targetSize: 800, overlap: 50 });
  const plain: Chunk[] = await chunker.chunk(text);
  const first: string = text.slice(plain[0].startOffset, plain[0].endOffset) + plain[0].index;
  // @ts-expect-error: without `spans: true` a chunk has no span
  plain[0].span;
  const withSpans: ChunkWithSpans[] = await new api.SemanticChunker({ spans: true }).chunk(text);
  // An overlap that starts at a word: the boundary is one of three names.
  const boundary: OverlapBoundary = 'word';
  await new api.SemanticChunker({ overlap: 50, overlapBoundary: boundary }).chunk(text);
  // @ts-expect-error: 'words' is no overlap boundary
  await new api.SemanticChunker({ overlapBoundary: 'words' }).chunk(text);
  const own: Span = withSpans[0].span;
  const overlap: number = withSpans[0].overlapSpan?.start ?? -1;
  // The chunks carry the caller's own metadata object, typed as given.
  const tagged = await new api.SemanticChunker().chunk(text, { source: 'a.md', page: 3 });
  const page: number = tagged[0].metadata.page;
  // A token budget: each chunk counted, none over it.
  const budgeted = await new api.SemanticChunker({ maxTokens: 256, tokenizer: 'o200k_base' })
    .chunk(text);
  const tokens: number = budgeted[0].tokenCount;
  const countedSpans = await new api.SemanticChunker({ tokenizer: 'cl100k_base', spans: true })
    .chunk(text);
  const countedAt: number = countedSpans[0].span.start + countedSpans[0].tokenCount;
  // @ts-expect-error: without a budget or a tokenizer a chunk may have no count
  const uncounted: number = plain[0].tokenCount;
  // @ts-expect-error: the page counts with the tokenizers it ships, by name
  new api.SemanticChunker({ tokenizer: 'gpt2' });
  const counted: number = await api.countTokens(text, 'o200k_base') + (await api.countTokens(text));
  const engineTokens: number = (await new api.ChunkingEngine().chunk(text, { maxTokens: 512 }))[0]
    .tokenCount;
  // Windows that end at the text's own words: the boundaries are one of two names.
  const ends: Boundaries = 'content';
  await new api.ChunkingEngine().chunk(text, { strategy: 'fixed', boundaries: ends });
  // @ts-expect-error: 'words' is no boundaries
  await new api.ChunkingEngine().chunk(text, { boundaries: 'words' });
  const passageTokens: number = (await api.chunkTurns([{ seq: 1, text }], { maxTokens: 64 }))[0]
    .tokenCount;
  // @ts-expect-error: an option the original does not have
  new api.SemanticChunker({ colour: 'red' });
  // @ts-expect-error: sizes are numbers
  new api.SemanticChunker({ targetSize: '800' });

  const engine = new api.ChunkingEngine();
  const fixed: DocumentChunk[] = await engine.chunk(text, { strategy: 'fixed', chunkSize: 512 });
  const level: number | undefined = fixed[0].metadata?.headingLevel;
  const located = await engine.chunk(text, { strategy: 'hierarchical', spans: true });
  const where: number = located[0].span.end;
  const semantic = await engine.chunk(text, {
    strategy: 'semantic',
    embedFn: async (sentences) => sentences.map((s) => Float32Array.of(s.length, 1)),
  });
  // @ts-expect-error: no such strategy
  await engine.chunk(text, { strategy: 'recursive' });

  const turns = [
    { seq: 1, text: 'Hello.', itemId: 'm1', startMs: 0, endMs: 900 },
    { seq: 2, text: 'Hi! How can I help?' },
  ];
  const passages: Passage[] = await api.chunkTurns(turns, { maxChars: 1200, overlapTurns: 1 });
  const said: string = passages[0].text.slice(passages[0].turns[0].start, passages[0].turns[0].end);
  const repeated: number = (await api.chunkTurns(turns, { spans: true }))[0].repeatedTurns;
  // @ts-expect-error: a turn needs its seq
  await api.chunkTurns([{ text: 'no seq' }]);

  const words: string[] = await api.lexicalTokens('Refund policy');
  const { at, text: snippet } = await api.snippetAround(text, words, { before: 80, after: 120 });
  const marks: Span[] = await api.matchSpans(snippet, words);
  const spans: Array<Span | null> = await api.locateChunks(text, fixed.map((c) => c.content));

  const index = new api.LexicalIndex<{ source: string }>({ k1: 1.2, b: 0.75 });
  await index.addDocuments(plain.map((c) => ({ id: `c${c.index}`, text: c.text })));
  await index.addDocument('extra', 'refunds go back to the card', { source: 'faq.md' });
  const removed: boolean = await index.removeDocument('c0');
  const hits: LexicalHit<{ source: string }>[] = await index.search('refund', 20, {
    match: 'all',
    prefix: true,
  });
  const source: string | undefined = hits[0]?.metadata?.source;
  // Each hit with its snippet and the spans of its matching words: one call for all.
  const shown = await index.search('refund', 20, { snippet: { before: 60, after: 140 } });
  const drawn: HitSnippet | null = shown[0].snippet;
  const marked: string[] = (drawn?.spans ?? []).map((s) => drawn!.text.slice(s.start, s.end));
  // @ts-expect-error: without the snippet option a hit has no snippet
  (await index.search('refund', 20)).map((hit) => hit.snippet);
  // @ts-expect-error: match is 'any' or 'all'
  await index.search('refund', 20, { match: 'some' });
  // @ts-expect-error: a document needs its text
  await index.addDocuments([{ id: 'no-text' }]);
  // @ts-expect-error: metadata is the index's own type
  await index.addDocument('x', 'text', { source: 3 });
  const stats: LexicalIndexStats = await index.stats();
  const count: number = stats.documentCount + stats.termCount + stats.avgDocLength;
  const saved: LexicalIndexJSON<{ source: string }> = await index.toJSON();
  const terms: Record<string, number> = saved.documents[0].terms;
  const restored = await api.LexicalIndex.fromJSON(saved);
  const again: number = (await restored.search('refund'))[0].score;
  const freed: boolean = await index.dispose();
  await restored.dispose();

  const set: EvaluationSet = {
    corpora: { notes: text },
    questions: [{ question: 'refund', corpusId: 'notes', references: [[0, 10]] }],
  };
  const report: EvaluationReport = await api.evaluate(set, { targetSize: 400, k: 3 });
  const omega: number = report.precisionOmega + report.questions[0].retrieved[0].start;
  const kept: number | null = (await api.evaluate(set, { chunkSize: 400, strategy: 'fixed',
    boundaries: 'content', edits: 3, editSeed: 1 })).stability;
  const stop = new AbortController();
  const swept: SweepReport = await api.sweep(
    set,
    { targetSize: [200, 400], overlap: [0, 50] },
    { metric: 'recall', signal: stop.signal, onProgress: ({ done, total }) => done / total },
  );
  const bestCell: EvaluationReport | null =
    swept.best === null ? null : swept.cells[swept.best].report;
  // @ts-expect-error: the metric is one of the four figures
  await api.sweep(set, { overlap: [0] }, { metric: 'f1' });

  const live = new api.LiveDocument(text, { targetSize: 400, spans: true });
  const change = await live.edit(0, 0, '# Notes\n\n');
  const movedBy: number = change.kept[0].span.start - change.added.length;
  const lastKept: ChunkWithSpans = change.keptAt(change.keptCount - 1);
  // @ts-expect-error: kept is made by the change, not set
  change.kept = [];
  const windows = new api.LiveDocument(text, { strategy: 'fixed', chunkSize: 200 });
  const liveContent: string = (await windows.replaceText(windows.text + '!')).added[0].content;
  // @ts-expect-error: a LiveDocument calls no embedFn
  new api.LiveDocument(text, { strategy: 'fixed', embedFn: () => [] });
  await Promise.all([live.dispose(), windows.dispose()]);

  try {
    await new api.SemanticChunker({ overlap: -1 }).chunk(text);
  } catch (error) {
    const field: string | undefined = (error as InputError).field;
    console.log(field);
  }
  api.close();
  console.log(version, booted, first, own, overlap, page, level, where, semantic, said);
  console.log(repeated, at, marks, spans, removed, source, again, count, terms, freed, marked);
  console.log(omega, kept, bestCell, movedBy, lastKept, liveContent);
  console.log(tokens, countedAt, counted, engineTokens, passageTokens);
}
