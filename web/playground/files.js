// Open a local file, with the picker or by dropping it anywhere on the page. The file is read
// here, in the tab: nothing is uploaded.

import { kindOfFile } from './sources.js';

const ACCEPTED = /\.(md|markdown|txt|text|json|jsonl)$/i;

// The largest file the page opens. Putting a text in a text box holds the page still while
// the browser lays it out, longer the longer the text: past this size, for seconds
// (tests/bench/playground.py measures it; docs/playground.md has the figures). A larger file
// is refused before it is read, saying so.
const MAX_FILE_BYTES = 1_000_000;

const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

// Fatal: bytes that are not UTF-8 throw, rather than becoming U+FFFD in a text that would be
// chunked as if it were one. Like `file.text()`, it drops a byte order mark.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Call `onFile(name, text)` for each file opened, `onError(message)` for one refused (and
 * `onError('')` when a later one is opened). A refused file changes nothing else.
 */
export function acceptFiles({ picker, page, onFile, onError }) {
  async function open(file) {
    if (!file) return;
    if (!ACCEPTED.test(file.name) && !file.type.startsWith('text/')) {
      onError(`${file.name} is not a text file: open a .md, .txt, or a .json or .jsonl `
        + 'transcript.');
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      const command = kindOfFile(file.name) === 'transcript' ? 'turns' : 'chunk';
      onError(`${file.name} is ${megabytes(file.size)} MB, too large to open here: the page `
        + `opens files of up to ${megabytes(MAX_FILE_BYTES)} MB, as the browser's text box `
        + 'holds the page still for seconds with a larger one. It was not opened. Cut it with '
        + `the command line instead: chunker ${command} ${file.name}`);
      return;
    }
    let bytes;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch (error) {
      onError(`${file.name} could not be read: ${error.message}`);
      return;
    }
    const text = decoded(bytes);
    if (text === null) {
      onError(`${file.name} is not UTF-8 text (a picture or another binary file named as text, `
        + 'or text saved in another encoding): it was not opened, and the text here is as it was.');
      return;
    }
    onError('');
    onFile(file.name, text);
  }

  picker.addEventListener('change', () => {
    open(picker.files[0]);
    picker.value = '';  // so that opening the same file again is a change too
  });

  // The page takes a drop anywhere; without preventDefault the browser would navigate to it.
  let depth = 0;
  const dragging = (on) => page.classList.toggle('dragging', on);
  page.addEventListener('dragenter', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    depth += 1;
    dragging(true);
  });
  page.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) dragging(false);
  });
  page.addEventListener('dragover', (event) => event.preventDefault());
  page.addEventListener('drop', (event) => {
    event.preventDefault();
    depth = 0;
    dragging(false);
    open(event.dataTransfer?.files[0]);
  });
}

/** `bytes` as text, or null when they are not UTF-8 text: a NUL (no text file holds one, a
 * binary file or UTF-16 text nearly always does) or a sequence UTF-8 does not allow. */
function decoded(bytes) {
  if (bytes.includes(0)) return null;
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}
