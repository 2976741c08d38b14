// The facade's cold start: `window.booted` resolves to ms from navigation to ready.
import { loadChunker } from '/chunker.js';

window.booted = loadChunker().then(() => performance.now());
