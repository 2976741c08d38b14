// For tests/bench/browser.py: Pyodide and the wheel as the facade's worker has them, but with
// the chunking timed inside Python, so the facade's own cost can be told apart.
// Message in: {text, runs}; out: the median milliseconds of SemanticChunker().chunk(text).
import { loadPyodide } from '/pyodide/pyodide.mjs';
import bundle from '/bundle.js';

const pyodide = await loadPyodide({ indexURL: '/pyodide/', packages: ['micropip'] });
const wheelUrl = new URL(`/${bundle.wheel}`, location.href).href;
await pyodide.runPythonAsync(
  `import micropip\nawait micropip.install(${JSON.stringify(wheelUrl)}, deps=False)`,
);
const time = pyodide.runPython(`
import statistics, time
from chunker import SemanticChunker

def median_ms(text, runs):
    chunker = SemanticChunker()
    chunker.chunk(text)  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        chunker.chunk(text)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
median_ms
`);
self.onmessage = ({ data }) => self.postMessage(time(data.text, data.runs));
self.postMessage('ready');
