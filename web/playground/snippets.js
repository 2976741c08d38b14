// The current settings as code to run elsewhere: Python with the `chunkspan` package, and
// JavaScript with the facade. Both read the settings table, so they name every setting.

import { settingsOf } from './settings.js';

// JSON's string syntax is also valid Python for any text a file name can hold.
const quote = (text) => JSON.stringify(text);

function pythonValue(value) {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'string' ? quote(value) : String(value);
}

/** A Python script that cuts `fileName` as the page does with `mode` and `values`. */
export function pythonSnippet(mode, values, fileName) {
  const args = (indent, skip = []) => settingsOf(mode)
    .filter((setting) => !skip.includes(setting.name))
    .map((setting) => `${indent}${setting.python}=${pythonValue(values[setting.name])},`)
    .join('\n');
  const read = `Path(${quote(fileName)}).read_text(encoding="utf-8")`;
  if (mode === 'semantic') {
    return `from pathlib import Path

from chunkspan import SemanticChunker

chunker = SemanticChunker(
${args('    ')}
)
text = ${read}
for chunk in chunker.chunk(text):
    print(chunk.index, chunk.boundary_type, chunk.start_offset, chunk.end_offset)
`;
  }
  if (mode === 'engine') {
    const semantic = values.strategy === 'semantic';
    return `from pathlib import Path

from chunkspan import ChunkingEngine
${semantic ? `

def embed_fn(sentences):
    """Answer one vector per sentence: call your embedding model here."""
    raise NotImplementedError

` : ''}
text = ${read}
chunks = ChunkingEngine().chunk(
    text,
${args('    ')}${semantic ? '\n    embed_fn=embed_fn,' : ''}
)
for chunk in chunks:
    print(chunk.index, len(chunk.content), chunk.heading)
`;
  }
  return `import json
from pathlib import Path

from chunkspan import chunk_turns

turns = json.loads(${read})
passages = chunk_turns(
    turns,
${args('    ')}
)
for passage in passages:
    print(passage.index, passage.first_seq, passage.last_seq, passage.item_ids)
`;
}

/**
 * JavaScript that does the same through the facade, written to run as pasted into the console
 * of this page (a dynamic `import()`, URLs from the page's own): a sample is fetched from
 * where the page has it; text typed or opened here has no URL, so it is read from the page's
 * text box. Elsewhere, change those lines. `source` is `{name, sample}`.
 */
export function javascriptSnippet(mode, values, source) {
  const options = settingsOf(mode)
    .map((setting) => `  ${setting.name}: ${JSON.stringify(values[setting.name])},`)
    .join('\n');
  const text = source.sample
    ? `await (await fetch(new URL(${quote(`samples/${source.name}`)}, location.href))).text()`
    : "document.getElementById('text').value";
  const head = `const { loadChunker } = await import(new URL('chunker.js', location.href));
const api = await loadChunker();
${source.sample ? '' : '// The text in the page\'s text box: put your own text here.\n'}`;
  if (mode === 'semantic') {
    return `${head}const text = ${text};
const chunks = await new api.SemanticChunker({
${options}
}).chunk(text);
console.log(chunks.map((c) => [c.index, c.boundaryType, c.startOffset, c.endOffset]));
`;
  }
  if (mode === 'engine') {
    const semantic = values.strategy === 'semantic';
    return `${head}${semantic ? `// The page's demonstration embedding: call your embedding model here instead.
const { demoEmbed: embedFn } = await import(
  new URL('playground/demo-embedding.js', location.href));
` : ''}const text = ${text};
const chunks = await new api.ChunkingEngine().chunk(text, {
${options}${semantic ? '\n  embedFn,' : ''}
});
console.log(chunks.map((c) => [c.index, c.content.length, c.heading]));
`;
  }
  return `${head}const turns = JSON.parse(${text});
const passages = await api.chunkTurns(turns, {
${options}
});
console.log(passages.map((p) => [p.index, p.firstSeq, p.lastSeq, p.itemIds]));
`;
}
