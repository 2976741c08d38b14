// Build step (not part of the site): brotli-compress files at the highest quality, once
// (tools/precompress.py keeps the results by content), with Node's own zlib: Python's
// standard library has no brotli.
//
//   node brotli.mjs IN OUT [IN OUT ...]
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';

const pairs = process.argv.slice(2);
for (let i = 0; i < pairs.length; i += 2) {
  const [input, output] = pairs.slice(i, i + 2);
  const data = readFileSync(input);
  const params = {
    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
  };
  // Written whole or not at all: build.py takes any file it finds as done.
  writeFileSync(`${output}.part`, brotliCompressSync(data, { params }));
  renameSync(`${output}.part`, output);
}
