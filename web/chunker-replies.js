// chunker.js's reading of replies: the bytes `chunker.bridge.handle` answers, and the chunks
// packed in them, put together as the original's objects. The mirror of
// chunker/bridge/packing.py (its section tables) and protocol.py (the reply's table).

import { astralOf, offsetToUtf16, toUtf16 } from './chunker-utf16.js';

// Python's error names for bad input, already mapped to these by the bridge.
const INPUT_ERRORS = { RangeError, TypeError };

const decoder = new TextDecoder();

/** The error to throw for the bridge's `{name, message, field?}`; `.field` only when given. */
export function inputError({ name, message, field }) {
  const error = new INPUT_ERRORS[name](message);
  if (typeof field === 'string') error.field = field;
  return error;
}

/**
 * What `chunker.bridge.handle` answers, laid out as the table in chunker/bridge/protocol.py
 * says: counts n and m, n ints, m characters of text, then JSON. The ints are read where they
 * lie, not copied; the text and the JSON are decoded in one call, and the text is the decoded
 * string (its first m characters), sliced later at no cost.
 *
 * @param {Uint8Array} reply from the worker (a copy of Python's bytes: its ints align)
 * @returns {{ints: Int32Array, ascii: string, json: any}}
 */
export function readReply(reply) {
  const counts = new DataView(reply.buffer, reply.byteOffset);
  const count = counts.getInt32(0, true), length = counts.getInt32(4, true);
  const ints = new Int32Array(reply.buffer, reply.byteOffset + 8, count);
  const rest = decoder.decode(reply.subarray(8 + 4 * count)); // the text, then the JSON
  // The text stays a slice of `rest`, which costs V8 no copy.
  return { ints, ascii: rest.slice(0, length), json: JSON.parse(rest.slice(length)) };
}

/**
 * The chunks that `chunker.bridge.pack_chunks` describes, cut out here: most as slices of
 * `text` where the chunker placed them (a slice costs V8 no copy), the others from the ASCII
 * text that joins those that are ASCII, and the few left whole.
 *
 * @param {string} text the text as given to `chunk`
 * @param {{count: number, boundaryTypes: string[], texts: string[],
 *   sections: [string, number][]}} packed
 * @param {Int32Array} ints the sections that chunker/bridge/packing.py's `SECTIONS` defines
 * @param {string} ascii begins with the chunk texts that cross as ASCII, joined
 * @param {object|undefined} metadata put on every chunk, the very object, as the original does
 * @param {boolean} withSpans add `span` and `overlapSpan`
 * @param {Int32Array} [known] where the characters outside the BMP are in `text`, when the
 *   page knows and the reply does not carry it (a LiveDocument's edit)
 * Counted chunks (a tokenizer or a budget given) also have `tokenCount`, after `metadata`, as
 * Python's `to_dict()` orders them.
 */
export function unpackChunks(text, packed, ints, ascii, metadata, withSpans, known) {
  const { count, boundaryTypes, texts, sections } = packed;
  const {
    offsets, spans, overlapSpans, boundaryIndex, places, asciiLength, tokenCounts, astral,
  } = readSections(ints, sections);
  const positions = known ?? astral;
  const counted = tokenCounts.length > 0; // a tokenizer or a budget was given
  // As JavaScript indices.
  const [jsOffsets, jsSpans, jsOverlapSpans, jsPlaces] = [offsets, spans, overlapSpans, places]
    .map((section) => toUtf16(section, positions));
  const chunks = new Array(count);
  let asciiAt = 0;
  let crossing = 0; // the next of asciiLength
  let literal = 0;
  for (let index = 0; index < count; index++) {
    const pair = 2 * index; // where the chunk's two ints are, in a section of pairs
    const startOffset = jsOffsets[pair], endOffset = jsOffsets[pair + 1];
    const at = 4 * index;
    const leadFrom = jsPlaces[at], leadTo = jsPlaces[at + 1];
    let chunkText;
    if (leadFrom >= 0) {
      const ownFrom = jsPlaces[at + 2], ownTo = jsPlaces[at + 3];
      if (leadTo === ownFrom) chunkText = text.slice(leadFrom, ownTo);
      else chunkText = text.slice(leadFrom, leadTo) + text.slice(ownFrom, ownTo);
    } else {
      const length = asciiLength[crossing++];
      chunkText = length >= 0 ? ascii.slice(asciiAt, (asciiAt += length)) : texts[literal++];
    }
    const boundaryType = boundaryTypes[boundaryIndex[index]];
    const chunk = { text: chunkText, index, startOffset, endOffset, boundaryType };
    // Without metadata the key is absent, as JSON.stringify leaves it in the original.
    if (metadata !== undefined) chunk.metadata = metadata;
    if (counted) chunk.tokenCount = tokenCounts[index];
    if (withSpans) {
      chunk.span = { start: jsSpans[pair], end: jsSpans[pair + 1] };
      const overlapStart = jsOverlapSpans[pair];
      chunk.overlapSpan =
        overlapStart < 0 ? null : { start: overlapStart, end: jsOverlapSpans[pair + 1] };
    }
    chunks[index] = chunk;
  }
  return chunks;
}

