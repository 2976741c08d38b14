#!/usr/bin/env node
// chunker-web-copy FOLDER: copies what the worker loads at run time (worker.js, pyodide/,
// wheels/) out of the installed package into FOLDER, which the site serves as static files.
// A bundler bundles chunker.js but none of these: Pyodide finds its files by name in one
// folder, and a bundler would rename them. The page then calls
// loadChunker({ baseUrl }) with the URL of FOLDER. Run before each build and dev run, so
// that the copy is always the installed version's (README, "Use it in your page").

import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// What the worker loads: its script (its modules bundled in), Pyodide and the wheel; and the
// compressed copies beside the script (worker.js.br, ...), for a server that sends those.
const LOADED = ['worker.js', 'pyodide', 'wheels'];
const USAGE = 'usage: chunker-web-copy FOLDER   (a folder of its own, e.g. public/chunker-web)';

const installed = dirname(fileURLToPath(import.meta.url));
const RUNTIME = readdirSync(installed).filter((name) =>
  LOADED.some((loaded) => name === loaded || name.startsWith(`${loaded}.`)),
);

const [folder, ...extra] = process.argv.slice(2);
if (folder === undefined || folder.startsWith('-') || extra.length) {
  console.error(USAGE);
  process.exit(2);
}
// The copy replaces the one before: the folder must be the copy's own, so that nothing else
// is deleted.
const others = existsSync(folder) ? readdirSync(folder).filter((n) => !RUNTIME.includes(n)) : [];
if (others.length) {
  console.error(`chunker-web-copy: ${folder} holds other files (${others.join(', ')})`);
  console.error(USAGE);
  process.exit(1);
}
for (const name of RUNTIME) {
  rmSync(join(folder, name), { recursive: true, force: true });
  cpSync(join(installed, name), join(folder, name), { recursive: true });
}
console.log(`chunker-web-copy: ${LOADED.join(', ')} copied into ${folder}`);
