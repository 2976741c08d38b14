// The facade's cold start: `window.bootedAt` is ms from navigation to `loadChunker()` ready.
import { loadChunker } from '/chunker.js';

window.booted = loadChunker().then((api) => {
  window.api = api;
  return (window.bootedAt = performance.now());
});
