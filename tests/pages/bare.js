// The floor of the cold-start benchmark: Pyodide alone, booted in a module worker as the
// facade boots it, with nothing installed. `?runtime=/_stock/` boots the npm package's files
// as shipped instead of the site's (whose standard library build.py compiled).
// `window.booted` resolves to ms since navigation.
const worker = new Worker(new URL(`bare-worker.js${location.search}`, import.meta.url), {
  type: 'module',
});
window.booted = new Promise((resolve, reject) => {
  worker.onmessage = () => resolve(performance.now());
  worker.onerror = (event) => reject(new Error(event.message));
});
