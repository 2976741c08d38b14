// For tests/bench/browser.py: Pyodide and the wheel as the facade's worker has them, but with
// the chunking timed inside Python, so the facade's own cost can be told apart.
// Message in: {text} (kept, in Python), then {runs} as often as wanted; out: 'kept', then the
// median milliseconds of SemanticChunker().chunk(text). The text crosses once: a 1 MB string
// sent and converted on every call left this worker's garbage beside the facade's calls it
// takes turns with, and slowed them (tests/bench/NOTES.md, "a facade call's overhead split").
import { loadPyodide } from '/pyodide/pyodide.mjs';
import bundle from '/bundle.js';

const pyodide = await loadPyodide({ indexURL: '/pyodide/', packages: ['micropip'] });
const wheelUrl = new URL(`/${bundle.wheel}`, location.href).href;
await pyodide.runPythonAsync(
  `import micropip\nawait micropip.install(${JSON.stringify(wheelUrl)}, deps=False)`,
);
const [keep, time] = pyodide.runPython(`
import statistics, time
from chunker import SemanticChunker

kept = {}

def keep(text):
    kept["text"] = text

def median_ms(runs):
    text = kept["text"]
    chunker = SemanticChunker()
    chunker.chunk(text)  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        chunker.chunk(text)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
(keep, median_ms)
`).toJs();
self.onmessage = ({ data }) => {
  if (data.text !== undefined) {
    keep(data.text);
    self.postMessage('kept');
  } else {
    self.postMessage(time(data.runs));
  }
};
self.postMessage('ready');
