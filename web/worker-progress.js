// The worker's loading progress, as it happens: the bytes of its downloads, then each stage
// as it starts. Stages come in this order, each once, and the fraction never falls:
//
//   download  the runtime's WebAssembly, its standard library and the memory snapshot (or
//             the wheel, for a boot), by bytes
//   compile   every byte is here; the WebAssembly compiles (it began as it streamed in)
//   restore   Python's memory, from the snapshot, is put back in place, or
//   boot      Python starts (no snapshot could be had)
//   unpack    chunker's files are written into Python's file system
//   import    Python imports chunker.bridge (not after a restore: that is in the memory)
//
// A restore that fails goes on with a boot: 'boot' follows 'restore' (fallBack), and the
// bytes of the boot's downloads are counted anew.
//
// chunker-messages.js adds 'ready' (fraction 1) when the worker says it is ready.

// Where each stage starts on the bar. Downloading is most of a first visit on a real
// network, and boot the most of the rest; a restore takes the boot's place.
const STARTS = { download: 0, compile: 0.55, boot: 0.65, restore: 0.65, unpack: 0.85, import: 0.9 };
const ORDER = ['download', 'compile', 'boot', 'unpack', 'import'];
const rank = (stage) => ORDER.indexOf(stage === 'restore' ? 'boot' : stage);

// Reports closer than this add nothing a bar can show and cost a message each.
const STEP = 0.01;

/**
 * A progress reporter posting `{type: 'progress', stage, fraction, message}` with `post`.
 *
 * @param {(message: object) => void} post
 */
export function createProgress(post) {
  let current = -1;
  let fraction = 0;
  const send = (stage, message) => post({ type: 'progress', stage, fraction, message });

  /** Enter `stage` (a later one than the current stage; an earlier one is ignored). */
  function enter(stage, message) {
    if (rank(stage) <= current) return;
    current = rank(stage);
    fraction = Math.max(fraction, STARTS[stage]);
    send(stage, message);
  }

  /**
   * Follow the downloads `expected` ({url: bytes}, the sizes the build wrote in bundle.js)
   * through `self.fetch`, until each has ended: answers `{fetch, done}`. `fetch` is to be
   * `self.fetch` while Pyodide issues its requests (it reads the global as it does); `done`
   * restores the original. The body is counted on a clone, so the response Pyodide gets is
   * the browser's own, which keeps its compiled WebAssembly cached between visits.
   *
   * @param {Record<string, number>} expected
   */
  function follow(expected) {
    const original = self.fetch;
    const fetchOriginal = original.bind(self);
    const total = Object.values(expected).reduce((a, b) => a + b, 0);
    const received = new Map(Object.keys(expected).map((url) => [url, 0]));
    let ended = 0;
    const megabytes = (bytes) => (bytes / 1e6).toFixed(1);
    let reported = -1; // the bytes the last report counted
    const update = () => {
      if (current > rank('download')) return;
      const sum = [...received.values()].reduce((a, b) => a + b, 0);
      if (sum === reported) return;
      const next = STARTS.compile * Math.min(1, sum / total);
      // Small steps are left out, but never the first nor the whole.
      if (current < 0 || next - fraction >= STEP || sum >= total) {
        reported = sum;
        current = rank('download');
        fraction = Math.max(fraction, next);
        send('download', `Downloading Python: ${megabytes(sum)} of ${megabytes(total)} MB`);
      }
    };
    const count = async (url, response) => {
      try {
        const reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          received.set(url, received.get(url) + value.byteLength);
          update();
        }
      } catch {
        // A failed download fails its user too, which says why; the bar just stops here.
        return;
      }
      received.set(url, Math.max(received.get(url), expected[url]));
      update();
      if (++ended === received.size) enter('compile', 'Compiling the Python runtime…');
    };
    update();
    return {
      fetch(input, init) {
        const promise = fetchOriginal(input, init);
        const url = new URL(input instanceof Request ? input.url : input, location.href).href;
        if (received.has(url)) {
          promise.then((response) => response.ok && count(url, response.clone()), () => {});
        }
        return promise;
      },
      /** Watch `response` too (a download the worker makes itself, of an expected url). */
      watch(url, response) {
        if (received.has(url) && response.ok) count(url, response.clone());
      },
      done() {
        self.fetch = original;
      },
    };
  }

  /** A restore failed: the start goes on with 'boot', and the stages after it again (the
   * fraction stays where it was, and rises from there). */
  function fallBack() {
    current = Math.min(current, rank('compile'));
  }

  return { enter, follow, fallBack };
}
