// ours.js for the site a benchmark serves at /_before/ (`--before SITE`: another commit's),
// so that the two cold starts are measured the same way, side by side.
import { loadChunker } from '/_before/chunker.js';

window.booted = loadChunker({ baseUrl: '/_before/' }).then((api) => {
  window.api = api; // for the first calls after ready
  return performance.now();
});
