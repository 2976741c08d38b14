// A demonstration embedding for the ChunkingEngine's semantic strategy, labelled as such on the
// page: no model, just counts of each sentence's words and letter trigrams, hashed into a
// small vector. Sentences that share words point the same way; the engine cuts where the
// cosine similarity of neighbours falls below 0.3. Deterministic, instant and offline.

const DIMENSIONS = 256;
// The browser's own idea of words, as a model has its own tokenizer: the chunker's rule
// (lexicalTokens) lives in Python, and a toy embedding needs no exact one.
const WORDS = new Intl.Segmenter('en', { granularity: 'word' });

// Very common English words would make every pair of sentences look alike.
const STOP_WORDS = new Set(('a an and are as at be by for from has have in is it its of on or '
  + 'that the their this to was were will with you your we our not can').split(' '));

/** Embed each sentence: `(sentences: string[]) => number[][]`, as `embedFn` is called. */
export function demoEmbed(sentences) {
  return sentences.map(embedOne);
}

function embedOne(sentence) {
  const vector = new Array(DIMENSIONS).fill(0);
  for (const { segment: word, isWordLike } of WORDS.segment(sentence.toLowerCase())) {
    if (!isWordLike || STOP_WORDS.has(word)) continue;
    vector[hash(word) % DIMENSIONS] += 2;
    // Trigrams let "refund" and "refunds" count as alike, as a real model would.
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i += 1) {
      vector[hash(padded.slice(i, i + 3)) % DIMENSIONS] += 1;
    }
  }
  return vector;
}

/** FNV-1a, 32-bit: a fast, well-spread hash of a short string. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
