// chunker.js's messaging with its Web Worker (worker.js says what each message holds): start
// it, wait for it to be ready, send each call and settle its promise with the reply, ask the
// page's embedFn when the worker asks, and end every call when the worker ends.

import { inputError, readReply } from './chunker-replies.js';

/**
 * Start the module worker at `workerUrl` and answer `{ready, call, close}`: `ready` resolves
 * to the worker's `{versions, bootMs}`, or rejects when it fails or is not ready by
 * `timeoutMs`; `call(operation, args, {textKey, embedFn, finish, tokens})` answers a call's
 * promise; `close(error)` ends the worker, every later call rejecting with `error`.
 *
 * @param {URL} workerUrl
 * @param {{report: (progress: object) => void, timeoutMs: number}} options
 */
export function startWorker(workerUrl, { report, timeoutMs }) {
  const worker = new Worker(workerUrl, { type: 'module', name: 'chunker' });
  const calls = new Map(); // id -> {resolve, reject, embedFn, embedError, finish}
  let nextId = 1;
  let broken = null; // the error that ended the worker, once it has ended
  // The text the last call with a text sent. A call on the same text again (the playground
  // re-chunks its document at each change of a setting) sends none: the worker keeps the
  // last one it received, and messages arrive in the order they were sent. Comparing a text
  // with the last one costs nothing when it is the same string and little when it is an equal
  // copy, far less than sending it and decoding it in Python (tests/bench/browser.py, "again").
  let lastText;

  const fail = (error) => {
    broken = error;
    worker.terminate();
    for (const call of calls.values()) call.reject(error);
    calls.clear();
  };

  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new Error(
        `chunker: not ready after ${timeoutMs} ms (loading ${workerUrl}); check that the ` +
          `server sends .wasm as application/wasm, .js/.mjs as text/javascript, and a CSP ` +
          `allowing 'wasm-unsafe-eval'`,
      );
      fail(error);
      reject(error);
    }, timeoutMs);
    worker.onerror = async (event) => {
      // The timer still runs: a server that never answers is then a timeout, as before.
      const reason = event.message || (await whyNotLoaded(workerUrl));
      if (broken) return; // the timer fired meanwhile
      const error = new Error(`chunker: the worker ${workerUrl} failed: ${reason}`);
      clearTimeout(timer);
      fail(error);
      reject(error);
    };
    worker.onmessage = ({ data }) => {
      if (data.type === 'progress') {
        report({ stage: data.stage, fraction: data.fraction, message: data.message });
      } else if (data.type === 'ready') {
        clearTimeout(timer);
        report({ stage: 'ready', fraction: 1, message: `Ready in ${data.bootMs} ms` });
        worker.onerror = (event) => fail(new Error(`chunker: the worker stopped: ${event.message}`));
        resolve({ versions: data.versions, bootMs: data.bootMs });
      } else if (data.type === 'failed') {
        // The timer still runs while the server is asked why, as in onerror.
        failed(data).then((error) => {
          if (broken) return; // the timer fired meanwhile
          clearTimeout(timer);
          fail(error);
          reject(error);
        });
      } else if (data.type === 'reply') {
        settle(data);
      } else if (data.type === 'embed') {
        embed(data);
      }
    };
  });

  /** The error of a start that failed: a script the worker imports as it starts (Pyodide's)
   * that would not run is told as a static import's is, with what its server answered. */
  async function failed({ message, script }) {
    if (script === undefined) return new Error(`chunker: Python failed to start: ${message}`);
    const why = await whyNotRun(new URL(script));
    return new Error(`chunker: the worker ${workerUrl} failed: ${why}`);
  }

  function settle({ id, reply, error }) {
    const call = calls.get(id);
    calls.delete(id);
    if (error) {
      // The worker may not hold the text this call sent (it failed on its way into
      // Python): the next call sends its text again rather than trust the worker's copy.
      lastText = undefined;
      // An embedFn that threw is the call's own error; otherwise a bug, named as found, or
      // the tokenizer that did not load, with the `field` that asked for it.
      const failed = Object.assign(new Error(error.message), { name: error.name });
      if (typeof error.field === 'string') failed.field = error.field;
      call.reject(call.embedError ?? failed);
      return;
    }
    try {
      const { ints, ascii, json } = readReply(reply);
      const { result, error: bad } = json;
      if (bad) call.reject(inputError(bad));
      else call.resolve(call.finish ? call.finish(result, ints, ascii) : result);
    } catch (failure) {
      call.reject(failure); // a reply this page cannot read must not leave the call pending
    }
  }

  async function embed({ id, call: callId, sentences }) {
    const call = calls.get(callId);
    try {
      const answer = await call.embedFn(JSON.parse(sentences));
      // undefined is no JSON; as null it reaches Python, which says what it wanted.
      const vectors = toJson(answer === undefined ? null : answer);
      worker.postMessage({ type: 'embedded', id, vectors });
    } catch (error) {
      call.embedError = error;
      worker.postMessage({ type: 'embedded', id, error: String(error?.message ?? error) });
    }
  }

  // One call of the bridge: `args` holds the arguments under the original's names. The
  // argument `textKey`, when a string, travels apart, for the worker to write into Python as
  // UTF-16 code units: JSON would escape it, and Pyodide converts bytes far faster than
  // strings. `finish`, when given, makes the answer from the result and the reply's ints
  // and ASCII text. `tokens` says the call counts tokens: the worker loads the tokenizer
  // first, on the first such call.
  function call(operation, args, { textKey, embedFn, finish, tokens = false } = {}) {
    if (broken) return Promise.reject(broken);
    let request;
    let text;
    try {
      if (textKey && typeof args[textKey] === 'string') {
        text = args[textKey];
        request = toJson({ ...args, [textKey]: undefined });
      } else {
        textKey = undefined;
        request = toJson(args);
      }
    } catch (error) {
      return Promise.reject(error); // a BigInt or a cycle: JSON's own TypeError
    }
    const id = nextId++;
    const message = { type: 'call', id, operation, request, textKey, embed: !!embedFn, tokens };
    if (text !== undefined && text === lastText) message.sameText = true;
    else if (text !== undefined) message.text = lastText = text;
    return new Promise((resolve, reject) => {
      calls.set(id, { resolve, reject, embedFn, finish });
      worker.postMessage(message);
    });
  }

  return { ready, call, close: fail };
}

