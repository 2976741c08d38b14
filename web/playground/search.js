// Search the chunks, ranked: the worker indexes the current chunks (api.LexicalIndex, BM25
// over the words of lexicalTokens) and answers the best hits for the query, each with its
// snippet (snippetAround) and where its matching words are (matchSpans), which the page
// marks. What a word is, and when one matches, is decided in Python alone.

import { el } from './dom.js';
import { formatCount } from './format.js';

const DEBOUNCE_MS = 150;
const SHOWN = 20;
const SNIPPET = { before: 60, after: 140 };

export function createSearch({ input, matchAll, prefix, tokensOut, countOut, resultsOut,
  onSelect }) {
  let api = null;
  let chunks = [];
  let index = null; // {chunks, ready}: the index of `chunks` (ready: a Promise of it)
  let generation = 0;
  let timer = 0;

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(search, DEBOUNCE_MS);
  });
  matchAll.addEventListener('change', search);
  prefix.addEventListener('change', search);
  // Indexing a large document takes a moment: begin when the user may be about to search.
  input.addEventListener('focus', () => {
    if (api) indexed().catch(() => {}); // a failure shows with the search that needs it
  });
  resultsOut.addEventListener('click', (event) => {
    const hit = event.target.closest?.('[data-index]');
    if (hit) onSelect(Number(hit.dataset.index));
  });

  function search() {
    run().catch((error) => {
      tokensOut.replaceChildren(`Search failed: ${error.message}`);
      countOut.replaceChildren();
      console.error(error);
    });
  }

  /** The index of the current chunks: made when first needed after they changed. */
  function indexed() {
    if (index?.chunks === chunks) return index.ready;
    const old = index;
    const started = performance.now();
    const made = new api.LexicalIndex();
    const docs = chunks.map((chunk) => ({ id: chunk.key, text: chunk.text }));
    const ready = made.addDocuments(docs).then(() => {
      document.body.dataset.indexMs = Math.round(performance.now() - started);
      return made;
    });
    index = { chunks, ready };
    // The worker frees the old one (an index never made has nothing to free) once the new
    // one is made: freeing a large index takes a while, which indexing need not wait for.
    const free = () => old?.ready.then((previous) => previous.dispose(), () => {});
    ready.then(free, free);
    return ready;
  }

  async function run() {
    const mine = ++generation;
    const started = performance.now();
    const query = input.value;
    if (!api || !query.trim()) {
      tokensOut.replaceChildren();
      countOut.replaceChildren();
      resultsOut.replaceChildren();
      return;
    }
    const options = { match: matchAll.checked ? 'all' : 'any', prefix: prefix.checked };
    const searched = chunks;
    // The hits come with their snippets and the spans of their matching words: one round
    // trip to the worker for all the page draws (tests/bench/search.py: query drawn).
    const [tokens, hits] = await Promise.all([
      api.lexicalTokens(query),
      indexed().then((ready) => ready.search(query, SHOWN, { ...options, snippet: SNIPPET })),
    ]);
    if (mine !== generation) return;
    // Drawn at once, words and hits: each change to the page costs it a layout.
    const words = tokens.length
      ? ['Words: ', ...tokens.map((token) => el('code', { className: 'token' }, token))]
      : ['No words in the query: a word starts with a letter or a digit.'];
    const count = !tokens.length ? ''
      : hits.length ? `The best ${formatCount(hits.length)} of ${formatCount(searched.length)} chunks`
        : `No chunk holds ${options.match === 'all' ? 'all of ' : ''}these words`;
    const byKey = new Map(hits.length ? searched.map((chunk) => [chunk.key, chunk]) : []);
    // A hit the chunks searched do not hold came from an index an edit changed meanwhile:
    // not drawn (the search the edit started draws the chunks it holds).
    const items = hits.filter(({ id }) => byKey.has(id)).map(({ id, score, snippet }) => {
      const chunk = byKey.get(id);
      return el('li', {},
        el('button', { type: 'button', className: 'hit', dataset: { index: chunk.index } },
          el('span', { className: 'hit-head' }, `${chunk.index} · ${chunk.label}`,
            el('span', { className: 'hit-score' }, `score ${score.toFixed(3)}`)),
          el('span', { className: 'hit-snippet' }, ...marked(snippet.text, snippet.spans))));
    });
    tokensOut.replaceChildren(...words);
    countOut.textContent = count;
    resultsOut.replaceChildren(...items);
    // From the search's start to the hits drawn; tests and the benchmark read these.
    document.body.dataset.searchMs = Math.round(performance.now() - started);
    document.body.dataset.searches = Number(document.body.dataset.searches ?? 0) + 1;
  }

  return {
    setApi(newApi) { api = newApi; },
    /**
     * New chunks: their index is made again, and the query in the box searched again. Chunks
     * the same as those shown (a setting's step often moves no cut) keep the index and the
     * hits: indexing 1 MB again costs the worker more than the step's own call.
     */
    setChunks(newChunks) {
      // Only chunks already indexed have an index and hits to keep.
      if (index?.chunks === chunks && sameChunks(chunks, newChunks)) return;
      chunks = newChunks;
      if (input.value.trim()) search();
    },
    /**
     * The chunks after an edit of the text (a LiveDocument's): of those indexed, `removed`
     * leave the index and `added` join it, under their keys; the others stay as indexed (a
     * chunk keeps its key when an edit moves it). Indexing 5 MB again at each key would keep
     * the worker busy for seconds.
     */
    editChunks(newChunks, removed, added) {
      if (index?.chunks === chunks) {
        const docs = added.map((chunk) => ({ id: chunk.key, text: chunk.text }));
        const ready = index.ready.then(async (made) => {
          await Promise.all([...removed.map((chunk) => made.removeDocument(chunk.key)),
            docs.length ? made.addDocuments(docs) : null]);
          // Tests and the benchmark read these.
          document.body.dataset.indexEditedAt = performance.now();
          document.body.dataset.indexEdits = Number(document.body.dataset.indexEdits ?? 0) + 1;
          return made;
        });
        ready.catch(() => {}); // shown by the search that needs it
        index = { chunks: newChunks, ready };
      }
      chunks = newChunks;
      if (input.value.trim()) search();
    },
  };
}

/** Whether two lists of chunks index and show alike: the same texts, in order, so labelled. */
function sameChunks(shown, chunks) {
  return shown.length === chunks.length && chunks.every((chunk, i) => chunk.text === shown[i].text
    && chunk.label === shown[i].label && chunk.index === shown[i].index
    && chunk.key === shown[i].key);
}

/** `text` as text nodes, each of `spans` ({start, end}, in order) wrapped in `<mark>`. */
function marked(text, spans) {
  const nodes = [];
  let last = 0;
  for (const { start, end } of spans) {
    nodes.push(text.slice(last, start), el('mark', {}, text.slice(start, end)));
    last = end;
  }
  nodes.push(text.slice(last));
  return nodes;
}
