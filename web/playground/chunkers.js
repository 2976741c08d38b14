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
 * it, each with a `key` that names it in the search's index: its index.
 */
export function viewChunks(mode, values, found) {
  const views = [];
  for (const chunk of found) {
    views.push(viewOf(mode, values.strategy, chunk, views.at(-1), String(chunk.index)));
  }
  return views;
}

/**
 * The views after a LiveDocument's edit, from `old`, the views before, and `change`, the
 * edit's answer: the old views less those removed, each kept one moved as its chunk was (its
 * length not counted again, its key the same), and views of the added ones under new keys.
 * Of the kept chunks it reads a few through `keptAt` (never `kept`, which makes them all):
 * those that tell, by halves, the first the edit moved (those before it stay).
 */
export function editedViews(mode, values, old, change) {
  const { keptAt, keptCount, removed, added } = change;
  const gone = removed.map((chunk) => chunk.index);
  const oldView = (number) => old[number + countBefore(gone, number)];
  const lo = firstMoved(old, change);
  const by = lo < keptCount ? keptAt(lo).span.start - oldView(lo).start : 0;
  const views = [];
  let number = 0, at = 0, going = 0, coming = 0;
  const length = keptCount + added.length;
  for (let index = 0; index < length; index++) {
    const previous = views.at(-1);
    if (coming < added.length && added[coming].index === index) {
      views.push(viewOf(mode, values.strategy, added[coming++], previous, `e${++lastKey}`));
      continue;
    }
    while (going < gone.length && gone[going] === at) {
      going++;
      at++;
    }
    views.push(movedView(mode, old[at++], number++ < lo ? 0 : by, index, previous));
  }
  return views;
}

/**
 * The indices `{from, to}` of the views after an edit (`change`, of `old`'s chunks) that may
 * stand out of order: those added, and the first that the edit moved (the views before it
 * stay, those after it move together).
 */
export function changedViews(old, change) {
  let from = firstMoved(old, change);
  for (const chunk of change.added) if (chunk.index <= from) from += 1;
  let to = from + 1;
  if (change.added.length) {
    from = Math.min(from, change.added[0].index);
    to = Math.max(to, change.added.at(-1).index + 1);
  }
  return { from, to };
}

/** Which of the kept chunks (their number among them) is the first the edit moved, found
 * by halves (those before it are where they were): `keptCount` when none. */
function firstMoved(old, { keptAt, keptCount, removed }) {
  const gone = removed.map((chunk) => chunk.index);
  let lo = 0, hi = keptCount;
  while (lo < hi) {
    const middle = (lo + hi) >>> 1;
    if (keptAt(middle).span.start !== old[middle + countBefore(gone, middle)].start) hi = middle;
    else lo = middle + 1;
  }
  return lo;
}

/** How many of `sorted`'s indices (ascending) come before the `number`th index not in it. */
function countBefore(sorted, number) {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const middle = (lo + hi) >>> 1;
    if (sorted[middle] - middle <= number) lo = middle + 1;
    else hi = middle;
  }
  return lo;
}

// Those an edit adds get keys of their own, apart from a full run's (their indices).
let lastKey = 0;

/** The view of `chunk`, keyed `key`, after the view `previous` (undefined for the first). */
function viewOf(mode, strategy, chunk, previous, key) {
  const { start, end } = chunk.span;
  if (mode === 'semantic') {
    // The text is the overlap then the chunk's own text: this much of it is repeated.
    const overlap = Math.max(0, chunk.text.length - (chunk.endOffset - chunk.startOffset));
    const lead = chunk.overlapSpan;
    return { index: chunk.index, type: chunk.boundaryType, heading: '', text: chunk.text, overlap,
      length: codePointLength(chunk.text), key, start, end,
      leadStart: lead ? lead.start : -1, leadEnd: lead ? lead.end : -1,
      label: chunk.boundaryType, tokens: chunk.tokenCount ?? null };
  }
  // What kind of piece it is: layout names its code blocks and tables (the rest is text),
  // hierarchical gives the heading's level (a section before any heading has none).
  const level = chunk.metadata?.headingLevel;
  const type = chunk.metadata?.type ?? (level ? `h${level}` : UNNAMED[strategy] ?? strategy);
  return { index: chunk.index, type, heading: chunk.heading ?? '', text: chunk.content,
    overlap: 0, length: codePointLength(chunk.content), key, start, end,
    ...engineLead(start, end, previous),
    label: chunk.heading ? `${type}: ${chunk.heading}` : type, tokens: chunk.tokenCount ?? null };
}

const UNNAMED = { layout: 'text', hierarchical: 'section' };

/** A window that starts before the one before it ended repeats that much of it: its
 * overlap, as the engine's chunks do not say it. */
function engineLead(start, end, previous) {
  const previousEnd = previous ? previous.end : -1;
  return start < previousEnd ? { leadStart: start, leadEnd: Math.min(previousEnd, end) }
    : { leadStart: -1, leadEnd: -1 };
}

/** `view` at `index`, moved `by` units, after the view `previous`: the same object when that
 * changes nothing. */
function movedView(mode, view, by, index, previous) {
  const start = view.start + by, end = view.end + by;
  let { leadStart, leadEnd } = view;
  if (mode !== 'semantic') {
    // Found again from the view before, which the edit may have made.
    ({ leadStart, leadEnd } = engineLead(start, end, previous));
  } else if (leadStart >= 0) {
    // The chunk's own overlap span, moved with it.
    leadStart += by;
    leadEnd += by;
  }
  if (!by && view.index === index && leadStart === view.leadStart && leadEnd === view.leadEnd) {
    return view;
  }
  return { ...view, index, start, end, leadStart, leadEnd };
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
