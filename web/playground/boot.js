// Starting Python comes first. This module's own imports are few (the facade and the loading
// bar), and index.html loads it by itself before the rest of the playground, so the worker
// starts while the other modules are still being fetched.

import { loadChunker } from '../chunker.js';
import { createLoading } from './loading.js';

const $ = (id) => document.getElementById(id);

export const loading = createLoading({ box: $('loading'), bar: $('load-progress'),
  stage: $('load-stage'), time: $('load-time') });

// The tokenizer's loading, which the first call that counts starts after ready: for the token
// panel, not the loading bar (the page is ready by then).
const tokenizerListeners = new Set();
export const onTokenizerProgress = (listener) => tokenizerListeners.add(listener);
const progress = (report) => {
  if (report.stage !== 'tokenizer') loading.progress(report);
  else for (const listener of tokenizerListeners) listener(report);
};

// One promise for the loaded facade: tests wait on it, and so can anyone in the console.
window.chunkerReady = loadChunker({ onProgress: progress, timeoutMs: 60_000 });
