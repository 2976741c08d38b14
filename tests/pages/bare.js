// The floor of the cold-start benchmark: Pyodide alone, booted in a module worker as the
// facade boots it, with nothing installed. `window.booted` resolves to ms since navigation.
const worker = new Worker(new URL('bare-worker.js', import.meta.url), { type: 'module' });
window.booted = new Promise((resolve, reject) => {
  worker.onmessage = () => resolve(performance.now());
  worker.onerror = (event) => reject(new Error(event.message));
});