// A JavaScript MIME type, which a browser requires of a module script: "text/javascript".
const JAVASCRIPT_TYPE_RE = /^(?:text|application)\/(?:x-)?(?:javascript|ecmascript)$/;

/**
 * Why the module worker at `url` did not load, as its server tells it: the status and type
 * answered for the worker's script ("HTTP 404 (text/html)"). The worker's error event says
 * nothing (the browser tells the console alone), so the script is asked for again. The
 * site's worker.js imports nothing statically (build.py bundles its modules in): what it
 * imports later, it names itself when that fails (whyNotRun).
 *
 * @param {URL} url the worker's script
 * @returns {Promise<string>}
 */
async function whyNotLoaded(url) {
  try {
    return (await scriptAnswerAt(url)) || 'it loads as a module; the browser console says why';
  } catch (error) {
    return `fetching it again to see why failed too (${error.message})`;
  }
}

/**
 * Why the module script at `url`, which the worker imported, did not run, as its server tells
 * it ("…/pyodide.mjs answered HTTP 500 (text/html)").
 *
 * @param {URL} url
 * @returns {Promise<string>}
 */
async function whyNotRun(url) {
  try {
    const answer = await scriptAnswerAt(url);
    if (answer) return `${url} answered ${answer}`;
    return `${url} did not run as a module; the browser console says why`;
  } catch (error) {
    return `${url} did not load, nor when fetched again to see why (${error.message})`;
  }
}

/** scriptAnswer of the response at `url`, its body left unread. */
async function scriptAnswerAt(url) {
  const response = await fetch(url);
  response.body?.cancel(); // only its status and type are wanted
  return scriptAnswer(response);
}

/** '' for a response a browser runs as a module script, else its status and type. */
function scriptAnswer(response) {
  const type = response.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
  if (response.ok && JAVASCRIPT_TYPE_RE.test(type)) return '';
  return `HTTP ${response.status} (${type || 'no content type'})`;
}

// JSON for the bridge. JSON would turn NaN and Infinity into null, which reads as "use the
// default"; as strings they reach Python, which names them in its TypeError. Typed arrays
// (Float32Array vectors from an embedding model) go as the arrays of numbers they are.
function toJson(value) {
  return JSON.stringify(value, (key, item) => {
    if (typeof item === 'number' && !Number.isFinite(item)) return String(item);
    if (ArrayBuffer.isView(item) && !(item instanceof DataView)) return Array.from(item);
    return item;
  });
}
