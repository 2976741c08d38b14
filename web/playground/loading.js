// The loading bar: the stage Python is at, how far along, and the time taken, counted from
// navigation (performance.now()'s zero) so it is the time a visitor waits.

const STAGES = { download: 'Downloading Python', compile: 'Compiling the Python runtime',
  boot: 'Starting Python', restore: 'Restoring Python', unpack: 'Installing chunker',
  import: 'Importing chunker', ready: 'Ready' };

export function createLoading({ box, bar, stage, time }) {
  const seconds = () => `${(performance.now() / 1000).toFixed(1)} s`;
  const tick = setInterval(() => { time.textContent = seconds(); }, 100);
  return {
    /** `onProgress` for loadChunker: `{stage, fraction, message}`. */
    progress({ stage: name, fraction, message }) {
      if (Number.isFinite(fraction)) bar.value = fraction;
      stage.textContent = message || STAGES[name] || name || 'Loading…';
    },
    /** Python is ready: say how long it took, in milliseconds. */
    ready() {
      clearInterval(tick);
      const ms = performance.now();
      bar.value = 1;
      stage.textContent = 'Ready';
      time.textContent = `in ${seconds()}`;
      box.classList.add('ready');
      return ms;
    },
    failed(error) {
      clearInterval(tick);
      box.classList.add('failed');
      stage.textContent = `Python could not start: ${error.message}`;
      time.textContent = `after ${seconds()}. Reload the page to try again.`;
    },
  };
}
