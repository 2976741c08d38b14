// Search over your own documents, in the browser: cut, index, search, highlight.
// The chunker runs in a Web Worker (Pyodide); every call answers a Promise.

import { loadChunker } from '../chunker.js';

const $ = (id) => document.getElementById(id);
const api = await loadChunker({ baseUrl: '../' });

// 1. Load a few documents (same origin) and cut each into chunks.
const sources = ['../samples/handbook.md', '../samples/indexer-guide.md'];
const chunker = new api.SemanticChunker({ targetSize: 400, overlap: 0 });
const index = new api.LexicalIndex(); // BM25: k1 1.2, b 0.75 unless given
for (const source of sources) {
  const text = await (await fetch(source)).text();
  const docs = (await chunker.chunk(text)).map((chunk) => (
    { id: `${source}#${chunk.index}`, text: chunk.text, metadata: { source } }));
  // 2. Index the chunks; the index lives in the worker until index.dispose().
  await index.addDocuments(docs);
}
const { documentCount } = await index.stats();
$('status').textContent = `${documentCount} chunks indexed. Type to search.`;
$('query').disabled = false;

// 3. Search as the user types: the best 10, each with a snippet and its words marked.
let latest = 0;
async function search() {
  const mine = ++latest;
  const query = $('query').value;
  // One call answers the hits, each with its snippet (snippetAround of the chunk for the
  // query's words) and where those words fall in it (matchSpans).
  const hits = await index.search(query, 10, { prefix: $('prefix').checked, snippet: true });
  if (mine !== latest) return; // a newer search has begun
  $('status').textContent = query.trim() ? `${hits.length} hits` : '';
  $('hits').replaceChildren(
    ...hits.map(({ id, score, snippet }) => hitItem(id, score, snippet.text, snippet.spans)));
}
$('query').addEventListener('input', search);
$('prefix').addEventListener('change', search);

// 4. Draw a hit. Text goes in as text nodes, never as markup: a document holding
// "<img onerror=…>" shows those characters and runs nothing.
function hitItem(id, score, text, spans) {
  const snippet = document.createElement('p');
  let last = 0;
  for (const { start, end } of spans) {
    const mark = document.createElement('mark');
    mark.textContent = text.slice(start, end);
    snippet.append(text.slice(last, start), mark);
    last = end;
  }
  snippet.append(text.slice(last));
  const source = document.createElement('span');
  source.className = 'source';
  source.textContent = `${id} · score ${score.toFixed(2)}`;
  const item = document.createElement('li');
  item.append(source, snippet);
  return item;
}
