// The floor of any package that micropip installs: Pyodide booted from the site's runtime in a
// module worker, micropip loaded, imported and installing a wheel of one empty module, as the
// facade's worker does for chunker (tests/bench/browser.py serves that wheel at /_wheel/).
// `window.booted` resolves to ms since navigation.
const worker = new Worker(new URL('micropip-worker.js', import.meta.url), { type: 'module' });
window.booted = new Promise((resolve, reject) => {
  worker.onmessage = () => resolve(performance.now());
  worker.onerror = (event) => reject(new Error(event.message));
});
