// What each mode asks of the facade, and its answer turned into one shape for the views:
// chunks with their spans in the shown text, so every view draws from the real offsets.

import { demoEmbed } from './demo-embedding.js';
import { optionsOf } from './settings.js';
import { codePointLength } from './format.js';
import { parseTurns } from './turns-json.js';

/**
 * Chunk `text` in `mode` with `values`. Answers `{mode, raw, chunks, turns?}`: `raw` is the
 * facade's answer with its spans (what the downloads hold), `chunks` the view model:
 * `{index, type, heading, label, text, overlap, length, start, end, leadStart, leadEnd}`:
 * `heading` is the section's heading ('' for none), `label` the type and heading; `overlap` is
 * how much of `text` is repeated from the chunk before (JavaScript units), `length` the
 * characters of `text`, `start`/`end` the chunk's span in the shown text (-1 for passages,
 * which the transcript view places) and `leadStart`/`leadEnd` the overlap's span there (-1
 * when none), `tokens` its tokens when counted (else null). The spans are the chunker's own
 * (the option `spans: true`), taken where it cut,
 * so one call of the facade makes every view. Passages also
 * carry `turnPositions` (where their turns are in `turns`), `repeatedTurns` (how many of
 * those the passage before holds too) and `passage`, the facade's answer.
 */
export async function runChunker(api, mode, values, text, tokens = {}) {
  // `tokens`: the token panel's options (tokens.js' `tokenOptions`), for every mode; with
  // them, each chunk's `tokenCount` becomes the view's `tokens` (else null).
  const options = { ...optionsOf(mode, values), ...tokens };
  if (mode === 'semantic') {
    const found = await new api.SemanticChunker({ ...options, spans: true }).chunk(text);
    return { mode, raw: found, chunks: viewChunks(mode, values, found) };
  }
  if (mode === 'engine') {
    const embedFn = values.strategy === 'semantic' ? demoEmbed : undefined;
    const found = await new api.ChunkingEngine().chunk(text, { ...options, embedFn, spans: true });
    return { mode, raw: found, chunks: viewChunks(mode, values, found) };
  }
  const turns = parseTurns(text);
  const passages = await api.chunkTurns(turns, { ...options, spans: true });
  return { mode, raw: passages, turns, chunks: passageChunks(passages, turns) };
}

/**
 * The options of a LiveDocument that cuts as `mode` with `values` does, or null where none can
 * (transcripts; the engine's `semantic`, whose embedding function is the page's).
 */
export function liveOptions(mode, values, tokens = {}) {
  if (mode === 'turns' || (mode === 'engine' && values.strategy === 'semantic')) return null;
  return { ...optionsOf(mode, values), ...tokens, spans: true };
}

/**
 * The view model of a document mode's chunks (`found`, the facade's), as `runChunker` answers
 * it, each with a `key` that names it in the search's index. `known(chunk)`, after a
 * LiveDocument's edit, answers the view of a chunk it kept (its length is not counted again,
 * and its key stays), or null for one it added.
 */
export function viewChunks(mode, values, found, known = () => undefined) {
  return mode === 'semantic'
    ? semanticChunks(found, known) : engineChunks(found, values.strategy, known);
}

// A full run's chunks are keyed by their index; those an edit adds (`known` answers null)
// get keys of their own, apart from those.
let lastKey = 0;
const keyOf = (was, index) => (was ? was.key : was === null ? `e${++lastKey}` : String(index));

function semanticChunks(found, known) {
  return found.map((chunk) => {
    const was = known(chunk);
    // The text is the overlap then the chunk's own text: this much of it is repeated.
    const overlap = Math.max(0, chunk.text.length - (chunk.endOffset - chunk.startOffset));
    const lead = chunk.overlapSpan;
    return { index: chunk.index, type: chunk.boundaryType, heading: '', text: chunk.text, overlap,
      length: was?.length ?? codePointLength(chunk.text), key: keyOf(was, chunk.index),
      start: chunk.span.start, end: chunk.span.end,
      leadStart: lead ? lead.start : -1, leadEnd: lead ? lead.end : -1,
      label: chunk.boundaryType, tokens: chunk.tokenCount ?? null };
  });
}

const UNNAMED = { layout: 'text', hierarchical: 'section' };

function engineChunks(found, strategy, known) {
  let previousEnd = -1;
  return found.map((chunk) => {
    const was = known(chunk);
    const { start, end } = chunk.span;
    // A window that starts before the last one ended repeats that much of it: its overlap.
    const overlaps = start < previousEnd;
    const leadEnd = overlaps ? Math.min(previousEnd, end) : -1;
    previousEnd = end;
    // What kind of piece it is: layout names its code blocks and tables (the rest is text),
    // hierarchical gives the heading's level (a section before any heading has none).
    const level = chunk.metadata?.headingLevel;
    const type = chunk.metadata?.type ?? (level ? `h${level}` : UNNAMED[strategy] ?? strategy);
    return { index: chunk.index, type, heading: chunk.heading ?? '', text: chunk.content,
      overlap: 0, length: was?.length ?? codePointLength(chunk.content),
      key: keyOf(was, chunk.index),
      start, end, leadStart: overlaps ? start : -1, leadEnd,
      label: chunk.heading ? `${type}: ${chunk.heading}` : type, tokens: chunk.tokenCount ?? null };
  });
}

function passageChunks(passages, turns) {
  // Blank turns (white space to trim(), as the chunker says) are in no passage; the others
  // are cut in order, each passage repeating its first repeatedTurns from the one before.
  const kept = [];
  turns.forEach((turn, position) => {
    if (String(turn.text).trim() !== '') kept.push(position);
  });
  let fresh = 0; // the first kept turn no passage has brought yet
  return passages.map(({ index, text, turns: spans, repeatedTurns, firstSeq, lastSeq }, i) => {
    const first = fresh - repeatedTurns;
    fresh = first + spans.length;
    return { index, type: 'passage', heading: '', text, overlap: 0, length: codePointLength(text),
      key: String(index),
      start: -1, end: -1, leadStart: -1, leadEnd: -1, label: `seq ${firstSeq}–${lastSeq}`,
      turnPositions: kept.slice(first, fresh), repeatedTurns, passage: passages[i],
      tokens: passages[i].tokenCount ?? null };
  });
}
