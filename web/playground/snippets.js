// The current settings and text as code to run elsewhere: Python with the `chunker`
// package, and JavaScript with the facade. Both read the settings table, so they name every
// setting, and both cut the text on screen: a sample as it is, by its name; the user's text
// (typed, opened, from a link, or a sample edited) written into the code, unless too long.

import { settingsOf } from './settings.js';
import { readTranscript } from './turns-json.js';

// JSON's string syntax is also valid Python, for any text: its escapes (\n, \", \uXXXX)
// are Python's too, and what it leaves unescaped (U+2028, U+0085) a Python string may hold.
const quote = (text) => JSON.stringify(text);

// Longer texts make code too big to paste and read (some 2,000 lines of Markdown): the code
// reads them from a file, or from the page's text box, instead.
const TEXT_IN_CODE = 100_000;

/**
 * Where copied code takes the text from: 'sample' (the page's sample, by its name), 'inline'
 * (the text written into the code) or 'file' (too long for that: a file named for `source`,
 * from the text box in JavaScript). `source` is `{name, text, sample}`, `sample` true when
 * the text is the sample's own.
 */
export function textFrom(source) {
  if (source.sample) return 'sample';
  return source.text.length <= TEXT_IN_CODE ? 'inline' : 'file';
}

/** `text` as string literals, one for each of its lines (one literal for a text of none). */
function literalLines(text) {
  return text.match(/[^\n]*\n|[^\n]+$/g)?.map(quote) ?? [quote('')];
}

function pythonValue(value) {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'string' ? quote(value) : String(value);
}

/** The Python that sets `text`, and the standard modules it needs besides those of `mode`. */
function pythonText(source) {
  const from = textFrom(source);
  if (from === 'inline') {
    const lines = literalLines(source.text);
    // Literals side by side are one string in Python.
    const value = lines.length === 1 ? lines[0]
      : `(\n${lines.map((line) => `    ${line}`).join('\n')}\n)`;
    return { imports: [], code: `# The text in the page when this was copied.\ntext = ${value}` };
  }
  const note = from === 'file'
    ? `# The text in the page is too long to write here: save it as ${source.name}.\n` : '';
  // Python's text mode reads CR LF and CR as a line feed, as the page's text box holds them.
  return { imports: ['from pathlib import Path'],
    code: `${note}# read_text reads each line ending as "\\n", as the page did.\n`
      + `text = Path(${quote(source.name)}).read_text(encoding="utf-8")` };
}

/** How `text` holds its turns, as the page reads it (turns-json.js): 'list', 'one' or
 * 'lines'; 'list' for a text that is no transcript (the code then fails as the page did). */
function transcriptForm(text) {
  try {
    return readTranscript(text ?? '').form;
  } catch {
    return 'list';
  }
}

// The turns from the text, for each form of transcript, in Python and in JavaScript.
const PYTHON_TURNS = {
  list: 'turns = json.loads(text)',
  one: 'turns = [json.loads(text)]  # one turn alone',
  lines: '# JSON Lines: a turn a line, blank lines skipped.\n'
    + 'turns = [json.loads(line) for line in text.split("\\n") if line.strip()]',
};
const JS_TURNS = {
  list: 'const turns = JSON.parse(text);',
  one: 'const turns = [JSON.parse(text)]; // one turn alone',
  lines: '// JSON Lines: a turn a line, blank lines skipped.\n'
    + "const turns = text.split('\\n').filter((line) => line.trim()).map((line) => JSON.parse(line));",
};

// The token panel's options (tokens.js' `tokenOptions`), by their Python names.
const TOKEN_PYTHON = { tokenizer: 'tokenizer', maxTokens: 'max_tokens' };

/**
 * A Python script that cuts `source`'s text as the page does with `mode` and `values`, and
 * `tokens`, the token panel's options (`{tokenizer, maxTokens}`, either or none).
 */
