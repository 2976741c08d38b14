// Times the original (@framers/agentos@0.9.164) on one input, for tests/bench/core.py.
//   node original.mjs ORACLE_DIR INPUT_FILE TASK RUNS
// TASK is "semantic" (SemanticChunker, defaults) or an engine strategy name. Prints a JSON
// object: the chunk count and the milliseconds of each run, after one warm-up run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [oracle, inputFile, task, runs] = process.argv.slice(2);
const dist = join(oracle, 'package', 'dist', 'cognition');
const { SemanticChunker } = await import(
  pathToFileURL(join(dist, 'rag', 'chunking', 'SemanticChunker.js')).href);
const { ChunkingEngine } = await import(
  pathToFileURL(join(dist, 'memory', 'io', 'ingestion', 'ChunkingEngine.js')).href);

const text = readFileSync(inputFile, 'utf8');
const once = task === 'semantic'
  ? async () => new SemanticChunker().chunk(text)
  : async () => new ChunkingEngine().chunk(text, { strategy: task });

let count = (await once()).length;
const ms = [];
for (let i = 0; i < Number(runs); i++) {
  const start = performance.now();
  count = (await once()).length;
  ms.push(performance.now() - start);
}
console.log(JSON.stringify({ count, ms }));
