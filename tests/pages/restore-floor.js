// The floor under the facade's visits (tests/bench/browser.py --wire): Pyodide started from
// the chunker's snapshot (the one kept, else the one shipped) in a module worker, and nothing
// else.
// `window.booted` resolves to ms since navigation.
const worker = new Worker(new URL('restore-floor-worker.js', import.meta.url), { type: 'module' });
window.booted = new Promise((resolve, reject) => {
  worker.onmessage = ({ data }) =>
    data === true ? resolve(performance.now()) : reject(new Error(`restored: ${data}`));
  worker.onerror = (event) => reject(new Error(event.message));
});
