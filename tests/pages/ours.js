// The facade's cold start: `window.booted` resolves to ms from navigation to ready, and
// `window.api` is the facade then.
import { loadChunker } from '/chunker.js';

window.booted = loadChunker().then((api) => {
  window.api = api; // for the first calls after ready
  return performance.now();
});