export function pythonSnippet(mode, values, source, tokens = {}) {
  const args = (indent, skip = []) => [
    ...settingsOf(mode)
      .filter((setting) => !skip.includes(setting.name))
      .map((setting) => `${indent}${setting.python}=${pythonValue(values[setting.name])},`),
    ...Object.entries(tokens)
      .map(([name, value]) => `${indent}${TOKEN_PYTHON[name]}=${pythonValue(value)},`),
  ].join('\n');
  const text = pythonText(source);
  // The standard library's imports, `mode`'s and the text's, then a blank line.
  const stdlib = (...modules) => [...modules, ...text.imports]
    .map((line) => `${line}\n`).join('').replace(/\n$/, '\n\n');
  if (mode === 'semantic') {
    return `${stdlib()}from chunker import SemanticChunker

chunker = SemanticChunker(
${args('    ')}
)
${text.code}
for chunk in chunker.chunk(text):
    print(chunk.index, chunk.boundary_type, chunk.start_offset, chunk.end_offset)
`;
  }
  if (mode === 'engine') {
    const semantic = values.strategy === 'semantic';
    return `${stdlib()}from chunker import ChunkingEngine
${semantic ? `

def embed_fn(sentences):
    """Answer one vector per sentence: call your embedding model here."""
    raise NotImplementedError

` : ''}
${text.code}
chunks = ChunkingEngine().chunk(
    text,
${args('    ')}${semantic ? '\n    embed_fn=embed_fn,' : ''}
)
for chunk in chunks:
    print(chunk.index, len(chunk.content), chunk.heading)
`;
  }
  return `${stdlib('import json')}from chunker import chunk_turns

${text.code}
${PYTHON_TURNS[transcriptForm(source.text)]}
passages = chunk_turns(
    turns,
${args('    ')}
)
for passage in passages:
    print(passage.index, passage.first_seq, passage.last_seq, passage.item_ids)
`;
}

/** The JavaScript that sets `text`. */
function javascriptText(source) {
  const from = textFrom(source);
  if (from === 'sample') {
    return `const text = await (await fetch(new URL(${quote(`samples/${source.name}`)}, `
      + 'location.href))).text();';
  }
  if (from === 'file') {
    return '// The text in the page\'s text box (too long to write here): put your own text here.'
      + "\nconst text = document.getElementById('text').value;";
  }
  const lines = literalLines(source.text);
  const value = lines.length === 1 ? lines[0]
    : `[\n${lines.map((line) => `  ${line},`).join('\n')}\n].join('')`;
  return `// The text in the page when this was copied.\nconst text = ${value};`;
}

// What the JavaScript calls in each mode, and what it logs of the answer.
const JS_CALLS = {
  semantic: { name: 'chunks', call: (options) => `new api.SemanticChunker(${options}).chunk(text)`,
    log: '(c) => [c.index, c.boundaryType, c.startOffset, c.endOffset]' },
  engine: { name: 'chunks', call: (options) => `new api.ChunkingEngine().chunk(text, ${options})`,
    log: '(c) => [c.index, c.content.length, c.heading]' },
  turns: { name: 'passages', call: (options) => `api.chunkTurns(turns, ${options})`,
    log: '(p) => [p.index, p.firstSeq, p.lastSeq, p.itemIds]' },
};

/**
 * JavaScript that does the same through the facade, written to run as pasted into the console
 * of this page (a dynamic `import()`, URLs from the page's own) and in a page of one's own.
 * It starts a worker and closes it when done: each worker holds a Python of its own until it
 * is closed. `source` is `{name, text, sample}`, as for `textFrom`; `tokens` as for
 * `pythonSnippet`.
 */
export function javascriptSnippet(mode, values, source, tokens = {}) {
  const semantic = mode === 'engine' && values.strategy === 'semantic';
  const entries = [...settingsOf(mode).map((setting) => [setting.name, values[setting.name]]),
    ...Object.entries(tokens)];
  const options = `{\n${entries
    .map(([name, value]) => `    ${name}: ${JSON.stringify(value)},`)
    .join('\n')}${semantic ? '\n    embedFn,' : ''}\n  }`;
  const { name, call, log } = JS_CALLS[mode];
  return `const { loadChunker } = await import(new URL('chunker.js', location.href));
${semantic ? `// The page's demonstration embedding: call your embedding model here instead.
const { demoEmbed: embedFn } = await import(
  new URL('playground/demo-embedding.js', location.href));
` : ''}${javascriptText(source)}
${mode === 'turns' ? `${JS_TURNS[transcriptForm(source.text)]}\n` : ''}// One worker, one Python: in a page of your own, load it once, use \`api\` for every call,
// and close it when done.
const api = await loadChunker();
let ${name};
try {
  ${name} = await ${call(options)};
} finally {
  api.close();
}
console.log(${name}.map(${log}));
`;
}
