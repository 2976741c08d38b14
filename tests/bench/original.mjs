// Times the original (@framers/agentos@0.9.164) on one input, for tests/bench/core.py.
//   node original.mjs ORACLE_DIR INPUT_FILE TASK RUNS SECONDS
// TASK is "semantic" (SemanticChunker, defaults) or an engine strategy name. Prints a JSON
// object: the chunk count, the first call's milliseconds in this fresh process, and the
// median milliseconds of the timed runs (and their number) in steady state: V8 compiles the hot code only after some
// runs, so the runs are timed after SECONDS of warm-up calls, and go on until both RUNS runs
// and SECONDS have passed (the same rule as core.py's `steady_seconds` for ours).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [oracle, inputFile, task, runs, seconds] = process.argv.slice(2);
const dist = join(oracle, 'package', 'dist', 'cognition');
const { SemanticChunker } = await import(
  pathToFileURL(join(dist, 'rag', 'chunking', 'SemanticChunker.js')).href);
const { ChunkingEngine } = await import(
  pathToFileURL(join(dist, 'memory', 'io', 'ingestion', 'ChunkingEngine.js')).href);

const text = readFileSync(inputFile, 'utf8');
const once = task === 'semantic'
  ? async () => new SemanticChunker().chunk(text)
  : async () => new ChunkingEngine().chunk(text, { strategy: task });

let count = 0;
async function timed() {
  const start = performance.now();
  count = (await once()).length;
  return performance.now() - start;
}

const first = await timed();
const atLeastMs = Number(seconds) * 1000;
for (let warm = 0; warm < atLeastMs; ) warm += await timed();
const ms = [];
for (let total = 0; ms.length < Number(runs) || total < atLeastMs; ) {
  ms.push(await timed());
  total += ms.at(-1);
}
ms.sort((a, b) => a - b);
const half = ms.length >> 1;
const median = ms.length % 2 ? ms[half] : (ms[half - 1] + ms[half]) / 2;
console.log(JSON.stringify({ count, first, median, runs: ms.length }));
