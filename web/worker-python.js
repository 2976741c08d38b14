// What a first start does in Python once Pyodide has booted: the chunker wheel unpacked into
// site-packages, chunker.bridge imported. One definition for the worker (worker.js) and for
// the build, which does the same under Node and ships a memory snapshot of the result
// (snapshot-make.mjs): the snapshot holds exactly the state a first visit's worker reaches.

/**
 * Unpack `wheel` (its bytes) into site-packages; answers site-packages' path.
 *
 * The wheel has no dependencies and nothing to build, so it only needs unpacking: Pyodide's
 * own unpacker does that (the zipfile module it uses is already imported as Pyodide boots).
 * micropip would first be loaded and imported (its vendored `packaging` compiles regexes as
 * it loads), and Pyodide's loader by URL wraps the same unpacking in more work (tests/bench/
 * browser.py, the cold start; tests/bench/NOTES.md, "how the worker installs the wheel"). A
 * page bringing its own Pyodide may still install this wheel with micropip (docs/browser.md,
 * "A page with its own Pyodide").
 */
export function installWheel(pyodide, wheel) {
  const sitePackages = pyodide.runPython('import site; site.getsitepackages()[0]');
  pyodide.unpackArchive(wheel, 'wheel', { extractDir: sitePackages });
  return sitePackages;
}

/**
 * Import chunker.bridge.
 *
 * The import makes tens of thousands of objects that live as long as the worker: the
 * collector would walk them several times over and free none, so it waits until they are
 * made, then freezes them, so that no later collection walks them either (tests/bench/
 * browser.py, the cold start). The finders' caches may have listed site-packages empty as
 * Python started.
 */
export function importBridge(pyodide) {
  pyodide.runPython(`
import gc, importlib
gc.disable()
try:
    importlib.invalidate_caches()
    import chunker.bridge
finally:
    gc.freeze()
    gc.enable()
`);
}
