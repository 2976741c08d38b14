// Search the chunks as a lexical index would: the query's words from lexicalTokens, and for
// each chunk holding a word that begins with one of them, its snippet from snippetAround with
// the matching words marked. Both functions run in Python; the page only draws.

import { el } from './dom.js';
import { formatCount } from './format.js';
import { WORD_RE, fold } from './words.js';

const DEBOUNCE_MS = 150;

// As snippetAround compares: folded, final sigma as sigma (lower case picks ς or σ from what
// follows a word, so the same Greek word can fold either way).
const comparable = (text) => fold(text).replaceAll('ς', 'σ');
const SHOWN = 100;
// Calls in flight at once: enough to keep the worker busy between round trips.
const BATCH = 128;

export function createSearch({ input, tokensOut, resultsOut, onSelect }) {
  let api = null;
  let chunks = [];
  let folded = null;
  let generation = 0;
  let timer = 0;

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(search, DEBOUNCE_MS);
  });
  resultsOut.addEventListener('click', (event) => {
    const hit = event.target.closest?.('[data-index]');
    if (hit) onSelect(Number(hit.dataset.index));
  });

  function search() {
    run().catch((error) => {
      tokensOut.replaceChildren(`Search failed: ${error.message}`);
      console.error(error);
    });
  }

  async function run() {
    const mine = ++generation;
    const query = input.value;
    if (!api || !query.trim()) {
      tokensOut.replaceChildren();
      resultsOut.replaceChildren();
      return;
    }
    const tokens = await api.lexicalTokens(query);
    if (mine !== generation) return;
    tokensOut.replaceChildren(...(tokens.length
      ? ['Words: ', ...tokens.map((token) => el('code', { className: 'token' }, token))]
      : ['No words in the query: a word starts with a letter or a digit.']));
    if (!tokens.length) {
      resultsOut.replaceChildren();
      return;
    }
    // A chunk can only match if a token appears in its folded text: only those are asked.
    folded ??= chunks.map((chunk) => comparable(chunk.text));
    const prefixes = tokens.map(comparable);
    const candidates = chunks.filter((_, i) => prefixes.some((p) => folded[i].includes(p)));
    const hits = [];
    const count = el('li', { className: 'hits-count' },
      `0 of ${formatCount(chunks.length)} chunks match`);
    let listed = false;
    const list = () => {
      listed = true;
      resultsOut.replaceChildren(count, ...hits.slice(0, SHOWN).map(([chunk, snippet]) => el('li', {},
        el('button', { type: 'button', className: 'hit', dataset: { index: chunk.index } },
          el('span', { className: 'hit-head' }, `${chunk.index} · ${chunk.label}`),
          el('span', { className: 'hit-snippet' }, ...marked(snippet.text, prefixes))))));
    };
    for (let i = 0; i < candidates.length; i += BATCH) {
      const batch = candidates.slice(i, i + BATCH);
      const snippets = await Promise.all(batch.map((chunk) => api.snippetAround(chunk.text, tokens,
        { before: 60, after: 140 })));
      if (mine !== generation) return;
      snippets.forEach((snippet, j) => { if (snippet.at >= 0) hits.push([batch[j], snippet]); });
      // Thousands of chunks take a while: the first screenful shows as soon as it is found.
      const done = i + BATCH >= candidates.length;
      count.textContent = `${formatCount(hits.length)} of ${formatCount(chunks.length)} chunks match`
        + (done ? '' : ` so far (searching ${formatCount(i + batch.length)} of `
          + `${formatCount(candidates.length)} candidates)`)
        + (done && hits.length > SHOWN ? `; the first ${SHOWN} are listed` : '');
      if (!listed && (done || hits.length >= SHOWN)) list();
    }
    if (!listed) list();
  }

  return {
    setApi(newApi) { api = newApi; },
    /** New chunks: search them again for the query in the box. */
    setChunks(newChunks) {
      chunks = newChunks;
      folded = null;
      search();
    },
  };
}

/** `text` as nodes, each word beginning with one of `prefixes` wrapped in `<mark>`. */
function marked(text, prefixes) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(WORD_RE)) {
    const word = comparable(match[0]);
    if (!prefixes.some((prefix) => word.startsWith(prefix))) continue;
    nodes.push(text.slice(last, match.index), el('mark', {}, match[0]));
    last = match.index + match[0].length;
  }
  nodes.push(text.slice(last));
  return nodes;
}