/**
 * The chunks that `chunker.bridge.pack_document_chunks` describes: each `content` a slice of
 * `text` at its span, the next ASCII text, or the next of `texts`; heading and metadata from
 * `extras`, in the original's key order.
 *
 * @param {string} text the content as given to `chunk`
 * @param {{count: number, texts: string[], extras: [number, string|null, object|null][],
 *   sections: [string, number][]}} packed
 * @param {Int32Array} ints the sections of chunker/bridge/packing.py's `DOCUMENT_SECTIONS`
 * @param {string} ascii begins with the contents that are ASCII and not slices, joined
 * @param {boolean} withSpans add `span`
 * @param {Int32Array} [known] as `unpackChunks`'
 */
export function unpackDocumentChunks(
  text, { count, texts, extras, sections }, ints, ascii, withSpans, known,
) {
  const { spans, content, tokenCounts, astral } = readSections(ints, sections);
  const counted = tokenCounts.length > 0;
  const jsSpans = toUtf16(spans, known ?? astral); // as JavaScript indices
  const chunks = new Array(count);
  let asciiAt = 0;
  let literal = 0;
  let extra = 0;
  for (let index = 0; index < count; index++) {
    const start = jsSpans[2 * index], end = jsSpans[2 * index + 1];
    const where = content[index];
    let chunkContent;
    if (where >= 0) chunkContent = ascii.slice(asciiAt, (asciiAt += where));
    else if (where === -1) chunkContent = text.slice(start, end);
    else chunkContent = texts[literal++];
    const chunk = { content: chunkContent, index };
    if (extras[extra]?.[0] === index) {
      const [, heading, metadata] = extras[extra++];
      if (heading !== null) chunk.heading = heading;
      if (metadata !== null) chunk.metadata = metadata;
    }
    if (counted) chunk.tokenCount = tokenCounts[index];
    if (withSpans) chunk.span = { start, end };
    chunks[index] = chunk;
  }
  return chunks;
}

/**
 * A packed reply's ints by section name: `sections` lists each section's name and length in
 * their order. Views of `ints`, not copies.
 *
 * @param {Int32Array} ints
 * @param {[string, number][]} sections
 * @returns {Object<string, Int32Array>}
 */
function readSections(ints, sections) {
  const named = {};
  let at = 0;
  for (const [name, length] of sections) named[name] = ints.subarray(at, (at += length));
  return named;
}

// The JSON replies whose offsets are Python's (code points), in JavaScript indices. Each
// reads where the characters outside the BMP are off the text the offsets index, which this
// page holds, or for a search hit's snippet in a text only the worker holds, off the count
// the worker sends (`astralBefore`).

/** `[{start, end} | null]` of `text` (matchSpans, locateChunks), converted in place. */
export function spansInUtf16(spans, text) {
  const astral = astralOf(text);
  if (!astral.length) return spans;
  const held = spans.filter((span) => span !== null);
  const offsets = toUtf16(held.flatMap(({ start, end }) => [start, end]), astral);
  held.forEach((span, number) => {
    span.start = offsets[2 * number];
    span.end = offsets[2 * number + 1];
  });
  return spans;
}

/** snippetAround's `{at, text}` of `text`, converted in place. */
export function snippetInUtf16(snippet, text) {
  snippet.at = toUtf16([snippet.at], astralOf(text))[0];
  return snippet;
}

/** chunkTurns' passages, each turn's span converted in place in its passage's text. */
export function passagesInUtf16(passages) {
  for (const passage of passages) spansInUtf16(passage.turns, passage.text);
  return passages;
}

/** A search's hits, each snippet as `{at, text, spans}` in JavaScript indices: `at` in the
 * hit's document, the spans in the snippet's text. */
export function hitsInUtf16(hits) {
  for (const hit of hits) {
    if (!hit.snippet) continue;
    const { at, text, spans, astralBefore } = hit.snippet;
    hit.snippet = { at: offsetToUtf16(at, astralBefore), text, spans: spansInUtf16(spans, text) };
  }
  return hits;
}
