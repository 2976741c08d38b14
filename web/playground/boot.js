// Starting Python comes first. This module's own imports are few (the facade and the loading
// bar), and index.html loads it by itself before the rest of the playground, so the worker
// starts while the other modules are still being fetched.

import { loadChunker } from '../chunker.js';
import { createLoading } from './loading.js';

const $ = (id) => document.getElementById(id);

export const loading = createLoading({ box: $('loading'), bar: $('load-progress'),
  stage: $('load-stage'), time: $('load-time') });

// One promise for the loaded facade: tests wait on it, and so can anyone in the console.
window.chunkerReady = loadChunker({ onProgress: loading.progress, timeoutMs: 60_000 });
